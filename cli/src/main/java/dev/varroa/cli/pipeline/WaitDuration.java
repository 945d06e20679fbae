package dev.varroa.cli.pipeline;

import dev.varroa.cli.input.InvalidInputException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;

/** A duration as people write it on a command line: 90s, 30m, 2h, 1h30m, or ISO-8601 (PT30M). */
final class WaitDuration implements ITypeConverter<Duration> {

  private static final Pattern PARTS = Pattern.compile("(?:(\\d+)h)?(?:(\\d+)m)?(?:(\\d+)s)?");

  @Override
  public Duration convert(String value) {
    return parse(value);
  }

  static Duration parse(String value) {
    Matcher parts = PARTS.matcher(value);
    Duration duration;
    if (!value.isEmpty() && parts.matches()) {
      duration = Duration.ofHours(number(parts.group(1))).plusMinutes(number(parts.group(2)))
          .plusSeconds(number(parts.group(3)));
    } else {
      try {
        duration = Duration.parse(value);
      } catch (DateTimeParseException e) {
        throw new InvalidInputException("--timeout '" + value + "' is not a duration: write e.g. 90s, 30m, 2h or"
            + " 1h30m");
      }
    }
    if (duration.isNegative() || duration.isZero()) {
      throw new InvalidInputException("--timeout '" + value + "' must be longer than zero, e.g. 30m");
    }
    return duration;
  }

  private static long number(String digits) {
    return digits == null ? 0 : Long.parseLong(digits);
  }
}

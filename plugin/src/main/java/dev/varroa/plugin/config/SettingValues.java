package dev.varroa.plugin.config;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses one environment variable's value; every failure names the variable and the fix. */
public final class SettingValues {

  private static final Pattern BYTE_SIZE = Pattern.compile("(\\d+)\\s*(Ki|Mi|Gi)?");

  private SettingValues() {
  }

  /**
   * A positive duration written as seconds ({@code 5}, {@code 1.5}) or ISO-8601 ({@code PT1.5S});
   * {@code fallback} when the variable is unset or blank.
   */
  public static Duration duration(String variable, String value, Duration fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    Duration parsed;
    try {
      parsed = text.regionMatches(true, 0, "P", 0, 1)
          ? Duration.parse(text.toUpperCase(Locale.ROOT))
          : Duration.ofNanos(new BigDecimal(text).movePointRight(9).longValueExact());
    } catch (DateTimeParseException | NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(variable + "='" + text + "' is not a duration; set it to seconds"
          + " (e.g. 5 or 1.5) or to ISO-8601 (e.g. PT5S), or unset it for the default " + seconds(fallback));
    }
    if (parsed.isNegative() || parsed.isZero()) {
      throw new IllegalArgumentException(variable + "='" + text + "' must be longer than zero; set it to seconds"
          + " (e.g. 5 or 1.5) or to ISO-8601 (e.g. PT5S), or unset it for the default " + seconds(fallback));
    }
    return parsed;
  }

  /** A positive byte count, plain ({@code 67108864}) or with a binary suffix ({@code 64Mi}). */
  public static long bytes(String variable, String value, long fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    Matcher matcher = BYTE_SIZE.matcher(text);
    long parsed;
    try {
      if (!matcher.matches()) {
        throw new NumberFormatException(text);
      }
      long unit = matcher.group(2) == null ? 1 : switch (matcher.group(2)) {
        case "Ki" -> 1L << 10;
        case "Mi" -> 1L << 20;
        default -> 1L << 30;
      };
      parsed = Math.multiplyExact(Long.parseLong(matcher.group(1)), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException(variable + "='" + text + "' is not a byte size; set it to a number of"
          + " bytes (e.g. 67108864) or with a binary suffix (e.g. 64Mi, 1Gi), or unset it for the default " + fallback);
    }
    if (parsed <= 0) {
      throw new IllegalArgumentException(variable + "='" + text + "' must be more than zero bytes; e.g. 64Mi");
    }
    return parsed;
  }

  /** {@code true} or {@code false} (any case); {@code fallback} when unset or blank. */
  public static boolean flag(String variable, String value, boolean fallback) {
    if (value == null || value.isBlank()) {
      return fallback;
    }
    String text = value.strip();
    if (text.equalsIgnoreCase("true")) {
      return true;
    }
    if (text.equalsIgnoreCase("false")) {
      return false;
    }
    throw new IllegalArgumentException(variable + "='" + text + "' is neither true nor false; set it to true or"
        + " false, or unset it for the default " + fallback);
  }

  static String seconds(Duration duration) {
    return BigDecimal.valueOf(duration.toNanos()).movePointLeft(9).stripTrailingZeros().toPlainString() + " s";
  }
}

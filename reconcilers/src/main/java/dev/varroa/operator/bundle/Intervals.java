package dev.varroa.operator.bundle;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads Flux-style Go durations (30s, 5m, 1h30m, 1.5h) as the CRD schema accepts them. */
public final class Intervals {
  private static final Pattern PART = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(ms|s|m|h)");

  private Intervals() {}

  public static Duration parse(String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    Matcher m = PART.matcher(text);
    double millis = 0;
    int end = 0;
    while (m.find() && m.start() == end) {
      double n = Double.parseDouble(m.group(1));
      millis += switch (m.group(2)) {
        case "ms" -> n;
        case "s" -> n * 1_000;
        case "m" -> n * 60_000;
        default -> n * 3_600_000;
      };
      end = m.end();
    }
    return end == text.length() && millis > 0 ? Duration.ofMillis((long) millis) : fallback;
  }
}

package dev.varroa.cli.bff;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Ages as kubectl prints them (45s, 12m, 5h, 3d). Pure. */
public final class Ages {

  private Ages() {}

  public static String of(Duration age) {
    long seconds = Math.max(0, age.toSeconds());
    if (seconds < 120) {
      return seconds + "s";
    }
    if (seconds < 120 * 60) {
      return seconds / 60 + "m";
    }
    if (seconds < 48 * 3600) {
      return seconds / 3600 + "h";
    }
    return seconds / 86400 + "d";
  }

  /** The age of an RFC 3339 time at now; "-" when the time is absent or unreadable. */
  public static String since(String rfc3339, Instant now) {
    if (rfc3339 == null || rfc3339.isBlank()) {
      return "-";
    }
    try {
      return of(Duration.between(OffsetDateTime.parse(rfc3339).toInstant(), now));
    } catch (DateTimeParseException e) {
      return "-";
    }
  }
}

package dev.varroa.plugin.claims;

import java.time.Duration;
import java.util.List;

/**
 * When to ask again after a retry decision or no decision (UNAVAILABLE): 1 s, 2 s, 5 s, 10 s, then every 30 s; a
 * retry decision's {@code retryAfterMillis} wins when it is longer.
 */
public final class ClaimRetrySchedule {

  public static final List<Duration> FIRST_RETRIES =
      List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(5), Duration.ofSeconds(10));
  public static final Duration THEN_EVERY = Duration.ofSeconds(30);

  private ClaimRetrySchedule() {
  }

  /** The wait before ask number {@code retry + 1}, {@code retry} counting from 0 for the first retry. */
  public static Duration delay(int retry, long retryAfterMillis) {
    Duration scheduled = retry < FIRST_RETRIES.size() ? FIRST_RETRIES.get(retry) : THEN_EVERY;
    Duration asked = Duration.ofMillis(Math.max(0, retryAfterMillis));
    return asked.compareTo(scheduled) > 0 ? asked : scheduled;
  }
}

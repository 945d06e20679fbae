package dev.varroa.operator.hibernation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How many deliveries the waker keeps per source address and minute, on this replica: a token bucket per source that
 * holds a minute's worth and refills evenly, so a burst of one minute's deliveries passes and a flood does not.
 */
public final class SourceRateLimit {
  /** Sources remembered at once; beyond it the idle ones are forgotten, and if none is idle a new source waits. */
  static final int MAX_SOURCES = 10_000;

  private final int perMinute;
  private final Clock clock;
  private final Map<String, Bucket> buckets = new HashMap<>();

  /** @param perMinute deliveries kept per source and minute; at least 1 */
  public SourceRateLimit(int perMinute, Clock clock) {
    if (perMinute < 1) {
      throw new IllegalArgumentException("a rate of " + perMinute + " kept deliveries per minute keeps none; fix: set"
          + " at least 1");
    }
    this.perMinute = perMinute;
    this.clock = clock;
  }

  public int perMinute() {
    return perMinute;
  }

  /** Takes one delivery for the source; empty when it may be kept, else how long until the source may send one. */
  public synchronized Optional<Duration> take(String source) {
    Instant now = clock.instant();
    Bucket bucket = buckets.get(source);
    if (bucket == null) {
      if (buckets.size() >= MAX_SOURCES) {
        buckets.values().removeIf(b -> b.tokens(now, perMinute) >= perMinute);
      }
      if (buckets.size() >= MAX_SOURCES) {
        return Optional.of(Duration.ofMinutes(1));
      }
      bucket = new Bucket(perMinute, now);
      buckets.put(source, bucket);
    }
    double tokens = bucket.tokens(now, perMinute);
    if (tokens < 1) {
      long millis = (long) Math.ceil((1 - tokens) * Duration.ofMinutes(1).toMillis() / perMinute);
      return Optional.of(Duration.ofMillis(Math.max(1, millis)));
    }
    bucket.left = tokens - 1;
    bucket.at = now;
    return Optional.empty();
  }

  /** Tokens left at {@code at}, and when they were counted. */
  private static final class Bucket {
    double left;
    Instant at;

    Bucket(double left, Instant at) {
      this.left = left;
      this.at = at;
    }

    double tokens(Instant now, int perMinute) {
      double refilled = Math.max(0, Duration.between(at, now).toMillis()) * perMinute
          / (double) Duration.ofMinutes(1).toMillis();
      return Math.min(perMinute, left + refilled);
    }
  }
}

package dev.varroa.operator.hooks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The authentic deliveries accepted lately, each under its keys (the sender's delivery ids and the body's digest): one
 * seen again within the window is a replay, or a redelivery, and re-checks nothing. Memory is bounded: past the
 * window or past the most keys remembered, the oldest are forgotten first.
 */
final class SeenDeliveries {
  /** How long a delivery is remembered; a replay after that only costs a re-check, as any push would. */
  static final Duration WINDOW = Duration.ofHours(1);
  /** A few hundred bytes each: some MiB at most, however fast deliveries come. */
  static final int MAX_KEYS = 10_000;

  private final Clock clock;
  private final Duration window;
  private final int maxKeys;
  // insertion order is arrival order, since a key already present is never put again
  private final LinkedHashMap<String, Instant> seen = new LinkedHashMap<>();

  SeenDeliveries(Clock clock) {
    this(clock, WINDOW, MAX_KEYS);
  }

  SeenDeliveries(Clock clock, Duration window, int maxKeys) {
    this.clock = clock;
    this.window = window;
    this.maxKeys = maxKeys;
  }

  /** The first of the keys already seen within the window; when none was, every key is remembered from now. */
  synchronized Optional<String> seenBefore(List<String> keys) {
    Instant now = clock.instant();
    Instant oldest = now.minus(window);
    Iterator<Map.Entry<String, Instant>> entries = seen.entrySet().iterator();
    while (entries.hasNext() && entries.next().getValue().isBefore(oldest)) {
      entries.remove();
    }
    for (String key : keys) {
      if (seen.containsKey(key)) {
        return Optional.of(key);
      }
    }
    keys.forEach(key -> seen.put(key, now));
    Iterator<String> eldest = seen.keySet().iterator();
    while (seen.size() > maxKeys) {
      eldest.next();
      eldest.remove();
    }
    return Optional.empty();
  }

  synchronized int size() {
    return seen.size();
  }
}

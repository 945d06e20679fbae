package dev.varroa.mite;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with jitter: attempt n waits a random time in [ceiling/2, ceiling], where the
 * ceiling doubles from {@link #RECONNECT_BACKOFF_INITIAL} up to {@link #RECONNECT_BACKOFF_CAP}.
 */
final class Backoff {

  /** The first wait after a failure; short, because a gateway replica usually just moved. */
  static final Duration RECONNECT_BACKOFF_INITIAL = Duration.ofSeconds(1);
  /** Seed 000: "A broken stream reconnects with exponential backoff capped at two minutes." */
  static final Duration RECONNECT_BACKOFF_CAP = Duration.ofMinutes(2);

  private final Duration initial;
  private final Duration cap;
  private final DoubleSupplier random;
  private int failures;

  Backoff() {
    this(RECONNECT_BACKOFF_INITIAL, RECONNECT_BACKOFF_CAP, () -> ThreadLocalRandom.current().nextDouble());
  }

  /** {@code random} yields values in [0, 1). */
  Backoff(Duration initial, Duration cap, DoubleSupplier random) {
    if (initial.isNegative() || initial.isZero() || cap.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff needs 0 < initial <= cap, got " + initial + " and " + cap);
    }
    this.initial = initial;
    this.cap = cap;
    this.random = random;
  }

  /** The wait before the next attempt; each call counts one more failure. */
  synchronized Duration next() {
    Duration ceiling = ceiling(failures);
    if (failures < 62) {
      failures++;
    }
    // half fixed, half random: never a thundering herd at the same instant, never a near-zero wait
    long half = ceiling.toMillis() / 2;
    long jitter = (long) (random.getAsDouble() * (ceiling.toMillis() - half));
    return Duration.ofMillis(half + jitter);
  }

  /** After a healthy connect the next failure starts from the initial wait again. */
  synchronized void reset() {
    failures = 0;
  }

  private Duration ceiling(int n) {
    // doubling stops at the cap long before a long overflows
    long millis = initial.toMillis();
    for (int i = 0; i < n && millis < cap.toMillis(); i++) {
      millis *= 2;
    }
    return Duration.ofMillis(Math.min(millis, cap.toMillis()));
  }
}

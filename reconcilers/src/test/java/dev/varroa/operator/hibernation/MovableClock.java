package dev.varroa.operator.hibernation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The system clock moved ahead on demand: an idle period of minutes passes in a test without waiting for it. */
public final class MovableClock extends Clock {
  private final AtomicReference<Duration> ahead = new AtomicReference<>(Duration.ZERO);

  /** Moves the clock forward by this much (for good: it never goes back). */
  public void advance(Duration by) {
    ahead.updateAndGet(d -> d.plus(by));
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(ahead.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}

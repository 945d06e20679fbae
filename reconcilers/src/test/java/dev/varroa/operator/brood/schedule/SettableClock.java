package dev.varroa.operator.brood.schedule;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock standing still at the instant the test last set: a night across a daylight-saving change, or a cell's grace
 * period, passes in seconds.
 */
public final class SettableClock extends Clock {
  private final AtomicReference<Instant> now;

  public SettableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public Instant instant() {
    return now.get();
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

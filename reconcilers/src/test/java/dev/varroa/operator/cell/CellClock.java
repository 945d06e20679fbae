package dev.varroa.operator.cell;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock standing still where the test set it: a cell's grace period passes without waiting for it. */
final class CellClock extends Clock {
  private final AtomicReference<Instant> now;

  CellClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  void set(Instant instant) {
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

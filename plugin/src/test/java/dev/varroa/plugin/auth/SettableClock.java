package dev.varroa.plugin.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand. */
final class SettableClock extends Clock {
  private Instant now;

  SettableClock(Instant now) {
    this.now = now;
  }

  void set(Instant instant) {
    now = instant;
  }

  void advance(Duration duration) {
    now = now.plus(duration);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("tests use UTC");
  }
}

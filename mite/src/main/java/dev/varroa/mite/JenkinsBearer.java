package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The Jenkins token (a short-lived JWT the operator mints), held in memory only and presented to
 * Jenkins as a bearer token. Knows when to ask for the next one: at two thirds of its lifetime.
 */
final class JenkinsBearer {

  /** Ask for a fresh token once this share of the current one's lifetime has passed. */
  static final double REFRESH_AT_LIFETIME_SHARE = 2.0 / 3.0;

  private final Clock clock;
  private Held held;

  private record Held(String jwt, Instant receivedAt, Instant expiresAt) {
  }

  JenkinsBearer(Clock clock) {
    this.clock = clock;
  }

  /** Keeps the token unless it is empty or older than the one held. */
  synchronized boolean update(JenkinsToken token) {
    if (token.getJwt().isEmpty()) {
      return false;
    }
    Instant expiresAt = Instant.ofEpochMilli(token.getExpiresAtEpochMillis());
    if (held != null && expiresAt.isBefore(held.expiresAt())) {
      return false;
    }
    held = new Held(token.getJwt(), clock.instant(), expiresAt);
    return true;
  }

  /** The JWT to present, if any; Jenkins decides whether it is still good. */
  synchronized Optional<String> jwt() {
    return held == null ? Optional.empty() : Optional.of(held.jwt());
  }

  synchronized Optional<Instant> expiresAt() {
    return held == null ? Optional.empty() : Optional.of(held.expiresAt());
  }

  /** True when the mite holds no token or the one held is past two thirds of its lifetime. */
  synchronized boolean refreshDue() {
    if (held == null) {
      return true;
    }
    Duration lifetime = Duration.between(held.receivedAt(), held.expiresAt());
    Instant refreshAt = held.receivedAt().plusMillis((long) (lifetime.toMillis() * REFRESH_AT_LIFETIME_SHARE));
    return !clock.instant().isBefore(refreshAt);
  }

  @Override
  public String toString() {
    return "JenkinsBearer[" + (held == null ? "none" : "expires " + held.expiresAt()) + "]";
  }
}

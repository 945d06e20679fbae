package dev.varroa.dashboard.identity;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sessions kept in the BFF: the cookie carries only a random id, so a stolen cookie names nothing and a
 * logout ends the session at once. A session ends after its lifetime or the ID token's expiry, whichever is first.
 */
public final class SessionStore {

  public static final String COOKIE = "varroa_session";
  public static final Duration LIFETIME = Duration.ofHours(8);
  /** Beyond this many live sessions the oldest are dropped, so a flood of logins cannot exhaust the heap. */
  static final int MAX_SESSIONS = 10_000;

  public record Session(String id, Caller caller, Instant expiresAt) {}

  private final SecureRandom random = new SecureRandom();
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Clock clock;

  public SessionStore(Clock clock) {
    this.clock = clock;
  }

  public Session open(Caller caller, Instant tokenExpiry) {
    sweep();
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String id = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    Instant end = clock.instant().plus(LIFETIME);
    Session session = new Session(id, caller, tokenExpiry.isBefore(end) ? tokenExpiry : end);
    sessions.put(id, session);
    return session;
  }

  public Optional<Session> find(String id) {
    Session session = sessions.get(id);
    if (session == null) {
      return Optional.empty();
    }
    if (!clock.instant().isBefore(session.expiresAt())) {
      sessions.remove(id);
      return Optional.empty();
    }
    return Optional.of(session);
  }

  public void close(String id) {
    sessions.remove(id);
  }

  private void sweep() {
    Instant now = clock.instant();
    sessions.values().removeIf(s -> !now.isBefore(s.expiresAt()));
    if (sessions.size() >= MAX_SESSIONS) {
      sessions.values().stream().min(java.util.Comparator.comparing(Session::expiresAt))
          .ifPresent(oldest -> sessions.remove(oldest.id()));
    }
  }
}

package dev.varroa.dashboard.identity;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Arrays;
import java.util.Optional;

/**
 * Who sent a request: an API client's bearer token (the provider's ID token, checked against its keys) or a
 * browser's session cookie. A request with neither, or with a token that fails a check, has no caller.
 */
public final class CallerAuthenticator {

  /** No caller: the message says what was missing or refused. */
  public static final class Unauthenticated extends Exception {
    public Unauthenticated(String message) {
      super(message);
    }
  }

  private final BearerTokenVerifier tokens;
  private final SessionStore sessions;

  public CallerAuthenticator(BearerTokenVerifier tokens, SessionStore sessions) {
    this.tokens = tokens;
    this.sessions = sessions;
  }

  public Caller authenticate(HttpServletRequest request) throws Unauthenticated {
    String authorization = request.getHeader("Authorization");
    if (authorization != null) {
      if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw new Unauthenticated("the Authorization header must be 'Bearer <ID token>'");
      }
      try {
        return tokens.verify(authorization.substring(7).trim());
      } catch (BearerTokenVerifier.Refused e) {
        throw new Unauthenticated(e.getMessage());
      }
    }
    Optional<String> session = sessionId(request);
    if (session.isPresent()) {
      return sessions.find(session.get()).map(SessionStore.Session::caller)
          .orElseThrow(() -> new Unauthenticated("the session expired or ended; log in again at /auth/login"));
    }
    throw new Unauthenticated("no credentials: send 'Authorization: Bearer <ID token>' (varroactl login) or log in "
        + "at /auth/login");
  }

  public static Optional<String> sessionId(HttpServletRequest request) {
    return cookie(request, SessionStore.COOKIE);
  }

  public static Optional<String> cookie(HttpServletRequest request, String name) {
    Cookie[] cookies = request.getCookies();
    return cookies == null ? Optional.empty() : Arrays.stream(cookies)
        .filter(c -> name.equals(c.getName())).map(Cookie::getValue).findFirst();
  }
}

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
    return authenticateWithEnd(request).caller();
  }

  /** The caller, and how a live stream learns later that their session or token ended. */
  public Authenticated authenticateWithEnd(HttpServletRequest request) throws Unauthenticated {
    String authorization = request.getHeader("Authorization");
    if (authorization != null) {
      if (!authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
        throw new Unauthenticated("the Authorization header must be 'Bearer <ID token>'");
      }
      try {
        BearerTokenVerifier.Verified verified = tokens.check(authorization.substring(7).trim());
        return new Authenticated(verified.caller(), () -> tokens.now().isBefore(verified.expiresAt())
            ? Optional.empty() : Optional.of("the bearer token expired; log in again (varroactl login)"));
      } catch (BearerTokenVerifier.Refused e) {
        throw new Unauthenticated(e.getMessage());
      }
    }
    Optional<String> session = sessionId(request);
    if (session.isPresent()) {
      String id = session.get();
      Caller caller = sessions.find(id).map(SessionStore.Session::caller)
          .orElseThrow(() -> new Unauthenticated("the session expired or ended; log in again at /auth/login"));
      return new Authenticated(caller, () -> sessions.find(id).isPresent() ? Optional.empty()
          : Optional.of("the session ended (logout or expiry); log in again at /auth/login"));
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

package dev.varroa.dashboard.api;

import dev.varroa.dashboard.identity.AuthorizationCodeLogin;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.identity.SessionStore;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * /auth/login sends the browser to the provider (code flow with PKCE), /auth/callback opens the session,
 * /auth/logout ends it. Cookies are HttpOnly, Secure and SameSite=Lax: Lax so the provider's redirect back (a
 * top-level navigation from another site) still carries the login cookie.
 */
public final class LoginServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(LoginServlet.class);
  static final String LOGIN_COOKIE = "varroa_login";

  private final AuthorizationCodeLogin login;
  private final SessionStore sessions;
  private final Map<String, Object> config;

  /** @param config what GET /auth/config tells a command-line client: the issuer, its client and scopes */
  public LoginServlet(AuthorizationCodeLogin login, SessionStore sessions, Map<String, Object> config) {
    this.login = login;
    this.sessions = sessions;
    this.config = Map.copyOf(config);
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    switch (path) {
      case "/login" -> {
        AuthorizationCodeLogin.Started started = login.start(request.getParameter("return_to"));
        cookie(response, LOGIN_COOKIE, started.state(), AuthorizationCodeLogin.PENDING_LIFETIME);
        response.sendRedirect(started.authorizationUri().toString());
      }
      case "/callback" -> callback(request, response);
      case "/config" -> JsonResponses.write(response, 200, config);
      case "/logout" -> {
        CallerAuthenticator.sessionId(request).ifPresent(sessions::close);
        cookie(response, SessionStore.COOKIE, "", Duration.ZERO);
        response.sendRedirect("/");
      }
      default -> JsonResponses.error(response, 404, "not_found", "no such route: " + request.getRequestURI());
    }
  }

  private void callback(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String providerError = request.getParameter("error");
    if (providerError != null) {
      JsonResponses.error(response, 401, "login_failed", "the provider ended the login: " + providerError
          + Optional.ofNullable(request.getParameter("error_description")).map(d -> " (" + d + ")").orElse(""));
      return;
    }
    try {
      AuthorizationCodeLogin.Completed done = login.complete(request.getParameter("code"),
          request.getParameter("state"), CallerAuthenticator.cookie(request, LOGIN_COOKIE));
      SessionStore.Session session = sessions.open(done.caller(), done.tokenExpiry());
      cookie(response, LOGIN_COOKIE, "", Duration.ZERO);
      cookie(response, SessionStore.COOKIE, session.id(), Duration.between(Instant.now(), session.expiresAt()));
      LOG.info("event=login user=\"{}\" groups={}", done.caller().user(), done.caller().groups().size());
      response.sendRedirect(done.returnTo());
    } catch (AuthorizationCodeLogin.LoginFailed e) {
      LOG.info("event=login_failed error=\"{}\"", e.getMessage());
      JsonResponses.error(response, 401, "login_failed", e.getMessage() + "; start again at /auth/login");
    }
  }

  private static void cookie(HttpServletResponse response, String name, String value, Duration maxAge) {
    long seconds = Math.max(0, maxAge.toSeconds());
    response.addHeader("Set-Cookie", name + "=" + value + "; Path=/; Max-Age=" + seconds
        + "; HttpOnly; Secure; SameSite=Lax");
  }
}

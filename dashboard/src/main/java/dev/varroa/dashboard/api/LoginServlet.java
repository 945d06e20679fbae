package dev.varroa.dashboard.api;

import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.http.SameOriginCheck;
import dev.varroa.dashboard.http.TrustedProxies;
import dev.varroa.dashboard.identity.AuthorizationCodeLogin;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.identity.ReturnPath;
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
 * /auth/login sends the browser to the provider (code flow with PKCE), at most so many times a minute per client
 * address; /auth/callback opens the session; POST /auth/logout from the dashboard's own origin ends it (GET only
 * asks to confirm, so a link or image elsewhere cannot log anyone out). Cookies are HttpOnly, Secure (see
 * {@link CookieSecurity} for the one exception) and SameSite=Lax: Lax so the provider's redirect back (a top-level
 * navigation from another site) still carries the login cookie.
 */
public final class LoginServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(LoginServlet.class);
  static final String LOGIN_COOKIE = "varroa_login";

  /** The GET /auth/logout page loads nothing and may only post back to this origin, and never in a frame. */
  static final String CONFIRMATION_POLICY = "default-src 'none'; form-action 'self'; frame-ancestors 'none'";
  private static final String CONFIRMATION_PAGE = """
      <!doctype html>
      <html lang="en">
      <head><meta charset="utf-8"><title>Log out of Varroa</title></head>
      <body>
      <h1>Log out of Varroa?</h1>
      <form method="post" action="/auth/logout"><button type="submit">Log out</button></form>
      <p><a href="/ui/">Back to the dashboard</a></p>
      </body>
      </html>
      """;

  private final AuthorizationCodeLogin login;
  private final SessionStore sessions;
  private final Map<String, Object> config;
  private final LoginRateLimit limit;
  private final TrustedProxies proxies;
  private final SameOriginCheck origins;
  private final CookieSecurity cookies;

  /** @param config what GET /auth/config tells a command-line client: the issuer, its client and scopes */
  public LoginServlet(AuthorizationCodeLogin login, SessionStore sessions, Map<String, Object> config,
      LoginRateLimit limit, TrustedProxies proxies, SameOriginCheck origins, CookieSecurity cookies) {
    this.cookies = cookies;
    this.login = login;
    this.sessions = sessions;
    this.config = Map.copyOf(config);
    this.limit = limit;
    this.proxies = proxies;
    this.origins = origins;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    switch (path) {
      case "/login" -> start(request, response);
      case "/callback" -> callback(request, response);
      case "/config" -> JsonResponses.write(response, 200, config);
      case "/logout" -> confirmLogout(response);
      default -> JsonResponses.error(response, 404, "not_found", "no such route: " + request.getRequestURI());
    }
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    if (!"/logout".equals(path)) {
      response.setHeader("Allow", "GET, HEAD");
      JsonResponses.error(response, 405, "method_not_allowed", request.getRequestURI() + " answers GET only; "
          + "POST is for /auth/logout");
      return;
    }
    Optional<String> crossSite = origins.refusal(request);
    if (crossSite.isPresent()) {
      LOG.info("event=logout_refused reason=\"{}\"", crossSite.get());
      JsonResponses.error(response, 403, "forbidden", "logout refused: " + crossSite.get() + "; log out with the "
          + "dashboard's own Log out button");
      return;
    }
    Optional<String> session = CallerAuthenticator.sessionId(request);
    session.ifPresent(sessions::close);
    cookie(response, SessionStore.COOKIE, "", Duration.ZERO);
    if (session.isPresent()) {
      LOG.info("event=logout");
    }
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Location", "/");
    response.setStatus(303);
  }

  private void start(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String source = proxies.source(request);
    Optional<Duration> wait = limit.take(source);
    if (wait.isPresent()) {
      long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
      LOG.info("event=login_rate_limited source={} retry_after_seconds={}", source, seconds);
      response.setHeader("Retry-After", String.valueOf(seconds));
      JsonResponses.error(response, 429, "too_many_requests", "this client address started more than "
          + limit.perMinute() + " logins in the last minute; try again in " + seconds + " s (the limit is "
          + "VARROA_BFF_LOGIN_RATE_LIMIT; behind a proxy, list it in VARROA_BFF_TRUSTED_PROXIES)");
      return;
    }
    String returnTo = request.getParameter("return_to");
    if (returnTo != null && !returnTo.isEmpty()) {
      ReturnPath.refusal(returnTo).ifPresent(reason -> LOG.info("event=login_return_to_refused reason=\"{}\" "
          + "length={} landing={}", reason, returnTo.length(), ReturnPath.DEFAULT));
    }
    AuthorizationCodeLogin.Started started = login.start(returnTo);
    cookie(response, LOGIN_COOKIE, started.state(), AuthorizationCodeLogin.PENDING_LIFETIME);
    response.sendRedirect(started.authorizationUri().toString());
  }

  private static void confirmLogout(HttpServletResponse response) throws IOException {
    response.setStatus(200);
    response.setContentType("text/html; charset=utf-8");
    response.setHeader("Cache-Control", "no-store");
    response.setHeader("Content-Security-Policy", CONFIRMATION_POLICY);
    response.setHeader("X-Frame-Options", "DENY");
    response.getOutputStream().write(CONFIRMATION_PAGE.getBytes(java.nio.charset.StandardCharsets.UTF_8));
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

  private void cookie(HttpServletResponse response, String name, String value, Duration maxAge) {
    long seconds = Math.max(0, maxAge.toSeconds());
    response.addHeader("Set-Cookie", name + "=" + value + "; Path=/; Max-Age=" + seconds + cookies.attributes());
  }
}

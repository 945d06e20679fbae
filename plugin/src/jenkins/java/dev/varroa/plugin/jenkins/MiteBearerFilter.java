package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.auth.BearerCredentials;
import dev.varroa.plugin.auth.JenkinsTokenVerifier;
import dev.varroa.plugin.auth.TokenVerification;
import hudson.security.ACL;
import hudson.security.ACLContext;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Runs a request carrying a bearer token the core verifies as the Varroa identity; answers 401 to a bearer token
 * it refuses; leaves every other request to the configured security realm. Registered whatever realm is set, so
 * the mite's token keeps working beside a bundle's own realm.
 * Jenkins API: hudson.util.PluginServletFilter (a jakarta.servlet.Filter), hudson.security.ACL#as2(Authentication).
 */
final class MiteBearerFilter implements Filter {

  private static final Logger LOG = Logger.getLogger(MiteBearerFilter.class.getName());

  private final JenkinsTokenVerifier verifier;

  MiteBearerFilter(JenkinsTokenVerifier verifier) {
    this.verifier = verifier;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Optional<BearerCredentials> bearer =
        BearerCredentials.fromAuthorizationHeader(((HttpServletRequest) request).getHeader("Authorization"));
    if (bearer.isEmpty()) {
      chain.doFilter(request, response);
      return;
    }
    TokenVerification verification = verifier.verify(bearer.get().token());
    if (verification instanceof TokenVerification.Refused refused) {
      LOG.warning("event=jenkins_token_refused reason=" + refused.reason() + " message=\"" + refused.message() + "\"");
      HttpServletResponse http = (HttpServletResponse) response;
      http.setHeader("WWW-Authenticate", "Bearer");
      http.sendError(HttpServletResponse.SC_UNAUTHORIZED, "bearer token refused: " + refused.reason());
      return;
    }
    try (ACLContext ignored = ACL.as2(new MiteAuthentication())) {
      chain.doFilter(request, response);
    }
  }
}

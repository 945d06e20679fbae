package dev.varroa.dashboard.mcp;

import dev.varroa.dashboard.api.JsonResponses;
import dev.varroa.dashboard.identity.BearerTokenVerifier;
import dev.varroa.dashboard.identity.Caller;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Lets an MCP request through only with a valid bearer ID token, and hands the SDK the caller it names; anything
 * else is answered 401 before the MCP transport sees it. No session cookie here: MCP clients are API clients.
 */
final class BearerTokenFilter extends HttpFilter {

  /** The request attribute the transport context is built from. */
  static final String CALLER_ATTRIBUTE = "varroa.mcp.caller";

  private final BearerTokenVerifier tokens;

  BearerTokenFilter(BearerTokenVerifier tokens) {
    this.tokens = tokens;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    String authorization = request.getHeader("Authorization");
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      JsonResponses.unauthenticated(response, "the MCP endpoint needs 'Authorization: Bearer <ID token>' (the token `varroactl "
          + "login` stores)");
      return;
    }
    Caller caller;
    try {
      caller = tokens.verify(authorization.substring(7).trim());
    } catch (BearerTokenVerifier.Refused refused) {
      JsonResponses.unauthenticated(response, refused.getMessage());
      return;
    }
    request.setAttribute(CALLER_ATTRIBUTE, caller);
    chain.doFilter(request, response);
  }
}

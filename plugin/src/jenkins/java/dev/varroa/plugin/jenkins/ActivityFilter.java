package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.activity.InboundRequest;
import dev.varroa.plugin.activity.UserRequestClock;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;

/**
 * Tells the core's UserRequestClock about every HTTP request before Jenkins handles it, so the inactivity policy
 * knows when Jenkins was last used; it never changes or stops a request.
 * Jenkins API: hudson.util.PluginServletFilter (a jakarta.servlet.Filter, Jenkins 2.475+).
 */
final class ActivityFilter implements Filter {

  private final UserRequestClock clock;

  ActivityFilter(UserRequestClock clock) {
    this.clock = clock;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (request instanceof HttpServletRequest http) {
      String uri = http.getRequestURI();
      String context = http.getContextPath();
      // the path within Jenkins, whatever --prefix it runs under
      String path = context != null && !context.isEmpty() && uri.startsWith(context) ? uri.substring(context.length()) : uri;
      clock.seen(new InboundRequest(http.getRemoteAddr(), http.getHeader("Authorization"), http.getHeader("User-Agent"),
          path));
    }
    chain.doFilter(request, response);
  }
}

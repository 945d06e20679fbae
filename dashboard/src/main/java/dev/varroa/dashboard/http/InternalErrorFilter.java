package dev.varroa.dashboard.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Every servlet's unexpected exception becomes {@link InternalErrors}' answer instead of Jetty's error page. */
public final class InternalErrorFilter implements Filter {

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    try {
      chain.doFilter(request, response);
    } catch (java.io.EOFException clientWentAway) {
      throw clientWentAway;
    } catch (IOException | ServletException | RuntimeException e) {
      boolean tooLate = response.isCommitted();
      InternalErrors.answer((HttpServletRequest) request, (HttpServletResponse) response, e);
      if (tooLate) {
        // no answer can follow bytes already sent: Jetty ends the connection, the log has the cause
        throw e;
      }
    }
  }
}

package dev.varroa.dashboard.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code X-Content-Type-Options: nosniff} on every response of the BFF: a console log or an error that echoes input is
 * then shown as the text it is declared as, never run as HTML or script a browser guessed from its bytes.
 */
public final class NoSniffFilter implements Filter {

  public static final String HEADER = "X-Content-Type-Options";

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    ((HttpServletResponse) response).setHeader(HEADER, "nosniff");
    chain.doFilter(request, response);
  }
}

package dev.varroa.dashboard.ui;

import dev.varroa.dashboard.api.JsonResponses;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /} opens the browser client: a person typing the BFF's address lands on the dashboard. */
public final class RootRedirectServlet extends HttpServlet {

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
      JsonResponses.error(response, 405, "method_not_allowed", "the Varroa API only reads: " + request.getMethod());
      return;
    }
    response.setHeader("Location", "/ui/");
    response.setHeader("Cache-Control", "no-store");
    response.setStatus(302);
  }
}

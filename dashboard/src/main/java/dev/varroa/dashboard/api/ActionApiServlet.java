package dev.varroa.dashboard.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.actions.Action;
import dev.varroa.dashboard.actions.ActionRefused;
import dev.varroa.dashboard.actions.ClusterActions;
import dev.varroa.dashboard.http.InternalErrors;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;

/**
 * POST /actions, the API's one write route (docs/actions.md): an action from varroactl or an MCP client, with a
 * bearer token. A browser session is refused: the dashboard shows actions as commands to copy and never sends one.
 */
public final class ActionApiServlet extends HttpServlet {

  /** An action body is a few hundred bytes, a BroodOperation manifest a few KiB; anything far larger is not one. */
  static final int MAX_BODY_BYTES = 256 * 1024;

  private final ClusterActions actions;
  private final CallerAuthenticator authenticator;

  public ActionApiServlet(ClusterActions actions, CallerAuthenticator authenticator) {
    this.actions = actions;
    this.authenticator = authenticator;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!"POST".equals(request.getMethod())) {
      response.setHeader("Allow", "POST");
      JsonResponses.error(response, 405, "method_not_allowed", "/actions takes POST {\"requestId\", \"verb\","
          + " \"target\"} (and \"manifest\" for broodop-create, \"pipeline\" and \"parameters\" for pipeline-run);"
          + " docs/actions.md");
      return;
    }
    if (request.getHeader("Authorization") == null) {
      write(response, ActionRefused.browser());
      return;
    }
    Caller caller;
    try {
      caller = authenticator.authenticate(request);
    } catch (CallerAuthenticator.Unauthenticated e) {
      JsonResponses.unauthenticated(response, e.getMessage());
      return;
    }
    try {
      Action action = Action.parse(body(request), caller);
      JsonResponses.write(response, 200, actions.run(action));
    } catch (ActionRefused refused) {
      write(response, refused);
    } catch (RuntimeException e) {
      InternalErrors.answer(request, response, e);
    }
  }

  private static JsonNode body(HttpServletRequest request) throws IOException, ActionRefused {
    try (InputStream in = request.getInputStream()) {
      byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        throw ActionRefused.badField("body", "the body is larger than " + MAX_BODY_BYTES + " bytes; an action is a"
            + " small JSON object");
      }
      try {
        return JsonResponses.JSON.readTree(bytes);
      } catch (IOException e) {
        throw ActionRefused.badField("body", "the body is not JSON: " + e.getMessage());
      }
    }
  }

  private static void write(HttpServletResponse response, ActionRefused refused) throws IOException {
    JsonResponses.write(response, refused.status(), refused.body());
  }
}

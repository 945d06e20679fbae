package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A BFF command that could not be answered: the server said no (401/403/404/5xx), it could not be reached, or there is
 * no usable login. varroactl prints {@link #text()} on stderr and exits 1, as kubectl does.
 */
public final class BffFailure extends RuntimeException {

  private static final Map<Integer, String> REASONS = Map.of(400, "BadRequest", 401, "Unauthorized", 403, "Forbidden",
      404, "NotFound", 405, "MethodNotAllowed", 409, "Conflict", 503, "ServiceUnavailable", 504, "GatewayTimeout");

  private final String text;

  private BffFailure(String text) {
    super(text);
    this.text = text;
  }

  /** A failure on this side: no login, an expired token, an unreachable server. */
  public static BffFailure local(String message) {
    return new BffFailure("error: " + message);
  }

  /** The server's answer, in kubectl's words; a 403 names the missing permission on a line of its own. */
  public static BffFailure fromServer(int status, JsonNode body, String rawBody) {
    String message = body != null && body.hasNonNull("message") ? body.path("message").asText()
        : "the server answered " + status + (rawBody.isBlank() ? "" : ": " + abbreviate(rawBody));
    List<String> lines = new ArrayList<>();
    lines.add("Error from server (" + REASONS.getOrDefault(status, status >= 500 ? "InternalError" : "Status" + status)
        + "): " + message);
    if (status == 403 && body != null && body.has("missing")) {
      lines.add("missing permission: " + permission(body.path("missing")));
    }
    if (status == 400 && body != null && body.hasNonNull("parameter")) {
      lines.add("parameter: " + body.path("parameter").asText());
    }
    if (status == 401) {
      lines.add("run varroactl login to get a new token");
    }
    return new BffFailure(String.join(System.lineSeparator(), lines));
  }

  /** "list controllers (cluster eu-1, namespace team-a, controller orders)". */
  static String permission(JsonNode missing) {
    StringBuilder out = new StringBuilder(missing.path("verb").asText("?")).append(' ')
        .append(missing.path("resource").asText("?"));
    List<String> scope = new ArrayList<>();
    for (String key : List.of("cluster", "namespace", "controller")) {
      if (missing.hasNonNull(key) && !missing.path(key).asText().isEmpty()) {
        scope.add(key + " " + missing.path(key).asText());
      }
    }
    if (!scope.isEmpty()) {
      out.append(" (").append(String.join(", ", scope)).append(')');
    }
    return out.toString();
  }

  private static String abbreviate(String text) {
    String flat = text.strip().replaceAll("\\s+", " ");
    return flat.length() > 200 ? flat.substring(0, 200) + "…" : flat;
  }

  public String text() {
    return text;
  }
}

package dev.varroa.dashboard.actions;

import dev.varroa.dashboard.access.Forbidden;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An action the BFF does not send or that was not carried out, with its HTTP status and a body that says why: a bad
 * field (named), a missing permission (named), a cluster that is not registered, the core cluster, an operator that
 * refused or did not answer.
 */
public final class ActionRefused extends Exception {

  private final int status;
  private final String error;
  private final String outcome;
  private final Map<String, Object> details;

  private ActionRefused(int status, String error, String outcome, String message, Map<String, Object> details) {
    super(message);
    this.status = status;
    this.error = error;
    this.outcome = outcome;
    this.details = details;
  }

  public static ActionRefused badField(String field, String message) {
    return new ActionRefused(400, "bad_request", "invalid", message, Map.of("field", field));
  }

  public static ActionRefused forbidden(Forbidden denied) {
    Map<String, Object> missing = new LinkedHashMap<>();
    missing.put("verb", denied.missing().verb());
    missing.put("resource", denied.missing().resource());
    denied.target().ifPresent(t -> {
      missing.put("cluster", t.cluster());
      if (!t.namespace().isEmpty()) {
        missing.put("namespace", t.namespace());
      }
    });
    return new ActionRefused(403, "forbidden", "denied", denied.getMessage(), Map.of("missing", missing));
  }

  public static ActionRefused notFound(String message) {
    return new ActionRefused(404, "not_found", "refused", message, Map.of());
  }

  /** The operator answered that the object the action names does not exist. */
  public static ActionRefused notFound(String message, Map<String, Object> result) {
    return new ActionRefused(404, "not_found", "refused", message, result);
  }

  /** The action does not fit the target's state (the core cluster, nothing to cancel): kubectl's conflict. */
  public static ActionRefused conflict(String message, Map<String, Object> result) {
    return new ActionRefused(409, "conflict", "refused", message, result);
  }

  public static ActionRefused unavailable(String message) {
    return new ActionRefused(504, "unavailable", "failed", message, Map.of());
  }

  /** Nothing on the bus takes this request: the component that would carry it is not installed. */
  public static ActionRefused noResponder(String message) {
    return new ActionRefused(503, "unavailable", "failed", message, Map.of());
  }

  public static ActionRefused browser() {
    return new ActionRefused(403, "read_only_browser", "refused", "the dashboard in the browser only reads: run the"
        + " action with varroactl or an MCP client (bearer token), which the dashboard shows as a command to copy",
        Map.of());
  }

  public int status() {
    return status;
  }

  /** The audit outcome this refusal stands for: invalid, denied, refused or failed. */
  public String outcome() {
    return outcome;
  }

  public Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("message", getMessage());
    body.putAll(details);
    return body;
  }
}

package dev.varroa.dashboard.reads;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A read that cannot be answered, with the HTTP status it stands for and a body that says why: a bad parameter
 * (naming it), a missing object, a denied permission (naming it), or a cluster that did not answer.
 */
public final class ReadRefused extends Exception {

  private final int status;
  private final String error;
  private final Map<String, Object> details;

  private ReadRefused(int status, String error, String message, Map<String, Object> details) {
    super(message);
    this.status = status;
    this.error = error;
    this.details = details;
  }

  public static ReadRefused badParameter(String parameter, String message) {
    return new ReadRefused(400, "bad_request", message, Map.of("parameter", parameter));
  }

  public static ReadRefused notFound(String message) {
    return new ReadRefused(404, "not_found", message, Map.of());
  }

  public static ReadRefused unavailable(String message) {
    return new ReadRefused(503, "unavailable", message, Map.of());
  }

  public static ReadRefused forbidden(dev.varroa.dashboard.access.Forbidden denied) {
    Map<String, Object> missing = new LinkedHashMap<>();
    missing.put("verb", denied.missing().verb());
    missing.put("resource", denied.missing().resource());
    denied.target().ifPresent(t -> {
      missing.put("cluster", t.cluster());
      if (!t.namespace().isEmpty()) {
        missing.put("namespace", t.namespace());
      }
      if (!t.controller().isEmpty()) {
        missing.put("controller", t.controller());
      }
    });
    return new ReadRefused(403, "forbidden", denied.getMessage(), Map.of("missing", missing));
  }

  public int status() {
    return status;
  }

  public String error() {
    return error;
  }

  /** The JSON body: error, message and what is specific to the refusal. */
  public Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("message", getMessage());
    body.putAll(details);
    return body;
  }
}

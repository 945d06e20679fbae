package dev.varroa.dashboard.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.http.InternalErrors;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.manifests.OperatorManifestCheck;
import dev.varroa.dashboard.reads.Parameters;
import dev.varroa.dashboard.reads.ReadRefused;
import dev.varroa.protocol.bus.v1.ManifestCheckAnswer;
import dev.varroa.protocol.bus.v1.ManifestProblem;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * POST /manifests/check: the target cluster's operator (the body's or query's cluster, default the core) checks a
 * Controller manifest with the CRD schema and its settings resolver and classifies the change against a given
 * current spec; the BFF forwards over NATS. Side-effect free: nothing is stored or applied, so it needs an
 * authenticated caller but no permission beyond that (docs/dashboard-api.md).
 */
public final class ManifestCheckServlet extends HttpServlet {

  public static final String PATH = "/manifests/check";
  /** A Controller manifest is a few kilobytes; this bounds what one request can make the BFF parse. */
  static final int MAX_BODY_BYTES = 256 * 1024;

  private final OperatorManifestCheck check;
  private final CallerAuthenticator authenticator;

  public ManifestCheckServlet(OperatorManifestCheck check, CallerAuthenticator authenticator) {
    this.check = check;
    this.authenticator = authenticator;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!"POST".equals(request.getMethod())) {
      response.setHeader("Allow", "POST");
      JsonResponses.error(response, 405, "method_not_allowed", request.getMethod() + " " + PATH
          + " is not served: POST a JSON body {\"manifest\": \"<yaml>\", \"current\": {spec},"
          + " \"cluster\": \"<name>\"}");
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
      byte[] body;
      try (InputStream in = request.getInputStream()) {
        body = in.readNBytes(MAX_BODY_BYTES + 1);
      }
      if (body.length > MAX_BODY_BYTES) {
        JsonResponses.error(response, 413, "too_large", "the request body is larger than " + MAX_BODY_BYTES
            + " bytes; a Controller manifest is a few kilobytes: send one manifest");
        return;
      }
      JsonNode input;
      try {
        input = JsonResponses.JSON.readTree(body);
      } catch (JsonProcessingException e) {
        JsonResponses.error(response, 400, "invalid_body", "the body is not JSON: " + e.getOriginalMessage()
            + "; send {\"manifest\": \"<yaml>\", \"current\": {spec}}");
        return;
      }
      if (input == null || !input.path("manifest").isTextual()) {
        JsonResponses.error(response, 400, "invalid_body", "the body has no manifest string; send"
            + " {\"manifest\": \"<yaml>\"} and, to classify a change, \"current\": the spec in force");
        return;
      }
      String cluster = cluster(request, input);
      if (cluster.isEmpty()) {
        JsonResponses.error(response, 400, "invalid_body", "cluster is empty; name a registered cluster, or leave"
            + " cluster out to check in the core (" + check.coreCluster() + ")");
        return;
      }
      try {
        // the name becomes a NATS subject token: one that is not a cluster name is refused, not rewritten
        new Parameters(Map.of("cluster", cluster)).cluster("cluster");
      } catch (ReadRefused refused) {
        JsonResponses.refused(response, refused);
        return;
      }
      JsonNode current = input.get("current");
      String currentSpec = current == null || current.isNull() ? "" : current.isTextual() ? current.asText()
          : JsonResponses.JSON.writeValueAsString(current);
      ManifestCheckAnswer answer;
      try {
        answer = check.check(cluster, input.get("manifest").asText(), currentSpec, caller.user());
      } catch (OperatorManifestCheck.Unavailable e) {
        JsonResponses.error(response, 503, "unavailable", e.getMessage());
        return;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        JsonResponses.error(response, 503, "unavailable", OperatorManifestCheck.CHECK_UNAVAILABLE + ": interrupted");
        return;
      }
      JsonResponses.write(response, 200, body(answer));
    } catch (RuntimeException e) {
      InternalErrors.answer(request, response, e);
    }
  }

  /** The manifest's target cluster: the query's cluster, else the body's, else the core. */
  private String cluster(HttpServletRequest request, JsonNode input) {
    String named = request.getParameter("cluster");
    if (named == null && input.path("cluster").isTextual()) {
      named = input.get("cluster").asText();
    }
    return named == null ? check.coreCluster() : named.trim();
  }

  private static Map<String, Object> body(ManifestCheckAnswer answer) throws JsonProcessingException {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", answer.getCluster());
    out.put("valid", answer.getValid());
    out.put("problems", problems(answer, ManifestProblem.Severity.ERROR));
    out.put("warnings", problems(answer, ManifestProblem.Severity.WARNING));
    out.put("manifest", answer.getManifestJson().isEmpty() ? null : JsonResponses.JSON.readTree(
        answer.getManifestJson()));
    if (answer.getClassified()) {
      out.put("changeClass", answer.getChangeClass());
      out.put("restart", answer.getRestart());
      out.put("changes", answer.getChangesList().stream().map(c -> Map.of("field", c.getField(),
          "class", c.getChangeClass(), "effect", c.getEffect())).toList());
    }
    return out;
  }

  private static List<Map<String, String>> problems(ManifestCheckAnswer answer, ManifestProblem.Severity severity) {
    return answer.getProblemsList().stream().filter(p -> p.getSeverity() == severity)
        .map(p -> Map.of("field", p.getField(), "message", p.getMessage(), "fix", p.getFix())).toList();
  }
}

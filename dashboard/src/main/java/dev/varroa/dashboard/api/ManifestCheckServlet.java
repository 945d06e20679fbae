package dev.varroa.dashboard.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.http.InternalErrors;
import dev.varroa.dashboard.identity.CallerAuthenticator;
import dev.varroa.dashboard.manifests.ManifestCheck;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * POST /manifests/check: checks a Controller manifest with the CRD schema and the operator's settings resolver and
 * classifies the change against a given current spec. Side-effect free: nothing is stored, sent or applied, so it
 * needs an authenticated caller but no permission beyond that (docs/dashboard-api.md).
 */
public final class ManifestCheckServlet extends HttpServlet {

  public static final String PATH = "/manifests/check";
  /** A Controller manifest is a few kilobytes; this bounds what one request can make the BFF parse. */
  static final int MAX_BODY_BYTES = 256 * 1024;

  private final ManifestCheck check;
  private final CallerAuthenticator authenticator;

  public ManifestCheckServlet(ManifestCheck check, CallerAuthenticator authenticator) {
    this.check = check;
    this.authenticator = authenticator;
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!"POST".equals(request.getMethod())) {
      response.setHeader("Allow", "POST");
      JsonResponses.error(response, 405, "method_not_allowed", request.getMethod() + " " + PATH
          + " is not served: POST a JSON body {\"manifest\": \"<yaml>\", \"current\": {spec}}");
      return;
    }
    try {
      authenticator.authenticate(request);
    } catch (CallerAuthenticator.Unauthenticated e) {
      response.setHeader("WWW-Authenticate", "Bearer realm=\"varroa\"");
      JsonResponses.error(response, 401, "unauthenticated", e.getMessage());
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
      JsonNode current = input.get("current");
      ManifestCheck.Outcome outcome = check.check(input.get("manifest").asText(),
          current == null || current.isNull() ? Optional.empty() : Optional.of(current));
      JsonResponses.write(response, 200, body(outcome));
    } catch (RuntimeException e) {
      InternalErrors.answer(request, response, e);
    }
  }

  private static Map<String, Object> body(ManifestCheck.Outcome outcome) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("valid", outcome.valid());
    out.put("problems", outcome.problems());
    out.put("warnings", outcome.warnings());
    out.put("manifest", outcome.manifest());
    if (outcome.change() != null) {
      out.put("changeClass", outcome.change().changeClass());
      out.put("restart", outcome.change().restart());
      out.put("changes", outcome.change().changes().stream().map(c -> Map.of("field", c.field(),
          "class", c.changeClass().name(), "effect", c.effect())).toList());
    }
    return out;
  }
}

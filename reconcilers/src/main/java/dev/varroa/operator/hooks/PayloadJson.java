package dev.varroa.operator.hooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads a webhook body as JSON, sent raw or as the {@code payload} field of a form, and fields by dotted path. */
final class PayloadJson {
  static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String FORM = "application/x-www-form-urlencoded";
  private static final String FORM_FIELD = "payload";

  private PayloadJson() {}

  static JsonNode read(String contentType, byte[] body) throws MalformedPayloadException {
    String json = new String(body, StandardCharsets.UTF_8);
    if (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith(FORM)) {
      json = formField(json).orElseThrow(() -> new MalformedPayloadException(
          "form body has no '" + FORM_FIELD + "' field; GitHub and Gitea put the JSON there"));
    }
    try {
      JsonNode root = MAPPER.readTree(json);
      if (root == null || !root.isObject()) {
        throw new MalformedPayloadException("body is not a JSON object");
      }
      return root;
    } catch (JsonProcessingException e) {
      // The original message and location only: Jackson leaves the source text out, so no payload is echoed.
      String at = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr() + " column "
          + e.getLocation().getColumnNr();
      throw new MalformedPayloadException("body is not valid JSON" + at + ": " + e.getOriginalMessage());
    }
  }

  /** The text at a dotted path such as {@code repository.clone_url}; empty when missing, null or blank. */
  static Optional<String> text(JsonNode root, String path) {
    JsonNode node = at(root, path);
    return node.isTextual() && !node.asText().isBlank() ? Optional.of(node.asText()) : Optional.empty();
  }

  static String requiredText(JsonNode root, String path, String expected) throws MalformedPayloadException {
    return text(root, path).orElseThrow(() -> new MalformedPayloadException(
        "field '" + path + "' is missing or not a string; expected " + expected));
  }

  /** Every present text among the paths, in order. */
  static List<String> texts(JsonNode root, String... paths) {
    List<String> found = new ArrayList<>();
    for (String path : paths) {
      text(root, path).ifPresent(found::add);
    }
    return found;
  }

  static JsonNode at(JsonNode root, String path) {
    JsonNode node = root;
    for (String part : path.split("\\.")) {
      node = node.path(part);
    }
    return node;
  }

  private static Optional<String> formField(String form) {
    for (String pair : form.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      if (FORM_FIELD.equals(name) && eq >= 0) {
        return Optional.of(URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }
}

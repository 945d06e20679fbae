package dev.varroa.operator.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The Controller CRD's structural schema (the openAPIV3Schema api/ generates and the chart installs) applied to a
 * manifest the way the API server applies it: types, enums, patterns, lengths, bounds, required and unknown fields,
 * int-or-string and resource quantities. The CEL rules (x-kubernetes-validations) are left to the API server; the
 * one there is today (ingress host) is also a settings-resolver check, which the manifest check runs after this.
 */
public final class ControllerSchema {

  /** Where the crd-generator plugin writes the CRD inside the varroa-api jar. */
  static final String CRD_RESOURCE = "META-INF/fabric8/controllers.varroa.dev-v1.yml";
  public static final String API_VERSION = "varroa.dev/v1alpha1";
  public static final String KIND = "Controller";

  /** Kubernetes' resource.Quantity text form (apimachinery's quantity regular expression, written anew). */
  private static final Pattern QUANTITY =
      Pattern.compile("^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+|Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?$");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
  private static final Pattern DNS_LABEL = Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");

  /** The CRD's patterns, said the way people know them. */
  private static final Map<String, String> PATTERN_NAMES = Map.of(
      DNS_SUBDOMAIN.pattern(), "a DNS-1123 subdomain (lower-case letters, digits, '-' and '.')",
      DNS_LABEL.pattern(), "a DNS-1123 label (lower-case letters, digits and '-')",
      "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$", "a size such as 50Gi");

  private final JsonNode specSchema;

  private ControllerSchema(JsonNode specSchema) {
    this.specSchema = specSchema;
  }

  /** The schema of the CRD on the class path (the varroa-api jar). */
  public static ControllerSchema load() {
    try (InputStream in = ControllerSchema.class.getClassLoader().getResourceAsStream(CRD_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(CRD_RESOURCE + " is not on the class path: the varroa-api jar is missing");
      }
      JsonNode crd = new ObjectMapper(new YAMLFactory()).readTree(in);
      for (JsonNode version : crd.path("spec").path("versions")) {
        if ("v1alpha1".equals(version.path("name").asText())) {
          return new ControllerSchema(version.path("schema").path("openAPIV3Schema").path("properties").path("spec"));
        }
      }
      throw new IllegalStateException(CRD_RESOURCE + " has no v1alpha1 version");
    } catch (IOException e) {
      throw new UncheckedIOException("reading " + CRD_RESOURCE, e);
    }
  }

  /** Every problem of the whole object: identity (apiVersion, kind, metadata) and spec. */
  public List<ManifestProblem> validate(JsonNode manifest) {
    List<ManifestProblem> problems = new ArrayList<>();
    if (!manifest.isObject()) {
      problems.add(new ManifestProblem("(document)", "the manifest is not a YAML mapping",
          "start from apiVersion: " + API_VERSION + ", kind: " + KIND + ", metadata and spec"));
      return problems;
    }
    if (!API_VERSION.equals(manifest.path("apiVersion").asText())) {
      problems.add(new ManifestProblem("apiVersion", "apiVersion is " + describe(manifest.get("apiVersion")),
          "set apiVersion: " + API_VERSION));
    }
    if (!KIND.equals(manifest.path("kind").asText())) {
      problems.add(new ManifestProblem("kind", "kind is " + describe(manifest.get("kind")), "set kind: " + KIND));
    }
    JsonNode metadata = manifest.path("metadata");
    name(problems, "metadata.name", metadata.get("name"), DNS_SUBDOMAIN, 253, "the Controller's name, e.g. team-a");
    name(problems, "metadata.namespace", metadata.get("namespace"), DNS_LABEL, 63,
        "the namespace the controller runs in, e.g. ci");
    JsonNode spec = manifest.get("spec");
    if (spec == null || spec.isNull()) {
      problems.add(new ManifestProblem("spec", "the manifest has no spec",
          "add spec: {} (every setting is optional) or the settings you want"));
    } else {
      check(spec, specSchema, "spec", problems);
    }
    return problems;
  }

  private static void name(List<ManifestProblem> problems, String field, JsonNode value, Pattern pattern, int max,
      String example) {
    if (value == null || value.isNull() || value.asText().isEmpty()) {
      problems.add(new ManifestProblem(field, field + " is missing", "set " + field + " to " + example));
    } else if (!value.isTextual() || !pattern.matcher(value.asText()).matches() || value.asText().length() > max) {
      problems.add(new ManifestProblem(field, describe(value) + " is not " + PATTERN_NAMES.get(pattern.pattern())
          + " of at most " + max + " characters", "set " + field + " to " + example));
    }
  }

  private void check(JsonNode value, JsonNode schema, String path, List<ManifestProblem> problems) {
    if (value.isNull()) {
      return; // the API server prunes a null before defaulting, as if the field were absent
    }
    if (schema.path("x-kubernetes-int-or-string").asBoolean(false)) {
      intOrString(value, path, problems);
      return;
    }
    String type = schema.path("type").asText("");
    switch (type) {
      case "object" -> object(value, schema, path, problems);
      case "array" -> array(value, schema, path, problems);
      case "string" -> string(value, schema, path, problems);
      case "integer", "number" -> number(value, schema, type, path, problems);
      case "boolean" -> {
        if (!value.isBoolean()) {
          problems.add(new ManifestProblem(path, describe(value) + " is not true or false", "write true or false"));
        }
      }
      default -> { } // an untyped schema (preserve-unknown-fields) takes anything
    }
  }

  private void object(JsonNode value, JsonNode schema, String path, List<ManifestProblem> problems) {
    if (!value.isObject()) {
      problems.add(new ManifestProblem(path, describe(value) + " is not a mapping", "write " + path.substring(
          path.lastIndexOf('.') + 1) + ": followed by indented fields"));
      return;
    }
    JsonNode properties = schema.path("properties");
    JsonNode additional = schema.get("additionalProperties");
    boolean preserve = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    for (Iterator<Map.Entry<String, JsonNode>> fields = value.fields(); fields.hasNext(); ) {
      Map.Entry<String, JsonNode> field = fields.next();
      String child = path + "." + field.getKey();
      if (properties.has(field.getKey())) {
        check(field.getValue(), properties.get(field.getKey()), child, problems);
      } else if (additional != null && additional.isObject()) {
        check(field.getValue(), additional, child, problems);
      } else if (!preserve && !properties.isMissingNode()) {
        problems.add(new ManifestProblem(child, "unknown field " + field.getKey() + " (the API server drops it)",
            "remove it or correct the spelling; " + path + " has " + String.join(", ",
                known(properties))));
      }
    }
    for (JsonNode required : schema.path("required")) {
      if (!value.has(required.asText()) || value.get(required.asText()).isNull()) {
        problems.add(new ManifestProblem(path + "." + required.asText(), "required field " + required.asText()
            + " is missing", "set " + path + "." + required.asText()));
      }
    }
  }

  private void array(JsonNode value, JsonNode schema, String path, List<ManifestProblem> problems) {
    if (!value.isArray()) {
      problems.add(new ManifestProblem(path, describe(value) + " is not a list", "write a list, one '- ' item a line"));
      return;
    }
    if (schema.has("maxItems") && value.size() > schema.get("maxItems").asInt()) {
      problems.add(new ManifestProblem(path, "the list has " + value.size() + " items, more than "
          + schema.get("maxItems").asInt(), "keep at most " + schema.get("maxItems").asInt() + " items"));
    }
    if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
      problems.add(new ManifestProblem(path, "the list has " + value.size() + " items, fewer than "
          + schema.get("minItems").asInt(), "give at least " + schema.get("minItems").asInt() + " items"));
    }
    JsonNode items = schema.path("items");
    for (int i = 0; i < value.size(); i++) {
      check(value.get(i), items, path + "[" + i + "]", problems);
    }
  }

  private static void string(JsonNode value, JsonNode schema, String path, List<ManifestProblem> problems) {
    if (!value.isTextual()) {
      problems.add(new ManifestProblem(path, describe(value) + " is not a string", "quote the value: \""
          + value.asText() + "\""));
      return;
    }
    String text = value.asText();
    if (schema.has("enum")) {
      List<String> allowed = new ArrayList<>();
      schema.get("enum").forEach(e -> allowed.add(e.asText()));
      if (!allowed.contains(text)) {
        problems.add(new ManifestProblem(path, describe(value) + " is not one of " + String.join(", ", allowed),
            "use one of " + String.join(", ", allowed)));
        return;
      }
    }
    if (schema.has("minLength") && text.length() < schema.get("minLength").asInt()) {
      problems.add(new ManifestProblem(path, "the value is empty or shorter than " + schema.get("minLength").asInt()
          + " characters", "write a value, or remove " + path));
    } else if (schema.has("maxLength") && text.length() > schema.get("maxLength").asInt()) {
      problems.add(new ManifestProblem(path, "the value has " + text.length() + " characters, more than "
          + schema.get("maxLength").asInt(), "shorten it to " + schema.get("maxLength").asInt() + " characters"));
    } else if (schema.has("pattern") && !Pattern.compile(schema.get("pattern").asText()).matcher(text).find()) {
      String pattern = schema.get("pattern").asText();
      problems.add(new ManifestProblem(path, describe(value) + " is not " + PATTERN_NAMES.getOrDefault(pattern,
          "in the form " + pattern), "write " + PATTERN_NAMES.getOrDefault(pattern, "a value matching " + pattern)));
    }
  }

  private static void number(JsonNode value, JsonNode schema, String type, String path,
      List<ManifestProblem> problems) {
    if (!value.isNumber() || "integer".equals(type) && !value.isIntegralNumber()) {
      problems.add(new ManifestProblem(path, describe(value) + " is not " + ("integer".equals(type) ? "a whole number"
          : "a number"), "write a number without quotes, e.g. " + (schema.has("minimum")
          ? schema.get("minimum").asText() : "1")));
      return;
    }
    if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
      problems.add(new ManifestProblem(path, value.asText() + " is below the minimum " + schema.get("minimum").asText(),
          "use a value of at least " + schema.get("minimum").asText()));
    } else if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
      problems.add(new ManifestProblem(path, value.asText() + " is above the maximum " + schema.get("maximum").asText(),
          "use a value of at most " + schema.get("maximum").asText()));
    }
  }

  /** int-or-string fields here are resource quantities (requests, limits, divisor). */
  private static void intOrString(JsonNode value, String path, List<ManifestProblem> problems) {
    if (value.isIntegralNumber()) {
      return;
    }
    if (!value.isTextual()) {
      problems.add(new ManifestProblem(path, describe(value) + " is neither a whole number nor a string",
          "write a quantity such as 500m, 2 or 512Mi"));
    } else if (isQuantityField(path) && !QUANTITY.matcher(value.asText()).matches()) {
      problems.add(new ManifestProblem(path, describe(value) + " is not a Kubernetes quantity",
          "write a quantity such as 500m (CPU) or 512Mi (memory)"));
    }
  }

  private static boolean isQuantityField(String path) {
    return path.contains(".limits.") || path.contains(".requests.") || path.endsWith(".divisor");
  }

  private static String describe(JsonNode value) {
    if (value == null || value.isMissingNode() || value.isNull()) {
      return "missing";
    }
    return value.isTextual() ? "\"" + value.asText() + "\"" : value.toString();
  }

  private static TreeSet<String> known(JsonNode properties) {
    TreeSet<String> names = new TreeSet<>();
    properties.fieldNames().forEachRemaining(names::add);
    return names;
  }
}

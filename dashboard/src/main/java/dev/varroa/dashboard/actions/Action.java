package dev.varroa.dashboard.actions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.identity.Caller;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One action as a client asked for it (docs/actions.md): the client's request id (a UUID; the same id again is
 * answered with the first result and runs nothing), a verb, a target, and who asked. A preview says what the action
 * would do and runs nothing. {@code replicas} is cellpool-scale's new spec.replicas, empty for every other verb;
 * {@code pipeline} and {@code parameters} are pipeline-run's (the Team's pipeline and its build parameters), empty
 * for every other verb.
 */
public record Action(String requestId, ActionVerb verb, ActionTarget target, Caller caller, boolean preview,
    String manifest, Optional<Integer> replicas, String pipeline, Map<String, String> parameters) {

  /** The CRD's bound on a CellPool's spec.replicas. */
  public static final int MAX_CELLPOOL_REPLICAS = 500;
  /** More build parameters than a pipeline declares in practice; a bound so one request stays small. */
  public static final int MAX_PIPELINE_PARAMETERS = 100;
  /** A parameter value is text for a build (a version, a flag), never a file. */
  public static final int MAX_PARAMETER_VALUE_CHARS = 8192;

  /** The CRD's pattern of a Team's spec.pipelines[].name. */
  private static final Pattern PIPELINE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,62}");
  /** A Jenkins parameter name as a form field: no spaces, no '/' or '='. */
  private static final Pattern PARAMETER_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,127}");

  private static final Pattern DNS1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  public Action(String requestId, ActionVerb verb, ActionTarget target, Caller caller, boolean preview) {
    this(requestId, verb, target, caller, preview, "");
  }

  public Action(String requestId, ActionVerb verb, ActionTarget target, Caller caller, boolean preview,
      String manifest) {
    this(requestId, verb, target, caller, preview, manifest, Optional.empty());
  }

  public Action(String requestId, ActionVerb verb, ActionTarget target, Caller caller, boolean preview,
      String manifest, Optional<Integer> replicas) {
    this(requestId, verb, target, caller, preview, manifest, replicas, "", Map.of());
  }

  public Action {
    parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
  }

  /** Reads a POST /actions body; every bad field is refused with its name and the fix. */
  public static Action parse(JsonNode body, Caller caller) throws ActionRefused {
    if (body == null || !body.isObject()) {
      throw ActionRefused.badField("body", "the body must be a JSON object {\"requestId\", \"verb\", \"target\":"
          + " {\"cluster\"}}");
    }
    String requestId = body.path("requestId").asText("");
    try {
      if (!UUID.fromString(requestId).toString().equalsIgnoreCase(requestId)) {
        throw new IllegalArgumentException(requestId);
      }
    } catch (IllegalArgumentException e) {
      throw ActionRefused.badField("requestId", "requestId '" + requestId + "' is not a UUID; send a fresh UUID per"
          + " action and the same one to retry it");
    }
    String verbName = body.path("verb").asText("");
    ActionVerb verb = ActionVerb.of(verbName).orElseThrow(() -> ActionRefused.badField("verb", "verb '" + verbName
        + "' is not an action; use one of: " + ActionVerb.names()));
    String cluster = body.path("target").path("cluster").asText("");
    if (!DNS1123_LABEL.matcher(cluster).matches()) {
      throw ActionRefused.badField("target.cluster", "target.cluster '" + cluster + "' is not a cluster name (a"
          + " DNS-1123 label); `varroactl get clusters` lists them");
    }
    JsonNode preview = body.path("preview");
    if (!preview.isMissingNode() && !preview.isBoolean()) {
      throw ActionRefused.badField("preview", "preview must be true or false");
    }
    if (!verb.namespaced()) {
      refuseRunFields(body, verb);
      return new Action(requestId.toLowerCase(java.util.Locale.ROOT), verb, ActionTarget.cluster(cluster), caller,
          preview.asBoolean(false));
    }
    String namespace = body.path("target").path("namespace").asText("");
    String name = body.path("target").path("name").asText("");
    String manifest = body.path("manifest").asText("");
    boolean create = verb == ActionVerb.BROODOP_CREATE;
    if (namespace.isEmpty() && create) {
      namespace = "default";
    }
    if (!DNS1123_LABEL.matcher(namespace).matches()) {
      throw ActionRefused.badField("target.namespace", "target.namespace '" + namespace + "' is not a namespace name"
          + " (a DNS-1123 label); " + verb.value() + " acts on a " + verb.kind() + " in one namespace");
    }
    if (!(create && name.isEmpty()) && (name.length() > 253 || !DNS1123_SUBDOMAIN.matcher(name).matches())) {
      throw ActionRefused.badField("target.name", "target.name '" + name + "' is not a " + verb.kind() + " name (a"
          + " DNS-1123 subdomain); `" + verb.listCommand() + "` lists them");
    }
    if (create && manifest.isBlank()) {
      throw ActionRefused.badField("manifest", "manifest must be the BroodOperation to create, as YAML or JSON text");
    }
    if (!create && !manifest.isEmpty()) {
      throw ActionRefused.badField("manifest", "manifest is only for broodop-create; " + verb.value() + " names the"
          + " BroodOperation in target.namespace and target.name");
    }
    JsonNode replicas = body.path("replicas");
    Optional<Integer> scaleTo = Optional.empty();
    if (verb == ActionVerb.CELLPOOL_SCALE) {
      if (!replicas.isIntegralNumber() || replicas.asLong() < 0 || replicas.asLong() > MAX_CELLPOOL_REPLICAS) {
        throw ActionRefused.badField("replicas", "replicas must be the CellPool's new number of cells, 0 to "
            + MAX_CELLPOOL_REPLICAS + ", not " + (replicas.isMissingNode() ? "missing" : replicas.toString()));
      }
      scaleTo = Optional.of(replicas.intValue());
    } else if (!replicas.isMissingNode()) {
      throw ActionRefused.badField("replicas", "replicas is only for cellpool-scale, not " + verb.value());
    }
    String pipeline = "";
    Map<String, String> parameters = Map.of();
    if (verb == ActionVerb.PIPELINE_RUN) {
      if (preview.asBoolean(false)) {
        throw ActionRefused.badField("preview", "pipeline-run has no preview: `varroactl get teams` shows the Team's"
            + " pipelines and its cell");
      }
      pipeline = pipeline(body.path("pipeline"), namespace + "/" + name);
      parameters = parameters(body.path("parameters"));
    } else {
      refuseRunFields(body, verb);
    }
    return new Action(requestId.toLowerCase(java.util.Locale.ROOT), verb, new ActionTarget(cluster, namespace, name),
        caller, preview.asBoolean(false), manifest, scaleTo, pipeline, parameters);
  }

  private static void refuseRunFields(JsonNode body, ActionVerb verb) throws ActionRefused {
    for (String field : new String[] {"pipeline", "parameters"}) {
      if (!body.path(field).isMissingNode()) {
        throw ActionRefused.badField(field, field + " is only for pipeline-run, not " + verb.value());
      }
    }
  }

  private static String pipeline(JsonNode value, String team) throws ActionRefused {
    String pipeline = value.isTextual() ? value.asText() : "";
    if (!PIPELINE_NAME.matcher(pipeline).matches()) {
      throw ActionRefused.badField("pipeline", "pipeline '" + (value.isMissingNode() ? "" : value.asText(value
          .toString())) + "' is not a pipeline name (a letter or digit, then up to 62 letters, digits, '.', '_' or"
          + " '-'); `varroactl get teams` lists the pipelines of Team " + team);
    }
    return pipeline;
  }

  /** Build parameters: a JSON object of names to string values, in the order given. */
  private static Map<String, String> parameters(JsonNode value) throws ActionRefused {
    if (value.isMissingNode() || value.isNull()) {
      return Map.of();
    }
    if (!value.isObject()) {
      throw ActionRefused.badField("parameters", "parameters must be an object of names to string values, e.g."
          + " {\"VERSION\": \"1.4.2\"}, not " + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
    }
    if (value.size() > MAX_PIPELINE_PARAMETERS) {
      throw ActionRefused.badField("parameters", "parameters has " + value.size() + " entries; at most "
          + MAX_PIPELINE_PARAMETERS + " are sent");
    }
    Map<String, String> parameters = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : (Iterable<Map.Entry<String, JsonNode>>) value::fields) {
      String field = "parameters." + entry.getKey();
      if (!PARAMETER_NAME.matcher(entry.getKey()).matches()) {
        throw ActionRefused.badField(field, "parameter name '" + entry.getKey() + "' is not a Jenkins parameter"
            + " name (a letter or '_', then up to 127 letters, digits, '_', '.' or '-')");
      }
      if (!entry.getValue().isTextual()) {
        throw ActionRefused.badField(field, "parameter " + entry.getKey() + " must be a string (quote numbers and"
            + " booleans: \"true\", \"3\"), not " + entry.getValue().getNodeType().name()
            .toLowerCase(java.util.Locale.ROOT));
      }
      if (entry.getValue().asText().length() > MAX_PARAMETER_VALUE_CHARS) {
        throw ActionRefused.badField(field, "parameter " + entry.getKey() + " is longer than "
            + MAX_PARAMETER_VALUE_CHARS + " characters; pass a reference (a tag, a URL), not the content");
      }
      parameters.put(entry.getKey(), entry.getValue().asText());
    }
    return parameters;
  }
}

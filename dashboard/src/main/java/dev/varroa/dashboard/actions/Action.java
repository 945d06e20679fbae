package dev.varroa.dashboard.actions;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.identity.Caller;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One action as a client asked for it (docs/actions.md): the client's request id (a UUID; the same id again is
 * answered with the first result and runs nothing), a verb, a target, and who asked. A preview says what the action
 * would do and runs nothing. {@code replicas} is cellpool-scale's new spec.replicas, empty for every other verb.
 */
public record Action(String requestId, ActionVerb verb, ActionTarget target, Caller caller, boolean preview,
    String manifest, Optional<Integer> replicas) {

  /** The CRD's bound on a CellPool's spec.replicas. */
  public static final int MAX_CELLPOOL_REPLICAS = 500;

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
          + " DNS-1123 subdomain); `" + (verb.brood() ? "varroactl broodop list" : "varroactl get cellpools")
          + "` lists them");
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
    return new Action(requestId.toLowerCase(java.util.Locale.ROOT), verb, new ActionTarget(cluster, namespace, name),
        caller, preview.asBoolean(false), manifest, scaleTo);
  }
}

package dev.varroa.operator.manifests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.operator.render.RestartHash;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Sorts a spec change into the operator's change classes (docs/controllers.md "Change classes"): restart-class
 * inputs are {@link RestartHash#controllerInputs} of the two resolved settings plus the spec fields that feed the
 * hash's other inputs (the Jenkins image, the version profile and the bundle's plugin lock); everything else reaches
 * Jenkins without a pod roll.
 */
public final class ChangeClassification {

  /** The class of one changed field, as the dashboard marks it. */
  public enum ChangeClass { restart, reloadable }

  /** One changed spec field, its class and what will happen. */
  public record Change(String field, ChangeClass changeClass, String effect) {}

  /** The overall class (restart if any change is) and each change; none when nothing differs. */
  public record Result(String changeClass, boolean restart, List<Change> changes) {}

  /** Restart-hash input keys and the spec fields people edit for them. */
  private static final Map<String, String> RESTART_FIELDS = Map.ofEntries(
      Map.entry("jenkinsImagePullPolicy", "spec.jenkins.imagePullPolicy"),
      Map.entry("jenkinsResources", "spec.jenkins.resources"),
      Map.entry("javaOpts", "spec.jenkins.javaOpts"),
      Map.entry("env", "spec.jenkins.env"),
      Map.entry("miteImage", "spec.miteSpec.image"),
      Map.entry("miteImagePullPolicy", "spec.miteSpec.imagePullPolicy"),
      Map.entry("miteResources", "spec.miteSpec.resources"),
      Map.entry("podLabels", "spec.podTemplate.labels"),
      Map.entry("podAnnotations", "spec.podTemplate.annotations"),
      Map.entry("podSpec", "spec.podTemplate.spec"));

  /** Spec fields outside the settings inputs whose change feeds another restart-hash input. */
  private static final Map<String, String> RESTART_REFERENCES = Map.of(
      "jenkins.image", "the Jenkins image is a restart-class input: the pod rolls",
      "versionProfileRef", "the JenkinsVersionProfile sets the Jenkins version and plugin pins: the pod rolls when"
          + " they differ",
      "composedBundleRef", "another bundle brings its own plugin lock: the pod rolls when plugins differ"
          + " (varroactl bundle diff says which)",
      "classRef", "another ControllerClass can change inherited images, resources or pod settings: the pod rolls"
          + " when they differ");

  /** What a change of each remaining top-level field does instead of a roll. */
  private static final Map<String, String> OTHER_EFFECTS = Map.ofEntries(
      Map.entry("secrets", "secret values reach Jenkins as files and a reload, without a roll"),
      Map.entry("ingress", "the Ingress is updated; the pod keeps running"),
      Map.entry("agents", "the agents namespace, tunnel or pull secrets change through JCasC and RBAC, without a roll"),
      Map.entry("persistence", "a larger size grows the claim without a roll; another storage class needs the"
          + " varroa.dev/confirm-home-move annotation (docs/storage-moves.md)"),
      Map.entry("backup", "the backup schedule changes; the pod keeps running"),
      Map.entry("hibernation", "the inactivity policy changes; the pod keeps running"),
      Map.entry("reconciliation", "the drain timeout applies to the next planned restart"),
      Map.entry("buildClaims", "the claim gate is delivered to Jenkins as desired state"),
      Map.entry("powerState", "Stopped scales the StatefulSet to zero (data kept); Running starts it again"),
      Map.entry("restore", "a restore applies only when JENKINS_HOME is created"));

  private ChangeClassification() {}

  /** Both sides resolved the same way (no class, no defaults: what neither side sets, both inherit alike). */
  public static Result between(JsonNode currentSpec, ResolvedController current, JsonNode proposedSpec,
      ResolvedController proposed) {
    List<Change> changes = new ArrayList<>();
    Map<String, Object> before = RestartHash.controllerInputs(current);
    Map<String, Object> after = RestartHash.controllerInputs(proposed);
    for (Map.Entry<String, Object> input : before.entrySet()) {
      if (!Objects.equals(tree(input.getValue()), tree(after.get(input.getKey())))) {
        String field = RESTART_FIELDS.get(input.getKey());
        changes.add(new Change(field, ChangeClass.restart, field + " is a restart-class input: the pod rolls"
            + " (drained, up to the drain timeout)"));
      }
    }
    if (!Objects.equals(currentSpec.path("jenkins").path("image"), proposedSpec.path("jenkins").path("image"))) {
      changes.add(new Change("spec.jenkins.image", ChangeClass.restart, RESTART_REFERENCES.get("jenkins.image")));
    }
    for (String reference : List.of("versionProfileRef", "composedBundleRef", "classRef")) {
      if (!Objects.equals(currentSpec.path(reference), proposedSpec.path(reference))) {
        changes.add(new Change("spec." + reference, ChangeClass.restart, RESTART_REFERENCES.get(reference)));
      }
    }
    TreeSet<String> fields = new TreeSet<>();
    currentSpec.fieldNames().forEachRemaining(fields::add);
    proposedSpec.fieldNames().forEachRemaining(fields::add);
    for (String field : fields) {
      if (OTHER_EFFECTS.containsKey(field) && !Objects.equals(currentSpec.path(field), proposedSpec.path(field))) {
        changes.add(new Change("spec." + field, ChangeClass.reloadable, OTHER_EFFECTS.get(field)));
      }
    }
    // a change inside jenkins or miteSpec not named above (e.g. an env order) is already a restart input change
    changes.sort((a, b) -> a.changeClass() == b.changeClass() ? a.field().compareTo(b.field())
        : a.changeClass() == ChangeClass.restart ? -1 : 1);
    boolean restart = changes.stream().anyMatch(c -> c.changeClass() == ChangeClass.restart);
    return new Result(changes.isEmpty() ? "none" : restart ? "restart" : "reloadable", restart, changes);
  }

  private static JsonNode tree(Object value) {
    return value == null ? null : PodSpecMerge.SERIALIZATION.convertValue(value, JsonNode.class);
  }
}

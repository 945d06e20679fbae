package dev.varroa.operator.manifests;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.ControllerSpec;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.SettingsProblem;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Checks a Controller manifest the way the operator will see it, without applying anything: the CRD schema first,
 * then the operator's own settings resolver with what the Controller inherits in the checking cluster (its
 * ControllerClasses and ProvisioningDefaults), and, given the spec in force, the change class of the edit. Pure: the
 * operator's caches are handed in as {@link Inherited}.
 */
public final class ManifestCheck {

  /**
   * @param valid no problems: the API server and the operator will take it
   * @param problems what must change, each naming its field and the fix
   * @param warnings what the check cannot decide (inherited settings it was not given)
   * @param manifest the manifest as parsed (JSON), for the Spec Editor's form; null when it does not parse
   * @param change the change class against the given current spec; null when no current spec was given
   */
  public record Outcome(boolean valid, List<ManifestProblem> problems, List<ManifestProblem> warnings,
      JsonNode manifest, ChangeClassification.Result change) {}

  /**
   * What a Controller inherits in the cluster that checks it.
   *
   * @param classes the ControllerClasses by name (the operator's cache)
   * @param defaults the cluster's ProvisioningDefaults, empty when there are none
   * @param miteImage the installation's mite image, for a Controller that names none
   * @param cluster the cluster's name, for the messages
   */
  public record Inherited(Function<String, Optional<ControllerClass>> classes, Optional<ProvisioningDefaults> defaults,
      String miteImage, String cluster) {}

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final ControllerSchema schema;

  public ManifestCheck(ControllerSchema schema) {
    this.schema = schema;
  }

  /** Without the cluster's inheritance: a ControllerClass stands in empty and agents allowances are warnings. */
  public Outcome check(String manifestText, Optional<JsonNode> currentSpec) {
    return check(manifestText, currentSpec, Optional.empty());
  }

  /**
   * @param currentSpec the spec in force (from the controller's detail), to classify the change against
   * @param inherited the checking cluster's classes and defaults; empty while they are not known
   */
  public Outcome check(String manifestText, Optional<JsonNode> currentSpec, Optional<Inherited> inherited) {
    List<ManifestProblem> problems = new ArrayList<>();
    List<ManifestProblem> warnings = new ArrayList<>();
    JsonNode manifest;
    try {
      manifest = YAML.readTree(manifestText);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
      problems.add(new ManifestProblem("(document)", "the YAML does not parse" + where + ": "
          + e.getOriginalMessage(), "fix the indentation or quoting there"));
      return new Outcome(false, problems, warnings, null, null);
    }
    if (manifest == null || manifest.isMissingNode()) {
      problems.add(new ManifestProblem("(document)", "the manifest is empty",
          "paste a Controller: apiVersion " + ControllerSchema.API_VERSION + ", kind Controller, metadata, spec"));
      return new Outcome(false, problems, warnings, null, null);
    }
    problems.addAll(schema.validate(manifest));
    if (!problems.isEmpty()) {
      return new Outcome(false, problems, warnings, manifest, null);
    }
    Controller proposed = controller(manifest, manifest.path("spec"));
    resolve(proposed, inherited, problems, warnings);
    ChangeClassification.Result change = null;
    if (currentSpec.isPresent() && currentSpec.get().isObject()) {
      List<ManifestProblem> currentProblems = new ArrayList<>();
      ObjectNode currentManifest = ((ObjectNode) manifest.deepCopy()).set("spec", currentSpec.get());
      currentProblems.addAll(schema.validate(currentManifest));
      if (currentProblems.isEmpty()) {
        Controller current = controller(manifest, currentSpec.get());
        change = ChangeClassification.between(currentSpec.get(), resolveQuietly(current, inherited),
            manifest.path("spec"), resolveQuietly(proposed, inherited));
      } else {
        warnings.add(new ManifestProblem("current", "the spec in force does not pass the schema ("
            + currentProblems.get(0).field() + "), so the change cannot be classified",
            "compare with the controller's YAML tab"));
      }
    }
    return new Outcome(problems.isEmpty(), problems, warnings, manifest, change);
  }

  private static Controller controller(JsonNode manifest, JsonNode spec) {
    Controller controller = new Controller();
    JsonNode metadata = manifest.path("metadata");
    controller.setMetadata(new ObjectMetaBuilder().withName(metadata.path("name").asText())
        .withNamespace(metadata.path("namespace").asText())
        .withLabels(PodSpecMerge.SERIALIZATION.convertValue(metadata.path("labels").isObject()
            ? metadata.path("labels") : YAML.createObjectNode(), java.util.Map.class))
        .build());
    controller.setSpec(PodSpecMerge.SERIALIZATION.convertValue(spec, ControllerSpec.class));
    return controller;
  }

  /**
   * The operator's resolver. With the cluster's inheritance a missing ControllerClass is an error, as the operator
   * blocks on it; without it the class stands in empty and says so, and an agents allowance is only a warning.
   */
  private static void resolve(Controller controller, Optional<Inherited> inherited, List<ManifestProblem> problems,
      List<ManifestProblem> warnings) {
    ControllerSpec spec = controller.getSpec();
    if (spec.classRef != null && inherited.isPresent() && classOf(spec, inherited).isEmpty()) {
      problems.add(new ManifestProblem("spec.classRef.name", "ControllerClass " + spec.classRef.name
          + " does not exist in cluster " + inherited.get().cluster() + " (the operator would block the Controller)",
          "create ControllerClass " + spec.classRef.name + " there, or correct spec.classRef.name"));
      return;
    }
    if (spec.classRef != null && inherited.isEmpty()) {
      warnings.add(new ManifestProblem("spec.classRef.name", "the cluster's ControllerClasses were not known to the"
          + " check, so what ControllerClass " + spec.classRef.name + " sets is not checked here",
          "make sure ControllerClass " + spec.classRef.name + " exists: kubectl get controllerclass "
              + spec.classRef.name));
    }
    for (SettingsProblem problem : resolution(controller, inherited).problems()) {
      ManifestProblem named = new ManifestProblem(problem.field(), problem.message(), problem.fix());
      // allowances live in ProvisioningDefaults: only a check that was given them can refuse
      if (inherited.isEmpty() && problem.field().equals("spec.agents.namespace")
          && problem.message().contains(" nor allowed ")) {
        warnings.add(named);
      } else {
        problems.add(named);
      }
    }
  }

  private static ResolvedController resolveQuietly(Controller controller, Optional<Inherited> inherited) {
    return resolution(controller, inherited).controller();
  }

  private static ControllerSettingsResolver.Resolution resolution(Controller controller,
      Optional<Inherited> inherited) {
    if (inherited.isEmpty()) {
      return ControllerSettingsResolver.resolve(controller, standIn(controller.getSpec()), Optional.empty());
    }
    return ControllerSettingsResolver.resolve(controller, classOf(controller.getSpec(), inherited),
        inherited.get().defaults(), inherited.get().miteImage());
  }

  private static Optional<ControllerClass> classOf(ControllerSpec spec, Optional<Inherited> inherited) {
    return spec.classRef == null ? Optional.empty() : inherited.get().classes().apply(spec.classRef.name);
  }

  private static Optional<ControllerClass> standIn(ControllerSpec spec) {
    if (spec.classRef == null) {
      return Optional.empty();
    }
    ControllerClass standIn = new ControllerClass();
    standIn.setMetadata(new ObjectMetaBuilder().withName(spec.classRef.name).build());
    return Optional.of(standIn);
  }
}

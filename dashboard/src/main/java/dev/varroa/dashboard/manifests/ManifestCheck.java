package dev.varroa.dashboard.manifests;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerClass;
import dev.varroa.api.v1alpha1.ControllerSpec;
import dev.varroa.operator.render.resolve.ControllerSettingsResolver;
import dev.varroa.operator.render.resolve.PodSpecMerge;
import dev.varroa.operator.render.resolve.SettingsProblem;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checks a Controller manifest the way the operator will see it, without applying anything: the CRD schema first,
 * then the operator's own settings resolver, and, given the spec in force, the change class of the edit. The
 * dashboard cannot read ControllerClasses or ProvisioningDefaults, so what depends on them is a warning, not an error.
 */
public final class ManifestCheck {

  /**
   * @param valid no problems: the API server and the operator will take it
   * @param problems what must change, each naming its field and the fix
   * @param warnings what the dashboard cannot decide (inherited settings)
   * @param manifest the manifest as parsed (JSON), for the Spec Editor's form; null when it does not parse
   * @param change the change class against the given current spec; null when no current spec was given
   */
  public record Outcome(boolean valid, List<ManifestProblem> problems, List<ManifestProblem> warnings,
      JsonNode manifest, ChangeClassification.Result change) {}

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private final ControllerSchema schema;

  public ManifestCheck(ControllerSchema schema) {
    this.schema = schema;
  }

  /** @param currentSpec the spec in force (from the controller's detail), to classify the change against */
  public Outcome check(String manifestText, Optional<JsonNode> currentSpec) {
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
    resolve(proposed, problems, warnings);
    ChangeClassification.Result change = null;
    if (currentSpec.isPresent() && currentSpec.get().isObject()) {
      List<ManifestProblem> currentProblems = new ArrayList<>();
      ObjectNode currentManifest = ((ObjectNode) manifest.deepCopy()).set("spec", currentSpec.get());
      currentProblems.addAll(schema.validate(currentManifest));
      if (currentProblems.isEmpty()) {
        Controller current = controller(manifest, currentSpec.get());
        change = ChangeClassification.between(currentSpec.get(), resolveQuietly(current),
            manifest.path("spec"), resolveQuietly(proposed));
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

  /** The operator's resolver; a ControllerClass the dashboard cannot read stands in empty, and says so. */
  private static void resolve(Controller controller, List<ManifestProblem> problems, List<ManifestProblem> warnings) {
    ControllerSpec spec = controller.getSpec();
    if (spec.classRef != null) {
      warnings.add(new ManifestProblem("spec.classRef.name", "the dashboard does not read ControllerClass "
          + spec.classRef.name + ", so what it sets is not checked here",
          "make sure ControllerClass " + spec.classRef.name + " exists: kubectl get controllerclass "
              + spec.classRef.name));
    }
    for (SettingsProblem problem : ControllerSettingsResolver.resolve(controller, standIn(spec), Optional.empty())
        .problems()) {
      ManifestProblem named = new ManifestProblem(problem.field(), problem.message(), problem.fix());
      // allowances live in ProvisioningDefaults, which the dashboard cannot read
      if (problem.field().equals("spec.agents.namespace") && problem.message().contains(" nor allowed ")) {
        warnings.add(named);
      } else {
        problems.add(named);
      }
    }
  }

  private static dev.varroa.operator.render.resolve.ResolvedController resolveQuietly(Controller controller) {
    return ControllerSettingsResolver.resolve(controller, standIn(controller.getSpec()), Optional.empty())
        .controller();
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

package dev.varroa.operator.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.varroa.api.v1alpha1.ControllerClass;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ManifestCheckTest {

  private static final ManifestCheck CHECK = new ManifestCheck(ControllerSchema.load());
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static final String VALID = """
      apiVersion: varroa.dev/v1alpha1
      kind: Controller
      metadata: {name: team-a, namespace: ci}
      spec:
        versionProfileRef: {name: lts}
        miteSpec:
          image: ghcr.io/varroa/mite:0.1.0
          imagePullPolicy: IfNotPresent
          resources: {limits: {memory: 256Mi}}
        ingress: {enabled: false}
      """;

  @Test
  void acceptsAValidController() {
    ManifestCheck.Outcome outcome = CHECK.check(VALID, Optional.empty());
    assertThat(outcome.problems()).isEmpty();
    assertThat(outcome.valid()).isTrue();
    assertThat(outcome.manifest().path("spec").path("miteSpec").path("image").asText())
        .isEqualTo("ghcr.io/varroa/mite:0.1.0");
  }

  @Test
  void namesTheFieldAndTheFixOfABadPullPolicy() {
    ManifestCheck.Outcome outcome = CHECK.check(VALID.replace("IfNotPresent", "Sometimes"), Optional.empty());
    assertThat(outcome.valid()).isFalse();
    assertThat(outcome.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.miteSpec.imagePullPolicy");
      assertThat(p.fix()).contains("Always", "IfNotPresent", "Never");
    });
  }

  @Test
  void namesUnknownFieldsBadQuantitiesAndAMissingNamespace() {
    ManifestCheck.Outcome outcome = CHECK.check(VALID.replace("namespace: ci", "labels: {a: b}")
        .replace("256Mi", "lots").replace("imagePullPolicy", "pullPolicy"), Optional.empty());
    assertThat(outcome.problems()).extracting(ManifestProblem::field).containsExactlyInAnyOrder(
        "metadata.namespace", "spec.miteSpec.pullPolicy", "spec.miteSpec.resources.limits.memory");
  }

  @Test
  void runsTheOperatorsResolverAfterTheSchema() {
    ManifestCheck.Outcome outcome = CHECK.check(VALID.replace("{enabled: false}", "{enabled: true}"), Optional.empty());
    assertThat(outcome.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.ingress.host");
      assertThat(p.fix()).contains("set spec.ingress.host");
    });
  }

  @Test
  void reportsAYamlErrorWithItsLine() {
    ManifestCheck.Outcome outcome = CHECK.check("apiVersion: varroa.dev/v1alpha1\nkind: [Controller\n", Optional.empty());
    assertThat(outcome.valid()).isFalse();
    assertThat(outcome.problems().get(0).message()).contains("line");
  }

  @Test
  void classifiesAMiteImageChangeAsRestartAndAnIngressChangeAsReloadable() throws Exception {
    JsonNode current = YAML.readTree(VALID).path("spec");
    ManifestCheck.Outcome image = CHECK.check(VALID.replace("mite:0.1.0", "mite:0.1.1"), Optional.of(current));
    assertThat(image.change().changeClass()).isEqualTo("restart");
    assertThat(image.change().changes()).extracting(ChangeClassification.Change::field)
        .containsExactly("spec.miteSpec.image");

    ManifestCheck.Outcome backup = CHECK.check(VALID + "  backup: {schedule: \"0 3 * * *\"}\n", Optional.of(current));
    assertThat(backup.change().changeClass()).isEqualTo("reloadable");
    assertThat(backup.change().restart()).isFalse();

    assertThat(CHECK.check(VALID, Optional.of(current)).change().changeClass()).isEqualTo("none");
  }

  @Test
  void withTheClustersInheritanceAMissingClassIsAnErrorAndAnExistingOneNoWarning() {
    ControllerClass standard = new ControllerClass();
    standard.setMetadata(new ObjectMetaBuilder().withName("standard").build());
    ManifestCheck.Inherited inherited = new ManifestCheck.Inherited(
        name -> name.equals("standard") ? Optional.of(standard) : Optional.empty(), Optional.empty(),
        "ghcr.io/varroa/mite:0.1.0", "eu-1");

    ManifestCheck.Outcome missing = CHECK.check(VALID + "  classRef: {name: large}\n", Optional.empty(),
        Optional.of(inherited));
    assertThat(missing.valid()).isFalse();
    assertThat(missing.problems()).singleElement().satisfies(p -> {
      assertThat(p.field()).isEqualTo("spec.classRef.name");
      assertThat(p.message()).contains("ControllerClass large does not exist in cluster eu-1");
    });

    ManifestCheck.Outcome existing = CHECK.check(VALID + "  classRef: {name: standard}\n", Optional.empty(),
        Optional.of(inherited));
    assertThat(existing.valid()).isTrue();
    assertThat(existing.warnings()).isEmpty();

    assertThat(CHECK.check(VALID + "  classRef: {name: large}\n", Optional.empty()).warnings())
        .as("without the cluster's classes the check can only warn").extracting(ManifestProblem::field)
        .containsExactly("spec.classRef.name");
  }
}

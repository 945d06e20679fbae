package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.YAML;
import static dev.varroa.operator.render.RenderFixtures.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerObjectsTest {
  private static final String FULL = """
      agents: {imagePullSecrets: [{name: pull}], knownHosts: "github.com ssh-ed25519 AAAA"}
      ingress: {enabled: true, host: jenkins.example.com}
      """;

  @Test
  void rendersEveryOwnedObjectInApplyOrder() {
    List<HasMetadata> objects = ControllerObjects.render(input(FULL));

    assertThat(objects).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsExactly(
        "Namespace/ci-jobs",
        "RoleBinding/team-a-1b4e28ba-agents",
        "ServiceAccount/default",
        "ConfigMap/known-hosts",
        "ServiceAccount/team-a-1b4e28ba",
        "ConfigMap/team-a-1b4e28ba-casc",
        "ConfigMap/team-a-1b4e28ba-channel",
        "ConfigMap/team-a-1b4e28ba-plugins",
        "Service/team-a-1b4e28ba",
        "StatefulSet/team-a-1b4e28ba",
        "Ingress/team-a-1b4e28ba");
  }

  @Test
  void labelsEveryControllerObjectAndSetsNoOwnerReference() {
    List<HasMetadata> objects = ControllerObjects.render(input(FULL));

    assertThat(objects).allSatisfy(o -> {
      assertThat(o.getMetadata().getLabels()).containsEntry("app.kubernetes.io/managed-by", "varroa");
      assertThat(o.getMetadata().getOwnerReferences()).isNullOrEmpty();
    });
    assertThat(objects).filteredOn(o -> o.getMetadata().getName().startsWith("team-a-"))
        .hasSize(8)
        .allSatisfy(o -> assertThat(o.getMetadata().getLabels())
            .containsEntry("app.kubernetes.io/name", "jenkins")
            .containsEntry("app.kubernetes.io/instance", "team-a")
            .containsEntry("varroa.dev/controller", "team-a"));
  }

  @Test
  void rendersTheSameBytesTwice() {
    assertThat(YAML.asYaml(ControllerObjects.render(input(FULL))))
        .isEqualTo(YAML.asYaml(ControllerObjects.render(input(FULL))));
  }

  @Test
  void keepsLabelValuesWithinKubernetesLimitsForLongNames() {
    String longName = "a".repeat(70) + ".example";
    RenderInput input = RenderFixtures.input(RenderFixtures.resolved(RenderFixtures.controller(longName, "")),
        RenderFixtures.JCASC, RenderFixtures.profile(), java.util.Optional.empty(), List.of());

    assertThat(ControllerObjects.render(input)).allSatisfy(o -> assertThat(o.getMetadata().getLabels().values())
        .allSatisfy(v -> assertThat(v).hasSizeLessThanOrEqualTo(63)));
    assertThat(ControllerLabels.value(longName)).isNotEqualTo(ControllerLabels.value("a".repeat(70) + ".other"));
  }

  @Test
  void rendersNoIngressUnlessEnabled() {
    assertThat(ControllerObjects.render(input(""))).noneMatch(o -> o.getKind().equals("Ingress"));
  }
}

package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.input;
import static dev.varroa.operator.render.RenderFixtures.profile;
import static dev.varroa.operator.render.RenderFixtures.resolved;
import static dev.varroa.operator.render.RenderFixtures.controller;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Every Jenkins pod the operator renders is admitted by Pod Security admission at the restricted level,
 * on the real API server: the StatefulSet's pod template is created as a Pod (server-side dry run) in a
 * namespace labelled {@code pod-security.kubernetes.io/enforce: restricted}.
 */
@WithKubeApiServer
class RenderedPodsRestrictedIT {
  private static final String NAMESPACE = "restricted";

  @BeforeAll
  static void restrictedNamespace(KubeApiServer kube) {
    kube.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .addToLabels("pod-security.kubernetes.io/enforce", "restricted")
        .addToLabels("pod-security.kubernetes.io/enforce-version", "latest").endMetadata().build()).create();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{}",
      "{agents: {imagePullSecrets: [{name: pull}], knownHosts: \"github.com ssh-ed25519 AAAA\"}}",
      "{ingress: {enabled: true, host: jenkins.example.com}, persistence: {size: 20Gi}}",
      "{miteSpec: {image: registry.example.com/varroa/mite:0.1.0}}"})
  void renderedJenkinsPodsAreAdmittedAsRestricted(String spec, KubeApiServer kube) {
    RenderInput rendered = input(resolved(controller(spec)), RenderFixtures.JCASC, profile(),
        Optional.of(RenderFixtures.updateCenter()), List.of());

    Pod pod = podOf(rendered);

    Pod admitted = kube.client().pods().inNamespace(NAMESPACE).resource(pod).dryRun().create();
    assertThat(admitted.getSpec().getContainers()).isNotEmpty();
  }

  @Test
  void theSameNamespaceRefusesAPodThatBreaksTheLevel(KubeApiServer kube) {
    // The check above could pass for the wrong reason (admission off): a privileged container must be refused.
    Pod pod = podOf(input("{}"));
    pod.getSpec().getContainers().get(0).getSecurityContext().setAllowPrivilegeEscalation(true);

    assertThatThrownBy(() -> kube.client().pods().inNamespace(NAMESPACE).resource(pod).dryRun().create())
        .isInstanceOf(KubernetesClientException.class).hasMessageContaining("restricted");
  }

  private static Pod podOf(RenderInput input) {
    StatefulSet statefulSet = ControllerObjects.render(input).stream().filter(StatefulSet.class::isInstance)
        .map(StatefulSet.class::cast).findFirst().orElseThrow();
    String pod = statefulSet.getMetadata().getName() + "-0";
    PodBuilder builder = new PodBuilder().withNewMetadata().withName(pod).withNamespace(NAMESPACE)
        .withLabels(statefulSet.getSpec().getTemplate().getMetadata().getLabels()).endMetadata()
        .withSpec(statefulSet.getSpec().getTemplate().getSpec());
    // What the StatefulSet controller adds: a volume per claim template, bound to the pod's own claim.
    statefulSet.getSpec().getVolumeClaimTemplates().forEach(claim -> builder.editSpec().addNewVolume()
        .withName(claim.getMetadata().getName()).withNewPersistentVolumeClaim()
        .withClaimName(claim.getMetadata().getName() + "-" + pod).endPersistentVolumeClaim().endVolume().endSpec());
    return builder.build();
  }
}

package dev.varroa.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.operator.render.naming.UpdateCenterNames;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** What the operator runs for a managed UpdateCenter, rendered without a cluster. */
class UpdateCenterRendererTest {
  private static final String NAMESPACE = "varroa-system";

  private static UpdateCenter updateCenter(String name, String managed) {
    return RenderFixtures.object(UpdateCenter.class, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: %s, uid: 11111111-2222-3333-4444-555555555555}
        spec:
          managed: %s
        """.formatted(name, managed));
  }

  private static List<HasMetadata> render(UpdateCenter uc) {
    return UpdateCenterRenderer.render(new ManagedUpdateCenterInput(uc, NAMESPACE, "ghcr.io/varroa/update-center:0.1.0",
        new TreeSet<>(List.of("git:5.8.0", "credentials:1415.v1")), "varroa-uc-default-signing"));
  }

  private static <T> T only(List<HasMetadata> objects, Class<T> kind) {
    return objects.stream().filter(kind::isInstance).map(kind::cast).findFirst().orElseThrow();
  }

  @Test
  void rendersTheWantedListClaimServiceAndDeploymentInTheOperatorNamespace() {
    List<HasMetadata> objects = render(updateCenter("default", "{}"));

    assertThat(objects).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsExactly(
        "ConfigMap/varroa-uc-default-wanted", "PersistentVolumeClaim/varroa-uc-default", "Service/varroa-uc-default",
        "Deployment/varroa-uc-default");
    assertThat(objects).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo(NAMESPACE));
    assertThat(only(objects, ConfigMap.class).getData()).containsExactly(
        Map.entry("plugins.txt", "credentials:1415.v1\ngit:5.8.0\n"));
    Service service = only(objects, Service.class);
    assertThat(service.getSpec().getPorts().get(0).getPort()).isEqualTo(80);
    assertThat(service.getSpec().getSelector()).isEqualTo(
        only(objects, Deployment.class).getSpec().getSelector().getMatchLabels());
  }

  @Test
  void podPassesTheRestrictedPodSecurityStandard() {
    PodSpec pod = only(render(updateCenter("default", "{}")), Deployment.class).getSpec().getTemplate().getSpec();
    Container container = pod.getContainers().get(0);

    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(65532L);
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(container.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();
  }

  @Test
  void containerIsToldItsServiceUrlStorageWantedListSigningFolderAndUpstream() {
    Container container = only(render(updateCenter("default",
        "{upstream: {url: 'https://updates.jenkins.io/current/update-center.json'}}")), Deployment.class)
        .getSpec().getTemplate().getSpec().getContainers().get(0);
    Map<String, String> env = container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));

    assertThat(container.getImage()).isEqualTo("ghcr.io/varroa/update-center:0.1.0");
    assertThat(env).containsEntry("VARROA_UC_BASE_URL", "http://varroa-uc-default.varroa-system.svc")
        .containsEntry("VARROA_UC_STORAGE_DIR", "/var/lib/varroa-update-center")
        .containsEntry("VARROA_UC_WANTED_FILE", "/etc/varroa-update-center/wanted/plugins.txt")
        .containsEntry("VARROA_UC_SIGNING_DIR", "/etc/varroa-update-center/signing")
        .containsEntry("VARROA_UC_UPSTREAM_URL", "https://updates.jenkins.io/current/update-center.json");
    assertThat(container.getVolumeMounts()).extracting(m -> m.getMountPath()).contains("/var/lib/varroa-update-center",
        "/etc/varroa-update-center/wanted", "/etc/varroa-update-center/signing", "/tmp");
  }

  @Test
  void anAirGappedUpdateCenterHasNoUpstreamVariable() {
    Container container = only(render(updateCenter("default", "{}")), Deployment.class)
        .getSpec().getTemplate().getSpec().getContainers().get(0);

    assertThat(container.getEnv()).extracting(EnvVar::getName).doesNotContain("VARROA_UC_UPSTREAM_URL");
  }

  @Test
  void claimTakesTheResolvedDefaultSizeOrTheSpecs() {
    assertThat(only(render(updateCenter("default", "{}")), PersistentVolumeClaim.class).getSpec().getResources()
        .getRequests().get("storage").toString()).isEqualTo("10Gi");
    PersistentVolumeClaim sized = only(render(updateCenter("default",
        "{storage: {size: 50Gi, storageClassName: fast}}")), PersistentVolumeClaim.class);
    assertThat(sized.getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("50Gi");
    assertThat(sized.getSpec().getStorageClassName()).isEqualTo("fast");
  }

  @Test
  void shortensANameThatWouldNotFitAServiceName() {
    UpdateCenterNames names = UpdateCenterNames.of("mirror." + "a".repeat(80));

    assertThat(names.service()).hasSizeLessThanOrEqualTo(63).startsWith("varroa-uc-mirror-aaa").doesNotContain(".");
    assertThat(names.service()).isNotEqualTo(UpdateCenterNames.of("mirror." + "a".repeat(81)).service());
  }
}

package dev.varroa.operator.render;

import static dev.varroa.operator.render.RenderFixtures.input;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import java.util.List;
import org.junit.jupiter.api.Test;

class AgentsNamespaceRendererTest {
  @Test
  void grantsJenkinsRightsInTheAgentsNamespaceOnly() {
    List<HasMetadata> everything = ControllerObjects.render(input(""));

    assertThat(everything).filteredOn(o -> o instanceof Role || o instanceof RoleBinding).hasSize(1)
        .allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("ci-jobs"));
    assertThat(everything).filteredOn(o -> o.getKind().contains("Role") || o.getKind().contains("ClusterRole"))
        .noneMatch(o -> "ci".equals(o.getMetadata().getNamespace()));
    RoleBinding binding = everything.stream().filter(RoleBinding.class::isInstance).map(RoleBinding.class::cast)
        .findFirst().orElseThrow();
    assertThat(binding.getSubjects()).singleElement().satisfies(s -> {
      assertThat(s.getKind()).isEqualTo("ServiceAccount");
      assertThat(s.getName()).isEqualTo("team-a-1b4e28ba");
      assertThat(s.getNamespace()).isEqualTo("ci");
    });
    assertThat(binding.getMetadata().getName()).isEqualTo("team-a-1b4e28ba-agents");
    // the chart's ClusterRole: the operator holds bind on it, not the pod rights it grants
    assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(binding.getRoleRef().getName()).isEqualTo(AgentsNamespaceRenderer.AGENTS_CLUSTER_ROLE);
  }

  @Test
  void givesTheKubernetesPluginWhatItNeedsAndNoSecrets() {
    assertThat(AgentsNamespaceRenderer.RULES).flatExtracting(r -> r.getResources())
        .containsExactly("pods", "pods/exec", "pods/log", "events", "persistentvolumeclaims")
        .doesNotContain("secrets");
  }

  @Test
  void createsAgentsNamespaceWithDocumentedDefaultName() {
    assertThat(AgentsNamespaceRenderer.render(input("")).get(0)).isInstanceOfSatisfying(Namespace.class,
        ns -> assertThat(ns.getMetadata().getName()).isEqualTo("ci-jobs"));
  }

  @Test
  void setsPullSecretsOnAgentsDefaultServiceAccount() {
    List<HasMetadata> objects = AgentsNamespaceRenderer.render(
        input("agents: {imagePullSecrets: [{name: registry-pull}, {name: mirror-pull}]}\n"));

    assertThat(objects).filteredOn(ServiceAccount.class::isInstance).singleElement().satisfies(o -> {
      ServiceAccount account = (ServiceAccount) o;
      assertThat(account.getMetadata().getName()).isEqualTo("default");
      assertThat(account.getMetadata().getNamespace()).isEqualTo("ci-jobs");
      assertThat(account.getImagePullSecrets()).extracting(r -> r.getName())
          .containsExactly("registry-pull", "mirror-pull");
    });
  }

  @Test
  void leavesAgentsDefaultServiceAccountAloneWithoutPullSecrets() {
    assertThat(AgentsNamespaceRenderer.render(input(""))).noneMatch(ServiceAccount.class::isInstance)
        .noneMatch(ConfigMap.class::isInstance);
  }

  @Test
  void publishesKnownHostsInTheAgentsNamespace() {
    List<HasMetadata> objects = AgentsNamespaceRenderer.render(
        input("agents: {knownHosts: \"github.com ssh-ed25519 AAAAC3\\n\"}\n"));

    assertThat(objects).filteredOn(ConfigMap.class::isInstance).singleElement().satisfies(o -> {
      assertThat(o.getMetadata().getName()).isEqualTo("known-hosts");
      assertThat(o.getMetadata().getNamespace()).isEqualTo("ci-jobs");
      assertThat(((ConfigMap) o).getData()).containsEntry("known_hosts", "github.com ssh-ed25519 AAAAC3\n");
    });
  }
}

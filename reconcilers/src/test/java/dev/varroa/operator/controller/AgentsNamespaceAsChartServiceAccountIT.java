package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.render.AgentsNamespaceRenderer;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 24, finding 1: spec.agents.namespace reaches only {@code <namespace>-jobs} or a namespace an administrator
 * allowed, never one Varroa did not create, and the applier never overwrites an object that is not Varroa's. The
 * operator runs as the chart's ServiceAccount under the chart's RBAC (finding 7: bind on the agents ClusterRole, no
 * pod rights of its own) on a real API server with --authorization-mode=Node,RBAC.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentsNamespaceAsChartServiceAccountIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String TENANT_B = "tenant-b";
  private static final String KNOWN_HOSTS_B = "github.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl";
  private VarroaOperator operator;
  private ServiceAccountClient account;

  @BeforeAll
  void startOperatorAsTheChartAccount(KubeApiServer kube, @TempDir Path cache) {
    KubernetesClient admin = kube.client();
    StarterProfile.install(admin, null);
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), ChartRbac.OPERATOR_ACCOUNT);
    operator = new VarroaOperator(account.client(),
        OperatorSettings.defaults(cache).withLeaseNamespace(ChartRbac.NAMESPACE), null);
    operator.start();
    tenantBRunsAController(admin);
  }

  @AfterAll
  void stopOperatorAfterNoRequestWasForbidden() {
    operator.close();
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }

  @ParameterizedTest(name = "spec.agents.namespace {1}")
  @CsvSource({"tenant-ks, kube-system", "tenant-rel, varroa-system", "tenant-a, tenant-b-jobs"})
  void refusesAnAgentsNamespaceNeitherItsOwnNorAllowedAndWritesNothingThere(String tenant, String target,
      KubeApiServer kube) {
    KubernetesClient admin = kube.client();
    Map<String, String> before = ServiceAccountsAndConfigMaps.of(admin, target);
    namespace(admin, tenant, Map.of());
    admin.resource(controller(tenant, "grab", "agents: {namespace: " + target + ", imagePullSecrets: [{name: stolen}],"
        + " knownHosts: 'evil.example.com ssh-rsa AAAA'}")).create();

    Condition blocked = awaitBlocked(admin, tenant, "grab");
    assertThat(blocked.message).contains("spec.agents.namespace").contains(target)
        .contains("spec.allowedAgentsNamespaces");
    assertThat(admin.apps().statefulSets().inNamespace(tenant).list().getItems()).isEmpty();
    assertThat(varroaBindings(admin, target)).noneMatch(b -> b.getMetadata().getName().startsWith("grab-"));
    assertThat(ServiceAccountsAndConfigMaps.of(admin, target)).isEqualTo(before);
  }

  /** Even an administrator's allowance does not let Varroa take over a namespace it did not create. */
  @Test
  void refusesAnAllowedNamespaceVarroaDidNotCreateAndWritesNothingThere(KubeApiServer kube) {
    KubernetesClient admin = kube.client();
    namespace(admin, "tenant-c", Map.of());
    namespace(admin, "shared-tools", Map.of());
    allow(admin, "tenant-c", "shared-tools", "tenant-c-gpu");
    Map<String, String> before = ServiceAccountsAndConfigMaps.of(admin, "shared-tools");
    admin.resource(controller("tenant-c", "tools", "agents: {namespace: shared-tools, knownHosts: 'x ssh-rsa AAAA'}"))
        .create();

    Condition blocked = awaitBlocked(admin, "tenant-c", "tools");
    assertThat(blocked.message).contains("Namespace shared-tools exists and was not created by Varroa")
        .contains("spec.agents.namespace");
    assertThat(varroaBindings(admin, "shared-tools")).isEmpty();
    assertThat(ServiceAccountsAndConfigMaps.of(admin, "shared-tools")).isEqualTo(before);
    assertThat(admin.namespaces().withName("shared-tools").get().getMetadata().getLabels())
        .doesNotContainKey(ControllerLabels.MANAGED_BY);
  }

  /** The chart's account creates the allowed namespace and binds Jenkins there with bind alone, no pod rights. */
  @Test
  void runsAgentsInANamespaceAnAdministratorAllowedThroughTheChartsAgentsClusterRole(KubeApiServer kube) {
    KubernetesClient admin = kube.client();
    namespace(admin, "tenant-d", Map.of());
    allow(admin, "tenant-d", "tenant-d-gpu");
    Controller created = admin.resource(controller("tenant-d", "gpu", "agents: {namespace: tenant-d-gpu}")).create();
    String sts = "gpu-" + created.getMetadata().getUid().substring(0, 8);

    await().atMost(DEADLINE).until(() -> admin.rbac().roleBindings().inNamespace("tenant-d-gpu")
        .withName(sts + "-agents").get() != null);
    RoleBinding binding = admin.rbac().roleBindings().inNamespace("tenant-d-gpu").withName(sts + "-agents").get();
    assertThat(binding.getRoleRef().getKind()).isEqualTo("ClusterRole");
    assertThat(binding.getRoleRef().getName()).isEqualTo(AgentsNamespaceRenderer.AGENTS_CLUSTER_ROLE);
    assertThat(admin.namespaces().withName("tenant-d-gpu").get().getMetadata().getLabels())
        .containsEntry(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE);
    // what the binding gives Jenkins there, and nowhere else
    String jenkins = "system:serviceaccount:tenant-d:" + sts;
    assertThat(allowed(admin, jenkins, "tenant-d-gpu", "pods", "exec", "create")).isTrue();
    assertThat(allowed(admin, jenkins, "tenant-d", "pods", "exec", "create")).isFalse();
  }

  /** Inside a namespace that is Varroa's, an object someone else created is refused, not force-applied over. */
  @Test
  void refusesToOverwriteAnObjectVarroaDoesNotOwn(KubeApiServer kube) {
    KubernetesClient admin = kube.client();
    namespace(admin, "tenant-e", Map.of());
    // an agents namespace Varroa made earlier, where someone else put their own known-hosts
    namespace(admin, "tenant-e-jobs", Map.of(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE));
    admin.configMaps().inNamespace("tenant-e-jobs").resource(new ConfigMapBuilder().withNewMetadata()
        .withName("known-hosts").withNamespace("tenant-e-jobs").endMetadata()
        .withData(Map.of("known_hosts", "mine ssh-ed25519 AAAA")).build()).create();
    admin.resource(controller("tenant-e", "ssh", "agents: {knownHosts: 'github.com ssh-ed25519 AAAA'}")).create();

    Condition blocked = awaitBlocked(admin, "tenant-e", "ssh");
    assertThat(blocked.message).contains("ConfigMap tenant-e-jobs/known-hosts exists and was not created by Varroa");
    ConfigMap kept = admin.configMaps().inNamespace("tenant-e-jobs").withName("known-hosts").get();
    assertThat(kept.getData()).containsEntry("known_hosts", "mine ssh-ed25519 AAAA");
    assertThat(kept.getMetadata().getLabels()).isNullOrEmpty();
  }

  /** Finding 7: the operator grants Jenkins agent-pod rights by binding the chart's ClusterRole, holding none itself. */
  @Test
  void theOperatorHoldsNoRightToRunOrExecIntoPods(KubeApiServer kube) {
    KubernetesClient admin = kube.client();
    String operatorUser = account.user();
    assertThat(allowed(admin, operatorUser, "any-tenant-jobs", "pods", null, "create")).isFalse();
    assertThat(allowed(admin, operatorUser, "any-tenant-jobs", "pods", "exec", "create")).isFalse();
    assertThat(allowed(admin, operatorUser, "any-tenant-jobs", "pods", "log", "get")).isFalse();
    assertThat(allowed(admin, operatorUser, "any-tenant-jobs", "roles", null, "create", "rbac.authorization.k8s.io"))
        .isFalse();
    // what it still needs: the orphan agent collector deletes pods whose Jenkins node is gone
    assertThat(allowed(admin, operatorUser, "any-tenant-jobs", "pods", null, "delete")).isTrue();
  }

  /** Tenant B runs a Controller first: its -jobs namespace, pull secrets and known-hosts exist before tenant A tries. */
  private static void tenantBRunsAController(KubernetesClient admin) {
    namespace(admin, TENANT_B, Map.of());
    admin.resource(controller(TENANT_B, "main", "agents: {imagePullSecrets: [{name: registry-b}], knownHosts: '"
        + KNOWN_HOSTS_B + "'}")).create();
    await().atMost(DEADLINE).until(() -> admin.configMaps().inNamespace(TENANT_B + "-jobs").withName("known-hosts")
        .get() != null);
  }

  private static boolean allowed(KubernetesClient admin, String user, String namespace, String resource,
      String subresource, String verb) {
    return allowed(admin, user, namespace, resource, subresource, verb, "");
  }

  private static boolean allowed(KubernetesClient admin, String user, String namespace, String resource,
      String subresource, String verb, String group) {
    SubjectAccessReview review = admin.authorization().v1().subjectAccessReview().create(
        new SubjectAccessReviewBuilder().withNewSpec().withUser(user)
            .withGroups(user.startsWith("system:serviceaccount:") ? List.of("system:serviceaccounts",
                "system:authenticated") : List.of("system:authenticated"))
            .withNewResourceAttributes().withNamespace(namespace).withGroup(group).withResource(resource)
            .withSubresource(subresource).withVerb(verb).endResourceAttributes().endSpec().build());
    return review.getStatus().getAllowed();
  }

  private static void allow(KubernetesClient admin, String controllerNamespace, String... agentsNamespaces) {
    // one ProvisioningDefaults for the cluster: keep earlier tests' allowances
    ProvisioningDefaults current = admin.resources(ProvisioningDefaults.class).withName("default").get();
    StringBuilder allowances = new StringBuilder();
    if (current != null && current.getSpec() != null && current.getSpec().allowedAgentsNamespaces != null) {
      current.getSpec().allowedAgentsNamespaces.forEach(a -> allowances.append("\n    - {controllerNamespace: ")
          .append(a.controllerNamespace).append(", agentsNamespaces: ").append(a.agentsNamespaces).append('}'));
    }
    allowances.append("\n    - {controllerNamespace: ").append(controllerNamespace).append(", agentsNamespaces: ")
        .append(List.of(agentsNamespaces)).append('}');
    admin.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ProvisioningDefaults
        metadata: {name: default}
        spec:
          allowedAgentsNamespaces:%s
        """.formatted(allowances), ProvisioningDefaults.class)).serverSideApply();
  }

  private static void namespace(KubernetesClient admin, String name, Map<String, String> labels) {
    if (admin.namespaces().withName(name).get() == null) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).withLabels(labels)
          .endMetadata().build()).create();
    }
  }

  private static Controller controller(String namespace, String name, String agents) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
          versionProfileRef: {name: lts}
          %s
        """.formatted(name, namespace, agents), Controller.class);
  }

  private static Condition awaitBlocked(KubernetesClient admin, String namespace, String name) {
    await().atMost(DEADLINE).until(() -> blocked(admin, namespace, name).isPresent());
    return blocked(admin, namespace, name).orElseThrow();
  }

  private static Optional<Condition> blocked(KubernetesClient admin, String namespace, String name) {
    Controller c = admin.resources(Controller.class).inNamespace(namespace).withName(name).get();
    return c == null || c.getStatus() == null ? Optional.empty()
        : c.getStatus().condition(Condition.RECONCILE_BLOCKED).filter(k -> k.status == Condition.Status.True);
  }

  private static List<RoleBinding> varroaBindings(KubernetesClient admin, String namespace) {
    return admin.rbac().roleBindings().inNamespace(namespace)
        .withLabel(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).list().getItems();
  }

  /** Every ServiceAccount's pull secrets and ConfigMap's data in a namespace, to compare before and after. */
  private static final class ServiceAccountsAndConfigMaps {
    static Map<String, String> of(KubernetesClient admin, String namespace) {
      Map<String, String> all = new java.util.TreeMap<>();
      for (ServiceAccount sa : admin.serviceAccounts().inNamespace(namespace).list().getItems()) {
        all.put("ServiceAccount/" + sa.getMetadata().getName(), sa.getImagePullSecrets() + " "
            + sa.getMetadata().getLabels() + " " + sa.getMetadata().getResourceVersion());
      }
      for (ConfigMap cm : admin.configMaps().inNamespace(namespace).list().getItems()) {
        all.put("ConfigMap/" + cm.getMetadata().getName(), cm.getData() + " " + cm.getMetadata().getResourceVersion());
      }
      return all;
    }
  }
}

package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.operator.render.AgentsNamespaceRenderer;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.helm.HelmChart.Render;
import dev.varroa.testfixtures.helm.RenderedManifests;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The chart against real tools: helm lint --strict, the helm-unittest suites, and every rendered
 * manifest of both modes (CRDs included) through the real API server's admission, in namespaces
 * that enforce the restricted Pod Security Standard.
 */
@WithKubeApiServer
class ChartIT {
  static final String CORE = "varroa-system";
  static final String MEMBER = "varroa-member";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static HelmChart chart;

  @BeforeAll
  static void restrictedNamespaces(KubeApiServer kube) {
    chart = HelmChart.varroa();
    for (String namespace : List.of(CORE, MEMBER, podsNamespace(CORE), podsNamespace(MEMBER))) {
      // enforce rejects pods; warn makes the API server say so for Deployments and StatefulSets too
      kube.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
          .withLabels(Map.of("pod-security.kubernetes.io/enforce", "restricted",
              "pod-security.kubernetes.io/enforce-version", "latest",
              "pod-security.kubernetes.io/warn", "restricted",
              "pod-security.kubernetes.io/warn-version", "latest"))
          .endMetadata().build()).serverSideApply();
    }
  }

  @AfterAll
  static void closeChart() {
    chart.close();
  }

  /** Where the pod templates are tried: helm install --dry-run refuses objects it did not create, like those ServiceAccounts. */
  static String podsNamespace(String namespace) {
    return namespace + "-pods";
  }

  static Render core() {
    return Render.in(CORE);
  }

  /** A member as installed by default: network policies are on, so the core NATS endpoint's address is required. */
  static Render member() {
    return Render.in(MEMBER).values(Path.of("values-hive.yaml"))
        .set("cluster.name", "member-1").set("bus.url", "tls://nats.example.com:4222")
        .set("networkPolicy.coreNatsEgress.cidrs", "{203.0.113.10/32}");
  }

  /** Each mode as installed by default, and with every optional object turned on. */
  static Stream<Named<Render>> renders() {
    return Stream.of(
        Named.of("full mode, defaults", core()),
        Named.of("full mode, network policies, 3 NATS servers, LoadBalancer endpoint with two members, webhook Ingress", core().set("networkPolicy.enabled", "true").set("networkPolicy.apiServer.cidrs", "{172.18.0.2/32}")
            .set("nats.replicas", "3").set("nats.external.enabled", "true")
            .set("nats.external.host", "nats.example.com").set("nats.external.allowedCIDRs", "{198.51.100.0/24}")
            .set("nats.members", "{member-1,member-2}")
            .set("nats.podTemplate.merge.spec.nodeSelector.varroa\\.dev/nats", "nats-nodes")
            .set("webhooks.ingress.enabled", "true").set("webhooks.ingress.host", "hooks.example.com")
            .set("webhooks.ingress.tlsSecretName", "hooks-tls")
            .set("dashboard.ingress.enabled", "true").set("dashboard.ingress.host", "varroa.example.com")
            .set("dashboard.ingress.tls.secretName", "varroa-tls")),
        Named.of("full mode, NodePort endpoint", core().set("nats.external.enabled", "true").set("nats.external.serviceType", "NodePort")
            .set("nats.external.allowedCIDRs", "{198.51.100.0/24}")
            .set("nats.external.nodePort", "30422").set("nats.external.externalTrafficPolicy", "Local")
            .set("nats.external.ipSANs", "{192.0.2.11,192.0.2.12}")
            .set("nats.podTemplate.merge.spec.nodeSelector.varroa\\.dev/nats", "nats-nodes")),
        Named.of("full mode, record store on an external database with s3 blobs, network policies", core()
            .set("networkPolicy.enabled", "true").set("networkPolicy.apiServer.cidrs", "{172.18.0.2/32}")
            .set("recordStore.enabled", "true").set("recordStore.postgres.mode", "external")
            .set("recordStore.postgres.external.existingSecret", "varroa-recordstore-db")
            .set("dashboard.recordStore.existingSecret", "varroa-recordstore-reader")
            .set("networkPolicy.recordStorePostgresEgress.cidrs", "{10.20.0.5/32}")
            .set("recordStore.blobs.mode", "s3").set("recordStore.blobs.s3.url", "https://s3.example.com/varroa-records")
            .set("recordStore.blobs.s3.existingSecret", "varroa-recordstore-s3")
            .set("networkPolicy.recordStoreBlobEgress.cidrs", "{203.0.113.20/32}")),
        Named.of("full mode, the BFF on an external OpenID provider behind network policies, no Dex", core()
            .set("dex.enabled", "false").set("dashboard.oidc.issuer", "https://login.example.com/realms/ci")
            .set("dashboard.oidc.existingSecret", "varroa-dashboard-client")
            .set("networkPolicy.enabled", "true").set("networkPolicy.apiServer.cidrs", "{172.18.0.2/32}")
            .set("networkPolicy.oidcIssuerEgress.cidrs", "{203.0.113.40/32}")),
        Named.of("hive mode, defaults", member()),
        Named.of("full mode, network policies off", core().set("networkPolicy.enabled", "false")),
        Named.of("hive mode, record store with s3 blobs, network policies", member()
            .set("networkPolicy.enabled", "true").set("networkPolicy.apiServer.cidrs", "{172.18.0.2/32}")
            .set("networkPolicy.coreNatsEgress.cidrs", "{203.0.113.10/32}")
            .set("recordStore.enabled", "true").set("recordStore.postgres.mode", "external")
            .set("recordStore.blobs.mode", "s3").set("recordStore.blobs.s3.url", "https://s3.example.com/varroa-records")
            .set("recordStore.blobs.s3.existingSecret", "varroa-recordstore-s3")
            .set("networkPolicy.recordStoreBlobEgress.cidrs", "{203.0.113.20/32}")),
        Named.of("hive mode, network policies, NodePort node addresses", member().set("bus.url", "tls://192.0.2.11:30422\\,tls://192.0.2.12:30422")
            .set("networkPolicy.enabled", "true").set("networkPolicy.apiServer.cidrs", "{172.18.0.2/32}")
            .set("networkPolicy.coreNatsEgress.cidrs", "{192.0.2.0/28}")
            .set("pluginUpdateCenterDownloadURL", "https://updates.example.com/download/plugins")));
  }

  @Test
  void lintsDefaultAndHiveValuesStrictly() {
    for (Render render : List.of(core(), member())) {
      List<String> args = new ArrayList<>(List.of("lint", "--strict", chart.chartDirectory().toString()));
      args.addAll(render.arguments(chart.chartDirectory()));
      HelmChart.Result lint = chart.run(args).requireSuccess();
      assertThat(lint.output()).contains("1 chart(s) linted, 0 chart(s) failed");
    }
  }

  @Test
  void passesEveryHelmUnittestSuite() {
    HelmChart.Result unittest = chart.run("unittest", chart.chartDirectory().toString()).requireSuccess();
    assertThat(unittest.output()).containsPattern("Tests:\\s+(\\d+) passed, \\1 total")
        .doesNotContain("FAIL");
  }

  /** The operator binds this ClusterRole in each agents namespace; Jenkins must get exactly what the renderer promises. */
  @Test
  void shipsTheAgentsClusterRoleWithTheRulesJenkinsIsGranted() {
    ClusterRole agents = chart.template(core()).get(ClusterRole.class, AgentsNamespaceRenderer.AGENTS_CLUSTER_ROLE);
    assertThat(agents.getRules()).extracting(ChartIT::described)
        .containsExactlyInAnyOrderElementsOf(AgentsNamespaceRenderer.RULES.stream().map(ChartIT::described).toList());
  }

  @Test
  void rendersExactlyTheObjectsOfEachMode() {
    List<String> operatorAndGateway = List.of(
        "ServiceAccount/varroa-operator", "ServiceAccount/varroa-gateway",
        "ClusterRole/varroa-operator", "ClusterRole/varroa-jenkins-agents", "ClusterRoleBinding/varroa-operator",
        "Role/varroa-operator",
        "RoleBinding/varroa-operator", "Service/varroa-operator", "Service/varroa-operator-webhooks", "Service/varroa-waker",
        "Service/varroa-gateway", "Deployment/varroa-operator", "Deployment/varroa-gateway",
        "PodDisruptionBudget/varroa-operator", "PodDisruptionBudget/varroa-gateway",
        // network policies are on by default
        "NetworkPolicy/varroa-default-deny", "NetworkPolicy/varroa-operator", "NetworkPolicy/varroa-gateway",
        // the action ledger: the operator writes its data, the release owns it
        "ConfigMap/varroa-cluster-actions");
    List<String> coreOnly = List.of("ServiceAccount/varroa-nats", "ServiceAccount/varroa-dex",
        "NetworkPolicy/varroa-nats", "NetworkPolicy/varroa-dashboard", "NetworkPolicy/varroa-dex",
        "ConfigMap/varroa-nats", "Secret/varroa-dex", "Service/varroa-nats", "Service/varroa-nats-headless",
        "Service/varroa-dex", "StatefulSet/varroa-nats", "Deployment/varroa-dex",
        "ServiceAccount/varroa-dashboard", "Secret/varroa-dashboard-oidc", "Deployment/varroa-dashboard",
        "Service/varroa-dashboard", "PodDisruptionBudget/varroa-dashboard");
    assertThat(chart.template(core()).kindsAndNames())
        .containsExactlyInAnyOrderElementsOf(Stream.concat(operatorAndGateway.stream(), coreOnly.stream()).toList());
    assertThat(chart.template(member()).kindsAndNames()).containsExactlyInAnyOrderElementsOf(operatorAndGateway);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("renders")
  void theApiServerAcceptsEveryRenderedManifestWithoutPodSecurityWarnings(Render render, KubeApiServer kube,
      @TempDir Path dir) throws IOException {
    RenderedManifests rendered = chart.template(render.withCrds());
    Path file = Files.writeString(dir.resolve("manifests.yaml"), rendered.yaml());
    String applied = kube.kubectl("apply", "--server-side", "--force-conflicts", "--dry-run=server",
        "--field-manager", "chart-it", "-f", file.toString());
    assertThat(applied).doesNotContain("PodSecurity").doesNotContainIgnoringCase("warning");
    assertThat(applied.lines().filter(l -> l.contains("(server dry run)")).count())
        .isEqualTo(rendered.objects().size());
    assertThat(applied).contains("customresourcedefinition.apiextensions.k8s.io/controllers.varroa.dev");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("renders")
  void helmInstallsWithServerDryRun(Render render, KubeApiServer kube, @TempDir Path dir) {
    Path kubeconfig = kube.writeKubeconfig(dir.resolve("kubeconfig"));
    List<String> args = new ArrayList<>(List.of("install", "varroa", chart.chartDirectory().toString(),
        "--dry-run=server", "--kubeconfig", kubeconfig.toString()));
    args.addAll(render.arguments(chart.chartDirectory()));
    HelmChart.Result install = chart.run(args).requireSuccess();
    assertThat(install.output()).contains("STATUS: pending-install").doesNotContain("PodSecurity");
  }

  /** Deployments are admitted whatever their pods look like: each pod template is tried as a Pod, where enforce applies. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("renders")
  void admitsEveryPodTemplateAsAPodInTheRestrictedNamespace(Render render, KubeApiServer kube, @TempDir Path dir)
      throws IOException {
    RenderedManifests rendered = chart.template(render);
    // the ServiceAccount admission plugin refuses a pod whose ServiceAccount does not exist
    for (ServiceAccount account : rendered.all(ServiceAccount.class)) {
      account.getMetadata().setNamespace(podsNamespace(account.getMetadata().getNamespace()));
      kube.client().resource(account).serverSideApply();
    }
    List<Pod> pods = new ArrayList<>();
    rendered.all(Deployment.class).forEach(d -> pods.add(pod(d, d.getSpec().getTemplate())));
    for (StatefulSet sts : rendered.all(StatefulSet.class)) {
      Pod pod = pod(sts, sts.getSpec().getTemplate());
      // the StatefulSet controller adds a volume per claim template; so does this stand-in
      sts.getSpec().getVolumeClaimTemplates().forEach(claim -> pod.getSpec().getVolumes().add(new VolumeBuilder()
          .withName(claim.getMetadata().getName()).withNewPersistentVolumeClaim()
          .withClaimName(claim.getMetadata().getName() + "-" + sts.getMetadata().getName() + "-0").endPersistentVolumeClaim()
          .build()));
      pods.add(pod);
    }
    assertThat(pods).hasSizeGreaterThanOrEqualTo(2);
    for (Pod pod : pods) {
      Path file = Files.writeString(dir.resolve(pod.getMetadata().getName() + ".yaml"), YAML.asYaml(pod));
      String created = kube.kubectl("create", "--dry-run=server", "-f", file.toString());
      assertThat(created).contains("pod/" + pod.getMetadata().getName() + " created (server dry run)")
          .doesNotContain("PodSecurity");
    }
  }

  /** Without this, a missing PodSecurity admission plugin, or no warnings on workloads, would let every test above pass. */
  @Test
  void theRestrictedNamespaceRefusesAPodRunningAsRootAndWarnsOfSuchADeployment(KubeApiServer kube, @TempDir Path dir)
      throws IOException {
    Pod root = new PodBuilder().withNewMetadata().withName("runs-as-root").withNamespace(podsNamespace(CORE)).endMetadata()
        .withNewSpec().addNewContainer().withName("c").withImage("busybox").withNewSecurityContext()
        .withRunAsUser(0L).withPrivileged(true).endSecurityContext().endContainer().endSpec().build();
    Path file = Files.writeString(dir.resolve("root.yaml"), YAML.asYaml(root));
    assertThatThrownBy(() -> kube.kubectl("create", "--dry-run=server", "-f", file.toString()))
        .hasMessageContaining("violates PodSecurity \"restricted:latest\"");
    Deployment deployment = new DeploymentBuilder().withNewMetadata().withName("runs-as-root").withNamespace(CORE)
        .endMetadata().withNewSpec().withNewSelector().addToMatchLabels("app", "root").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "root").endMetadata().withSpec(root.getSpec())
        .endTemplate().endSpec().build();
    Path workload = Files.writeString(dir.resolve("deployment.yaml"), YAML.asYaml(deployment));
    assertThat(kube.kubectl("apply", "--server-side", "--dry-run=server", "-f", workload.toString()))
        .contains("would violate PodSecurity \"restricted:latest\"");
  }

  private static String described(PolicyRule rule) {
    return rule.getApiGroups() + " " + rule.getResources() + " " + rule.getVerbs().stream().sorted().toList()
        + " " + rule.getResourceNames();
  }

  private static Pod pod(HasMetadata workload, PodTemplateSpec template) {
    return new PodBuilder().withNewMetadata().withName(workload.getMetadata().getName() + "-0")
        .withNamespace(podsNamespace(workload.getMetadata().getNamespace())).withLabels(template.getMetadata().getLabels())
        .endMetadata().withSpec(template.getSpec()).build();
  }
}

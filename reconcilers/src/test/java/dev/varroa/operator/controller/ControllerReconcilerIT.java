package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Controller lifecycle on a real API server, with a stand-in for the kubelet. The operator's client
 * comes from {@link #operatorClient}: a subclass runs the same lifecycle with the chart's RBAC only.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControllerReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private VarroaOperator operator;

  @BeforeAll
  void startOperator(KubeApiServer kube, @TempDir Path cache) {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build()).create();
    StarterProfile.install(client, null);
    operator = new VarroaOperator(operatorClient(kube),
        OperatorSettings.defaults(cache).withLeaseNamespace(leaseNamespace()), null);
    operator.start();
  }

  /** Where the operator's Lease lives; null runs without leader election. */
  protected String leaseNamespace() {
    return null;
  }

  /** The client the operator runs with; the test itself always acts as the cluster admin. */
  protected KubernetesClient operatorClient(KubeApiServer kube) {
    return kube.client();
  }

  @AfterAll
  void stopOperator() {
    operator.close();
  }

  private static Controller create(KubernetesClient client, String name) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: ci}
        spec: {}
        """.formatted(name), Controller.class)).create();
  }

  private static Controller awaitStatus(KubernetesClient client, String name, Predicate<ControllerStatus> wanted) {
    await().atMost(DEADLINE).until(() -> {
      Controller c = client.resources(Controller.class).inNamespace("ci").withName(name).get();
      return c.getStatus() != null && wanted.test(c.getStatus());
    });
    return client.resources(Controller.class).inNamespace("ci").withName(name).get();
  }

  private static StatefulSet statefulSet(KubernetesClient client, Controller controller) {
    await().atMost(DEADLINE).until(() -> controller(client, controller).getStatus() != null
        && controller(client, controller).getStatus().statefulSetName != null);
    String name = controller(client, controller).getStatus().statefulSetName;
    await().atMost(DEADLINE).until(() -> client.apps().statefulSets().inNamespace("ci").withName(name).get() != null);
    return client.apps().statefulSets().inNamespace("ci").withName(name).get();
  }

  private static Controller controller(KubernetesClient client, Controller controller) {
    return client.resources(Controller.class).inNamespace("ci").withName(controller.getMetadata().getName()).get();
  }

  @Test
  void drivesPendingToProvisioningToRunningAndReportsBootFailure(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    Controller created = create(client, "sandbox");
    StatefulSet sts = statefulSet(client, created);
    assertThat(sts.getMetadata().getName()).isEqualTo("sandbox-" + created.getMetadata().getUid().substring(0, 8));
    awaitStatus(client, "sandbox", s -> s.phase == ControllerStatus.Phase.Provisioning);

    KubeletStandIn kubelet = new KubeletStandIn(client);
    Pod pod = kubelet.createPod(sts);
    kubelet.ready(pod);
    Controller running = awaitStatus(client, "sandbox", s -> s.phase == ControllerStatus.Phase.Running);
    assertThat(running.getStatus().condition(Condition.READY)).get().extracting(c -> c.status).isEqualTo(Condition.Status.True);
    assertThat(running.getStatus().bundle).isEqualTo("varroa-starter");
    assertThat(running.getStatus().lastReconciledAt).isNotNull();
    assertThat(running.getStatus().observedGeneration).isEqualTo(running.getMetadata().getGeneration());

    kubelet.crashLooping(pod, 137, 4);
    Controller failing = awaitStatus(client, "sandbox", s -> "Boot failed".equals(s.attention));
    assertThat(failing.getStatus().condition(Condition.JENKINS_BOOT_FAILED)).get()
        .satisfies(c -> assertThat(c.message).contains("CrashLoopBackOff").contains("exit code 137").contains("restart count 4"));
    assertThat(failing.getStatus().condition(Condition.STALLED)).get().extracting(c -> c.status).isEqualTo(Condition.Status.True);
  }

  @Test
  void restartedPodKeepsJenkinsHomeAndTheCloudKeepsOrphanCollection(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    Controller created = create(client, "agents");
    StatefulSet sts = statefulSet(client, created);
    KubeletStandIn kubelet = new KubeletStandIn(client);
    Pod first = kubelet.createPod(sts);
    kubelet.ready(first);
    awaitStatus(client, "agents", s -> s.phase == ControllerStatus.Phase.Running);
    String claim = claimOf(first);

    client.resource(first).withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> client.pods().inNamespace("ci").withName(first.getMetadata().getName()).get() == null);
    Pod second = kubelet.createPod(statefulSet(client, created));

    assertThat(claimOf(second)).isEqualTo(claim).isEqualTo("jenkins-home-" + sts.getMetadata().getName() + "-0");
    assertThat(sts.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals("jenkins")).findFirst().orElseThrow().getVolumeMounts())
        .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/var/jenkins_home"));
    String cloud = client.configMaps().inNamespace("ci").withName(sts.getMetadata().getName() + "-casc").get()
        .getData().get("varroa-cloud.yaml");
    assertThat(cloud).contains("garbageCollection").contains("ci-jobs");
  }

  @Test
  void largerPersistenceSizeGrowsTheClaimAndSmallerBlocks(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    client.resource(new io.fabric8.kubernetes.api.model.storage.StorageClassBuilder().withNewMetadata()
        .withName("expandable").endMetadata().withProvisioner("example.com/volumes").withAllowVolumeExpansion(true)
        .build()).create();
    Controller created = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: growing, namespace: ci}
        spec:
          persistence: {size: 20Gi, storageClassName: expandable}
        """, Controller.class)).create();
    StatefulSet sts = statefulSet(client, created);
    KubeletStandIn kubelet = new KubeletStandIn(client);
    kubelet.ready(kubelet.createPod(sts));
    String claim = "jenkins-home-" + sts.getMetadata().getName() + "-0";

    // merge patches carry no resourceVersion: the operator writes the same object meanwhile
    client.resources(Controller.class).inNamespace("ci").withName("growing")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"persistence\":{\"size\":\"50Gi\"}}}");
    await().atMost(DEADLINE).until(() -> new io.fabric8.kubernetes.api.model.Quantity("50Gi").equals(
        client.persistentVolumeClaims().inNamespace("ci").withName(claim).get().getSpec().getResources().getRequests()
            .get("storage")));
    assertThat(client.apps().statefulSets().inNamespace("ci").withName(sts.getMetadata().getName()).get().getSpec()
        .getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage"))
        .isEqualTo(sts.getSpec().getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage"));

    client.resources(Controller.class).inNamespace("ci").withName("growing")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"persistence\":{\"size\":\"1Gi\"}}}");
    Controller blocked = awaitStatus(client, "growing", s -> "Blocked".equals(s.attention));
    assertThat(blocked.getStatus().condition(Condition.RECONCILE_BLOCKED)).get()
        .satisfies(c -> assertThat(c.message).contains("volumes do not shrink").contains("50Gi or more"));
  }

  private static String claimOf(Pod pod) {
    return pod.getSpec().getVolumes().stream().filter(v -> v.getPersistentVolumeClaim() != null)
        .map(v -> v.getPersistentVolumeClaim().getClaimName()).findFirst().orElseThrow();
  }

  @Test
  void failedPluginsStepShowsAsPluginRollFailed(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    Controller created = create(client, "plugins");
    StatefulSet sts = statefulSet(client, created);
    KubeletStandIn kubelet = new KubeletStandIn(client);

    kubelet.pluginsFailed(kubelet.createPod(sts), 1);

    Controller failing = awaitStatus(client, "plugins", s -> "Plugin roll failed".equals(s.attention));
    assertThat(failing.getStatus().condition(Condition.PLUGIN_ROLL_FAILED)).get()
        .satisfies(c -> assertThat(c.message).contains("exited with code 1").contains("kubernetes:9.9"));
    assertThat(failing.getStatus().phase).isEqualTo(ControllerStatus.Phase.Provisioning);
  }

  @Test
  void deletingAControllerRemovesItsRbacInTheAgentsNamespace(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    Controller created = create(client, "leaving");
    String sts = statefulSet(client, created).getMetadata().getName();
    await().atMost(DEADLINE).until(() -> client.rbac().roleBindings().inNamespace("ci-jobs").withName(sts + "-agents").get() != null);

    client.resources(Controller.class).inNamespace("ci").withName("leaving").delete();

    await().atMost(DEADLINE).until(() -> client.rbac().roleBindings().inNamespace("ci-jobs").withName(sts + "-agents").get() == null
        && client.resources(Controller.class).inNamespace("ci").withName("leaving").get() == null);
  }

  @Test
  void stoppedPowerStateScalesToZero(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    Controller created = create(client, "nightly");
    statefulSet(client, created);

    client.resources(Controller.class).inNamespace("ci").withName("nightly")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"powerState\":\"Stopped\"}}");

    awaitStatus(client, "nightly", s -> s.phase == ControllerStatus.Phase.Stopped);
    await().atMost(DEADLINE).until(() -> statefulSet(client, created).getSpec().getReplicas() == 0);
  }

  @Test
  void missingClassBlocksWithAMessageThatNamesTheFix(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: classy, namespace: ci}
        spec: {classRef: {name: no-such-class}}
        """, Controller.class)).create();

    Controller blocked = awaitStatus(client, "classy", s -> "Blocked".equals(s.attention));
    assertThat(blocked.getStatus().condition(Condition.RECONCILE_BLOCKED)).get()
        .satisfies(c -> assertThat(c.message).contains("no-such-class").contains("fix:"));
    assertThat(blocked.getStatus().lastReconciledAt).isNull();
  }

  @Test
  void aClaimGateWithoutARecordStoreBlocksNamingTheFieldAndTheFix(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: gated, namespace: ci}
        spec: {buildClaims: {gate: true}}
        """, Controller.class)).create();

    Controller blocked = awaitStatus(client, "gated", s -> "Blocked".equals(s.attention));
    assertThat(blocked.getStatus().condition(Condition.RECONCILE_BLOCKED)).get()
        .satisfies(c -> assertThat(c.message).contains("spec.buildClaims.gate")
            .contains("fix: install Varroa with recordStore.enabled=true"));
    assertThat(client.apps().statefulSets().inNamespace("ci").list().getItems())
        .noneMatch(sts -> sts.getMetadata().getName().startsWith("gated-"));
  }
}

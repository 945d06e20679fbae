package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import dev.varroa.testfixtures.kube.csi.SnapshotKinds;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restores of JENKINS_HOME from a VolumeSnapshot on a real API server, with the operator running as the chart's
 * ServiceAccount under the chart's RBAC (no request may be refused), the CSI stand-in
 * for provisioner and snapshotter (a folder per volume), and a stand-in for the StatefulSet controller and kubelet.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HomeRestoreIT {
  static final String NAMESPACE = "home";
  static final String CLASS = "standard";
  static final String DRIVER = "disk.csi.example.com";
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private KubernetesClient client;
  private VarroaOperator operator;
  private ServiceAccountClient account;
  private CsiStandIn csi;
  private StatefulSetPlayer player;
  private SharedIndexInformer<StatefulSet> statefulSets;
  /** Each StatefulSet's home claim phase at the moment the StatefulSet appeared. */
  private final Map<String, String> claimPhaseWhenCreated = new ConcurrentHashMap<>();

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path volumes, @TempDir Path cache) throws IOException {
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    csi = CsiStandIn.builder(client, volumes).storageClass(CLASS, DRIVER).namespace(NAMESPACE).start();
    statefulSets = client.apps().statefulSets().inNamespace(NAMESPACE).inform(new ResourceEventHandler<>() {
      @Override
      public void onAdd(StatefulSet sts) {
        PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(NAMESPACE)
            .withName("jenkins-home-" + sts.getMetadata().getName() + "-0").get();
        claimPhaseWhenCreated.put(sts.getMetadata().getName(),
            claim == null || claim.getStatus() == null ? "absent" : claim.getStatus().getPhase());
      }

      @Override
      public void onUpdate(StatefulSet before, StatefulSet after) {}

      @Override
      public void onDelete(StatefulSet sts, boolean unknown) {}
    });
    player = new StatefulSetPlayer(client, NAMESPACE);
    seedSnapshot("backup-1");
    // the operator acts as the chart's ServiceAccount under the chart's RBAC only: every right a restore or a move uses
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), ChartRbac.OPERATOR_ACCOUNT);
    operator = new VarroaOperator(account.client(), OperatorSettings.defaults(cache), null);
    operator.start();
  }

  @AfterAll
  void stop() {
    operator.close();
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to the operator").isEmpty();
    player.close();
    statefulSets.close();
    csi.close();
  }

  @Test
  void aNewControllerStartsOnlyOnceItsClaimFromTheSnapshotIsBound() throws IOException {
    csi.holdSnapshots();
    client.resource(SnapshotKinds.snapshotOf(NAMESPACE, "backup-held", "seed", null)).create();
    Controller created = create("restored-new", "restore: {volumeSnapshotName: backup-held}");

    Controller waiting = awaitStatus(created, s -> s.condition(Condition.RESTORE_FAILED)
        .filter(c -> "WaitingForSnapshot".equals(c.reason)).isPresent());
    String sts = statefulSetName(created);
    assertThat(client.apps().statefulSets().inNamespace(NAMESPACE).withName(sts).get())
        .as("no StatefulSet while the snapshot is not ready").isNull();
    assertThat(waiting.getStatus().phase).isEqualTo(ControllerStatus.Phase.Provisioning);
    csi.releaseSnapshots();

    Controller restored = awaitStatus(created, s -> "backup-held".equals(s.home == null ? null : s.home.restoredFrom));
    await().atMost(DEADLINE).until(() -> claimPhaseWhenCreated.containsKey(sts));
    assertThat(claimPhaseWhenCreated.get(sts)).as("the home claim when the StatefulSet appeared").isEqualTo("Bound");
    String claim = "jenkins-home-" + sts + "-0";
    assertThat(csi.restoredFrom(NAMESPACE, claim)).contains("backup-held");
    Path home = csi.folder(NAMESPACE, claim);
    assertThat(Files.readString(home.resolve("secrets/master.key"))).isEqualTo("key-of-backup");
    assertThat(home.resolve("nodes/agent-1/config.xml")).exists();
    assertThat(restored.getStatus().condition(Condition.RESTORE_FAILED)).get()
        .satisfies(c -> assertThat(c.status).isEqualTo(Condition.Status.False))
        .satisfies(c -> assertThat(c.reason).isEqualTo("Restored"));
    awaitStatus(created, s -> s.phase == ControllerStatus.Phase.Running);
  }

  @Test
  void anExistingControllerIsStoppedAndRestoredAndItsOldVolumeKept() throws IOException {
    Controller created = create("restored-old", "{}");
    String claim = "jenkins-home-" + statefulSetName(created) + "-0";
    awaitStatus(created, s -> s.phase == ControllerStatus.Phase.Running);
    PersistentVolumeClaim old = csi.awaitBound(NAMESPACE, claim);
    Files.writeString(csi.folder(NAMESPACE, claim).resolve("old-home"), "before the restore");

    patch(created, "{\"spec\":{\"restore\":{\"volumeSnapshotName\":\"backup-1\"}}}");

    Controller restored = awaitStatus(created, s -> "backup-1".equals(s.home == null ? null : s.home.restoredFrom)
        && s.phase == ControllerStatus.Phase.Running);
    PersistentVolumeClaim now = client.persistentVolumeClaims().inNamespace(NAMESPACE).withName(claim).get();
    assertThat(now.getSpec().getVolumeName()).isNotEqualTo(old.getSpec().getVolumeName());
    assertThat(Files.readString(csi.folder(NAMESPACE, claim).resolve("secrets/master.key"))).isEqualTo("key-of-backup");
    assertThat(csi.folder(NAMESPACE, claim).resolve("old-home")).doesNotExist();
    PersistentVolume kept = client.persistentVolumes().withName(old.getSpec().getVolumeName()).get();
    assertThat(kept.getSpec().getPersistentVolumeReclaimPolicy()).isEqualTo("Retain");
    assertThat(Files.readString(csi.folder(kept).resolve("old-home"))).isEqualTo("before the restore");
    assertThat(restored.getStatus().home.retainedVolumes).singleElement().satisfies(r -> {
      assertThat(r.volumeName).isEqualTo(old.getSpec().getVolumeName());
      assertThat(r.reason).isEqualTo("replaced by the restore from backup-1");
    });
    assertThat(restored.getStatus().home.volumeName).isEqualTo(now.getSpec().getVolumeName());
    assertThat(restored.getStatus().home.restore).isNull();
  }

  @Test
  void aMissingSnapshotKeepsTheRunningHomeAndNamesTheFix() {
    Controller created = create("restore-missing", "{}");
    awaitStatus(created, s -> s.phase == ControllerStatus.Phase.Running);
    String sts = statefulSetName(created);

    patch(created, "{\"spec\":{\"restore\":{\"volumeSnapshotName\":\"no-such-backup\"}}}");

    Controller failed = awaitStatus(created, s -> s.condition(Condition.RESTORE_FAILED)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    assertThat(failed.getStatus().condition(Condition.RESTORE_FAILED).get().message)
        .contains("VolumeSnapshot no-such-backup").contains("spec.restore.volumeSnapshotName")
        .contains("does not exist").contains("fix:").contains("Jenkins keeps its current home");
    assertThat(client.apps().statefulSets().inNamespace(NAMESPACE).withName(sts).get().getSpec().getReplicas())
        .isEqualTo(1);
    assertThat(client.pods().inNamespace(NAMESPACE).withName(sts + "-0").get()).isNotNull();
    assertThat(failed.getStatus().phase).isEqualTo(ControllerStatus.Phase.Running);
  }

  @Test
  void aFailedSnapshotNeverStartsANewControllerOnAnEmptyHome() {
    csi.failNextSnapshot("disk quota exceeded on the storage array");
    client.resource(SnapshotKinds.snapshotOf(NAMESPACE, "backup-broken", "seed", null)).create();
    csi.awaitSnapshot(NAMESPACE, "backup-broken", s -> s.get("status", "error") != null, DEADLINE);

    Controller created = create("restore-broken", "restore: {volumeSnapshotName: backup-broken}");

    Controller failed = awaitStatus(created, s -> s.condition(Condition.RESTORE_FAILED)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    assertThat(failed.getStatus().condition(Condition.RESTORE_FAILED).get().message)
        .contains("disk quota exceeded").contains("Jenkins does not start on an empty home");
    assertThat(client.apps().statefulSets().inNamespace(NAMESPACE).withName(statefulSetName(created)).get()).isNull();
    assertThat(client.persistentVolumeClaims().inNamespace(NAMESPACE)
        .withName("jenkins-home-" + statefulSetName(created) + "-0").get()).isNull();
  }

  /** A claim with Jenkins' secrets/ and nodes/, and a ready snapshot of it. */
  private void seedSnapshot(String name) throws IOException {
    client.resource(new PersistentVolumeClaimBuilder().withNewMetadata().withName("seed").withNamespace(NAMESPACE)
        .endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withStorageClassName(CLASS)
        .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build()).create();
    csi.awaitBound(NAMESPACE, "seed");
    Path seed = csi.folder(NAMESPACE, "seed");
    Files.createDirectories(seed.resolve("secrets"));
    Files.createDirectories(seed.resolve("nodes/agent-1"));
    Files.writeString(seed.resolve("secrets/master.key"), "key-of-backup");
    Files.writeString(seed.resolve("nodes/agent-1/config.xml"), "<slave/>");
    client.resource(SnapshotKinds.snapshotOf(NAMESPACE, name, "seed", null)).create();
    csi.awaitSnapshotReady(NAMESPACE, name);
  }

  private Controller create(String name, String spec) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
          persistence: {size: 1Gi, storageClassName: %s}
          %s
        """.formatted(name, NAMESPACE, CLASS, spec.equals("{}") ? "" : spec), Controller.class)).create();
  }

  private void patch(Controller controller, String mergePatch) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private Controller awaitStatus(Controller controller, Predicate<ControllerStatus> wanted) {
    await().atMost(DEADLINE).until(() -> {
      Controller c = client.resources(Controller.class).inNamespace(NAMESPACE)
          .withName(controller.getMetadata().getName()).get();
      return c.getStatus() != null && wanted.test(c.getStatus());
    });
    return client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName()).get();
  }

  private static String statefulSetName(Controller controller) {
    return dev.varroa.operator.render.naming.StatefulSetName.of(controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }
}

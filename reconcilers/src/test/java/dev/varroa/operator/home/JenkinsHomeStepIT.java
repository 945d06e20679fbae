package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.operator.controller.ControllerManifests;
import dev.varroa.operator.render.ControllerObjects;
import dev.varroa.operator.render.RenderFixtures;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.SnapshotCrds;
import dev.varroa.testfixtures.kube.csi.SnapshotKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The home step alone (docs/controllers.md, "Status: who writes what": home → status.home, RestoreFailed,
 * HomeMoveFailed, and what the apply step may do with the StatefulSet) on a real API server: the {@link HomePass}
 * {@link JenkinsHomeStep#pass} returns, pass by pass, with no operator running. HomeRestoreIT and HomeMoveIT drive
 * whole restores and moves through the operator; this pins each outcome the aggregator and the applier read.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JenkinsHomeStepIT {
  private static final String NAMESPACE = "home-step";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private KubernetesClient client;

  @BeforeAll
  void start(KubeApiServer kube) {
    client = kube.client();
    if (!SnapshotCrds.installed(client)) {
      SnapshotCrds.install(client);
    }
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    // a bare API server runs no ServiceAccount controller: the pods below need their namespace's default account
    client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
        .withNamespace(NAMESPACE).endMetadata().build()).create();
  }

  @Test
  void aControllerWithNoRestoreOrMoveRunsAsRenderedWithNoConditionAndNoRecheck() {
    Controller controller = create("plain", "{}");
    StatefulSet desired = statefulSet(controller);
    PersistentVolumeClaim bound = new PersistentVolumeClaimBuilder().withNewMetadata()
        .withName(new HomeNames(desired.getMetadata().getName()).claim()).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withVolumeName("pv-plain").withStorageClassName("standard").endSpec()
        .withNewStatus().withPhase("Bound").endStatus().build();

    HomePass pass = step().pass(client, controller, resolved(controller), desired, Optional.of(desired),
        Optional.of(bound));

    assertThat(pass.workload()).isEqualTo(HomeWorkload.RUN);
    assertThat(pass.conditions()).isEmpty();
    assertThat(pass.recheck()).isEmpty();
    assertThat(pass.home().claimName).isEqualTo("jenkins-home-" + desired.getMetadata().getName() + "-0");
    assertThat(pass.home().volumeName).as("from the bound claim the informer holds").isEqualTo("pv-plain");
    assertThat(pass.home().storageClassName).isEqualTo("standard");
    assertThat(pass.home().restore).isNull();
    assertThat(pass.home().move).isNull();
  }

  @Test
  void aRestoreFromAMissingSnapshotWithholdsANewControllersStatefulSetAndSaysWhyWithTheFix() {
    Controller controller = create("restore-missing", "restore: {volumeSnapshotName: never-taken}");
    StatefulSet desired = statefulSet(controller);

    HomePass pass = step().pass(client, controller, resolved(controller), desired, Optional.empty(), Optional.empty());

    assertThat(pass.workload()).as("Jenkins does not start on an empty home").isEqualTo(HomeWorkload.WITHHELD);
    assertThat(pass.conditions()).singleElement().satisfies(c -> {
      assertThat(c.type).isEqualTo(Condition.RESTORE_FAILED);
      assertThat(c.status).isEqualTo(Condition.Status.True);
      assertThat(c.reason).isEqualTo("SnapshotUnusable");
      assertThat(c.message).contains("VolumeSnapshot never-taken named by spec.restore.volumeSnapshotName does not"
          + " exist").contains("fix:").contains("remove spec.restore");
    });
    assertThat(pass.recheck()).as("snapshots are not watched").isEqualTo(HomeSteps.SNAPSHOT_RECHECK);
    assertThat(pass.home().restore).isNull();
  }

  @Test
  void aRestoreOfANewControllerClaimsItsHomeFromTheSnapshotThenStartsJenkinsOnItThenSaysRestored() {
    readySnapshot("backup-ready");
    Controller controller = create("restore-new", "restore: {volumeSnapshotName: backup-ready}");
    StatefulSet desired = statefulSet(controller);
    String claim = new HomeNames(desired.getMetadata().getName()).claim();
    JenkinsHomeStep step = step();

    HomePass claiming = step.pass(client, controller, resolved(controller), desired, Optional.empty(),
        Optional.empty());

    assertThat(claiming.workload()).as("no StatefulSet before its claim is Bound").isEqualTo(HomeWorkload.WITHHELD);
    assertThat(claiming.conditions()).isEmpty();
    assertThat(claiming.recheck()).isEqualTo(HomeSteps.STEP_RECHECK);
    assertThat(claiming.home().restore).satisfies(r -> {
      assertThat(r.from).isEqualTo("backup-ready");
      assertThat(r.step).isEqualTo(HomeProgress.CLAIMING);
      assertThat(r.targetClaim).isEqualTo(claim);
    });
    PersistentVolumeClaim requested = client.persistentVolumeClaims().inNamespace(NAMESPACE).withName(claim).get();
    assertThat(requested.getSpec().getDataSource().getName()).isEqualTo("backup-ready");

    bind(requested);
    HomePass starting = step.pass(client, controller, resolved(controller), desired, Optional.empty(),
        Optional.empty());

    assertThat(starting.workload()).isEqualTo(HomeWorkload.RUN);
    assertThat(starting.home().restore.step).isEqualTo(HomeProgress.STARTING);
    assertThat(starting.recheck()).isEqualTo(HomeSteps.STEP_RECHECK);

    HomePass restored = step.pass(client, controller, resolved(controller), desired, Optional.of(desired),
        Optional.empty());

    assertThat(restored.workload()).isEqualTo(HomeWorkload.RUN);
    assertThat(restored.home().restore).isNull();
    assertThat(restored.home().restoredFrom).isEqualTo("backup-ready");
    assertThat(restored.conditions()).singleElement().satisfies(c -> {
      assertThat(c.type).isEqualTo(Condition.RESTORE_FAILED);
      assertThat(c.status).isEqualTo(Condition.Status.False);
      assertThat(c.reason).isEqualTo("Restored");
    });
    assertThat(restored.recheck()).isEmpty();
  }

  @Test
  void anUnconfirmedStorageClassChangeRunsAsRenderedAndLeavesTheRefusalToTheApplyStep() {
    Controller controller = create("move-unconfirmed", "persistence: {storageClassName: fast}");
    StatefulSet desired = statefulSet(controller);

    HomePass pass = step().pass(client, controller, resolved(controller), desired, Optional.of(onClass(desired, "slow")),
        Optional.empty());

    assertThat(pass.workload()).isEqualTo(HomeWorkload.RUN);
    assertThat(pass.conditions()).isEmpty();
    assertThat(pass.recheck()).isEmpty();
    assertThat(pass.home().move).isNull();
  }

  @Test
  void aConfirmedMoveStopsJenkinsWhileItsPodDrainsAndSaysMoving() {
    Controller controller = create("move-confirmed", "persistence: {storageClassName: fast}");
    controller.getMetadata().setAnnotations(Map.of(ControllerAnnotations.CONFIRM_HOME_MOVE, "fast"));
    StatefulSet desired = statefulSet(controller);
    HomeNames names = new HomeNames(desired.getMetadata().getName());
    bind(client.resource(new PersistentVolumeClaimBuilder().withNewMetadata().withName(names.claim())
        .withNamespace(NAMESPACE).endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
        .withStorageClassName("slow").withVolumeName("pv-slow").withNewResources()
        .withRequests(Map.of("storage", new Quantity("20Gi"))).endResources().endSpec().build()).create());
    client.resource(new PodBuilder().withNewMetadata().withName(names.pod()).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().addNewContainer().withName("jenkins").withImage("jenkins/jenkins").endContainer().endSpec()
        .build()).create();

    HomePass pass = step().pass(client, controller, resolved(controller), desired, Optional.of(onClass(desired, "slow")),
        Optional.empty());

    assertThat(pass.workload()).isEqualTo(HomeWorkload.STOPPED);
    assertThat(pass.home().move).satisfies(m -> {
      assertThat(m.from).isEqualTo("slow");
      assertThat(m.to).isEqualTo("fast");
      assertThat(m.step).isEqualTo(HomeProgress.DRAINING);
      assertThat(m.abort).contains(ControllerAnnotations.CONFIRM_HOME_MOVE);
    });
    assertThat(pass.conditions()).singleElement().satisfies(c -> {
      assertThat(c.type).isEqualTo(Condition.HOME_MOVE_FAILED);
      assertThat(c.status).isEqualTo(Condition.Status.False);
      assertThat(c.reason).isEqualTo("Moving");
    });
    assertThat(pass.recheck()).isEqualTo(HomeSteps.STEP_RECHECK);
  }

  private static JenkinsHomeStep step() {
    return new JenkinsHomeStep(Clock.systemUTC(), HomeCopySettings.defaults());
  }

  private Controller create(String name, String specYaml) {
    return ControllerManifests.create(client, NAMESPACE, name, specYaml);
  }

  private static ResolvedController resolved(Controller controller) {
    return RenderFixtures.resolved(controller);
  }

  /** The render step's StatefulSet. */
  private static StatefulSet statefulSet(Controller controller) {
    return ControllerObjects.render(RenderFixtures.input(resolved(controller), RenderFixtures.JCASC,
            RenderFixtures.profile(), Optional.empty(), List.of())).stream()
        .filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast).findFirst().orElseThrow();
  }

  /** The StatefulSet as it exists with its home on another class. */
  private static StatefulSet onClass(StatefulSet desired, String storageClass) {
    StatefulSet existing = YAML.clone(desired);
    existing.getSpec().getVolumeClaimTemplates().get(0).getSpec().setStorageClassName(storageClass);
    return existing;
  }

  /** The provisioner's part: the claim is Bound. */
  private void bind(PersistentVolumeClaim claim) {
    claim.setStatus(new PersistentVolumeClaimStatusBuilder().withPhase("Bound")
        .withCapacity(Map.of("storage", new Quantity("20Gi"))).build());
    client.resource(claim).updateStatus();
  }

  /** The snapshotter's part: a snapshot ready to restore from. */
  private void readySnapshot(String name) {
    GenericKubernetesResource snapshot = SnapshotKinds.snapshots(client).resource(
        SnapshotKinds.snapshotOf(NAMESPACE, name, "seed", null)).create();
    snapshot.setAdditionalProperty("status", Map.of("readyToUse", true, "restoreSize", "1Gi"));
    SnapshotKinds.snapshots(client).resource(snapshot).updateStatus();
  }
}

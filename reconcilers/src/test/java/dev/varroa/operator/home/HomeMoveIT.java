package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.render.naming.StatefulSetName;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import dev.varroa.testfixtures.kube.job.JobStandIn;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Moves of JENKINS_HOME to another storage class (seed 004) on a real API server, with the operator running as the
 * chart's ServiceAccount under the chart's RBAC (no request may be refused), the CSI
 * stand-in (a folder per volume), the Job stand-in running the copy and check Jobs' script with real rsync on those
 * folders, and a stand-in for the StatefulSet controller, the kubelet and the garbage collector.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HomeMoveIT {
  static final String NAMESPACE = "moves";
  static final String STANDARD = "standard";
  /** Another CSI driver: the move copies with rsync. */
  static final String FAST = "fast";
  /** The same driver as standard, which has a VolumeSnapshotClass: the move goes through a snapshot. */
  static final String STANDARD_REPLICATED = "standard-replicated";
  static final String REFUSING = "refusing";
  private static final Duration DEADLINE = Duration.ofSeconds(40);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private KubernetesClient client;
  private Path cache;
  private VarroaOperator operator;
  private ServiceAccountClient account;
  private CsiStandIn csi;
  private JobStandIn jobs;
  private StatefulSetPlayer player;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path volumes, @TempDir Path cache) {
    this.cache = cache;
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    csi = CsiStandIn.builder(client, volumes).namespace(NAMESPACE)
        .storageClass(STANDARD, "disk.csi.example.com").storageClass(STANDARD_REPLICATED, "disk.csi.example.com")
        .storageClass(FAST, "flash.csi.example.com").storageClass(REFUSING, "flash.csi.example.com").start();
    jobs = JobStandIn.builder(client, csi).namespace(NAMESPACE).start();
    player = new StatefulSetPlayer(client, NAMESPACE);
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
    jobs.close();
    csi.close();
  }

  @Test
  void movesTheHomeWithRsyncOnceConfirmedAndKeepsTheOldVolume() throws IOException {
    Controller created = running("mover");
    PersistentVolumeClaim old = homeClaim(created);
    Path oldHome = csi.folder(NAMESPACE, old.getMetadata().getName());
    jenkinsHome(oldHome);

    patch(created, "{\"spec\":{\"persistence\":{\"storageClassName\":\"" + FAST + "\"}}}");
    Controller blocked = awaitStatus(created, s -> s.condition(Condition.RECONCILE_BLOCKED)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    assertThat(blocked.getStatus().condition(Condition.RECONCILE_BLOCKED).get().message)
        .contains("annotate the Controller varroa.dev/confirm-home-move=fast");
    confirm(created, FAST);

    Controller moved = awaitMoved(created);
    PersistentVolumeClaim now = homeClaim(created);
    PersistentVolume volume = client.persistentVolumes().withName(now.getSpec().getVolumeName()).get();
    assertThat(volume.getSpec().getStorageClassName()).isEqualTo(FAST);
    assertThat(now.getSpec().getStorageClassName()).isEqualTo(FAST);
    assertHomeCopied(csi.folder(volume));
    assertThat(statefulSet(created).getSpec().getVolumeClaimTemplates().get(0).getSpec().getStorageClassName())
        .isEqualTo(FAST);
    assertOldVolumeKept(moved, old, oldHome);
    assertThat(moved.getStatus().condition(Condition.HOME_MOVE_FAILED)).get()
        .satisfies(c -> assertThat(c.reason).isEqualTo("Moved"));
    assertThat(jobs.runs(NAMESPACE, statefulSetName(created) + "-home-copy")).singleElement()
        .satisfies(r -> assertThat(r.terminationMessage()).startsWith("copied files="));
    assertThat(jobs.runs(NAMESPACE, statefulSetName(created) + "-home-check")).singleElement()
        .satisfies(r -> assertThat(r.terminationMessage()).startsWith("verified files="));
    assertThat(client.batch().v1().jobs().inNamespace(NAMESPACE).list().getItems())
        .noneMatch(j -> j.getMetadata().getName().startsWith(statefulSetName(created)));
  }

  /**
   * Both classes share a CSI driver with a VolumeSnapshotClass: the move snapshots the old home and restores it into
   * the target class (no copy Job), then checks it like a copy before the swap.
   */
  @Test
  void aMoveBetweenClassesOfOneDriverGoesThroughASnapshotAndIsChecked() throws IOException {
    Controller created = running("snapper");
    PersistentVolumeClaim old = homeClaim(created);
    Path oldHome = csi.folder(NAMESPACE, old.getMetadata().getName());
    jenkinsHome(oldHome);

    moveTo(created, STANDARD_REPLICATED);

    Controller moved = awaitMoved(created);
    PersistentVolumeClaim now = homeClaim(created);
    assertThat(now.getSpec().getStorageClassName()).isEqualTo(STANDARD_REPLICATED);
    assertThat(now.getSpec().getVolumeName()).isNotEqualTo(old.getSpec().getVolumeName());
    Path newHome = csi.folder(NAMESPACE, now.getMetadata().getName());
    assertThat(Files.readString(newHome.resolve("secrets/master.key"))).isEqualTo("the master key");
    assertOldVolumeKept(moved, old, oldHome);
    assertThat(jobs.runs(NAMESPACE, statefulSetName(created) + "-home-copy")).as("no copy: a snapshot").isEmpty();
    assertThat(jobs.runs(NAMESPACE, statefulSetName(created) + "-home-check")).singleElement()
        .satisfies(r -> assertThat(r.terminationMessage()).startsWith("verified files="));
  }

  @Test
  void aCopyJobKilledMidWayLeavesTheOldHomeAndIsNotRetriedUntilAskedAgain() throws IOException {
    Controller created = running("killed");
    PersistentVolumeClaim old = homeClaim(created);
    jenkinsHome(csi.folder(NAMESPACE, old.getMetadata().getName()));
    String copyJob = statefulSetName(created) + "-home-copy";
    jobs.killNext();

    moveTo(created, FAST);

    Controller failed = awaitStatus(created, s -> failed(s, "CopyFailed") && s.phase == ControllerStatus.Phase.Running);
    assertThat(failed.getStatus().condition(Condition.HOME_MOVE_FAILED).get().message)
        .contains("the copy Job " + copyJob + " failed").contains("stays on storage class standard")
        .contains("remove the varroa.dev/confirm-home-move annotation and set it again");
    assertOnOldHome(created, old);
    assertThat(failed.getStatus().home.move.step).isEqualTo("Failed");
    assertThat(jobs.runs(NAMESPACE, copyJob)).singleElement()
        .satisfies(r -> assertThat(r.exitCode()).isEqualTo(137));

    // asked again: the annotation removed (the change stays blocked), then set again
    client.resources(Controller.class).inNamespace(NAMESPACE).withName("killed").patch(PatchContext.of(PatchType.JSON),
        "[{\"op\":\"remove\",\"path\":\"/metadata/annotations/varroa.dev~1confirm-home-move\"}]");
    awaitStatus(created, s -> s.home.move == null);
    assertThat(jobs.runs(NAMESPACE, copyJob)).hasSize(1);
    confirm(created, FAST);
    awaitMoved(created);
    assertHomeCopied(csi.folder(NAMESPACE, homeClaim(created).getMetadata().getName()));
  }

  @Test
  void aTargetClassThatRefusesTheClaimFailsTheMoveAndJenkinsStaysOnItsHome() {
    Controller created = running("refused");
    PersistentVolumeClaim old = homeClaim(created);
    csi.refuseClass(REFUSING, "no capacity left in pool flash-2");

    moveTo(created, REFUSING);

    Controller failed = awaitStatus(created, s -> failed(s, "ClaimRefused") && s.phase == ControllerStatus.Phase.Running);
    assertThat(failed.getStatus().condition(Condition.HOME_MOVE_FAILED).get().message)
        .contains("claim " + NAMESPACE + "/" + old.getMetadata().getName() + "-next")
        .contains("refused by storage class refusing").contains("no capacity left in pool flash-2");
    assertOnOldHome(created, old);
    await().atMost(DEADLINE).until(() -> client.persistentVolumeClaims().inNamespace(NAMESPACE)
        .withName(old.getMetadata().getName() + "-next").get() == null);
  }

  @Test
  void aMoveSurvivesTheOperatorRestartingAtEachStep(@TempDir Path restartCache) throws IOException {
    Controller created = running("restarted");
    PersistentVolumeClaim old = homeClaim(created);
    Path oldHome = csi.folder(NAMESPACE, old.getMetadata().getName());
    jenkinsHome(oldHome);
    List<String> restartedAt = new ArrayList<>();
    player.pause(true);

    moveTo(created, FAST);

    Controller draining = awaitStatus(created, s -> s.home.move != null && "Draining".equals(s.home.move.step));
    assertThat(draining.getStatus().phase).isEqualTo(ControllerStatus.Phase.Provisioning);
    assertThat(draining.getStatus().condition(Condition.RECONCILING).get().message)
        .contains("move of JENKINS_HOME from storage class standard to fast, step 1 of 7 (Draining)");
    assertThat(draining.getStatus().home.move.abort).contains("remove the varroa.dev/confirm-home-move annotation")
        .contains("set persistence.storageClassName back to standard");
    restart(restartCache, restartedAt, "Draining");
    player.pause(false);
    for (String step : List.of("Claiming", "Copying", "Verifying", "Swapping", "Starting")) {
      Controller at = awaitStatus(created, s -> s.home.move == null || HomeMove.PLAN.indexOf(s.home.move.step)
          >= HomeMove.PLAN.indexOf(step));
      if (at.getStatus().home.move != null && !restartedAt.contains(at.getStatus().home.move.step)) {
        restart(restartCache, restartedAt, at.getStatus().home.move.step);
      }
    }

    Controller moved = awaitMoved(created);
    assertThat(restartedAt).as("steps the operator restarted at").contains("Draining").hasSizeGreaterThan(2);
    assertHomeCopied(csi.folder(NAMESPACE, homeClaim(created).getMetadata().getName()));
    assertOldVolumeKept(moved, old, oldHome);
  }

  private void restart(Path restartCache, List<String> restartedAt, String step) {
    operator.close();
    restartedAt.add(step);
    operator = new VarroaOperator(account.client(),
        OperatorSettings.defaults(restartCache.resolve(String.valueOf(restartedAt.size()))), null);
    operator.start();
  }

  private Controller running(String name) {
    Controller created = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec:
          persistence: {size: 1Gi, storageClassName: %s}
        """.formatted(name, NAMESPACE, STANDARD), Controller.class)).create();
    return awaitStatus(created, s -> s.phase == ControllerStatus.Phase.Running && s.home != null
        && s.home.volumeName != null);
  }

  /** secrets/, nodes/ and a job with a build log hard-linked, as Jenkins leaves them. */
  private static void jenkinsHome(Path home) throws IOException {
    Files.createDirectories(home.resolve("secrets"));
    Files.createDirectories(home.resolve("nodes/agent-1"));
    Files.createDirectories(home.resolve("jobs/build/builds/1"));
    Files.writeString(home.resolve("secrets/master.key"), "the master key");
    Files.writeString(home.resolve("nodes/agent-1/config.xml"), "<slave><name>agent-1</name></slave>");
    Files.writeString(home.resolve("jobs/build/builds/1/log"), "Started by timer\n");
    Files.createLink(home.resolve("jobs/build/builds/1/log.copy"), home.resolve("jobs/build/builds/1/log"));
  }

  private static void assertHomeCopied(Path home) throws IOException {
    assertThat(Files.readString(home.resolve("secrets/master.key"))).isEqualTo("the master key");
    assertThat(Files.readString(home.resolve("nodes/agent-1/config.xml"))).contains("agent-1");
    assertThat(Files.getAttribute(home.resolve("jobs/build/builds/1/log.copy"), "unix:ino", LinkOption.NOFOLLOW_LINKS))
        .isEqualTo(Files.getAttribute(home.resolve("jobs/build/builds/1/log"), "unix:ino", LinkOption.NOFOLLOW_LINKS));
  }

  private void assertOldVolumeKept(Controller moved, PersistentVolumeClaim old, Path oldHome) throws IOException {
    PersistentVolume kept = client.persistentVolumes().withName(old.getSpec().getVolumeName()).get();
    assertThat(kept.getSpec().getPersistentVolumeReclaimPolicy()).isEqualTo("Retain");
    assertThat(Files.readString(oldHome.resolve("secrets/master.key"))).isEqualTo("the master key");
    assertThat(moved.getStatus().home.retainedVolumes).extracting(r -> r.volumeName)
        .contains(old.getSpec().getVolumeName());
    assertThat(moved.getStatus().home.move).isNull();
  }

  private void assertOnOldHome(Controller created, PersistentVolumeClaim old) {
    assertThat(homeClaim(created).getSpec().getVolumeName()).isEqualTo(old.getSpec().getVolumeName());
    StatefulSet sts = statefulSet(created);
    assertThat(sts.getSpec().getReplicas()).isEqualTo(1);
    assertThat(sts.getSpec().getVolumeClaimTemplates().get(0).getSpec().getStorageClassName()).isEqualTo(STANDARD);
    assertThat(client.persistentVolumes().withName(old.getSpec().getVolumeName()).get().getSpec()
        .getPersistentVolumeReclaimPolicy()).isEqualTo("Delete");
  }

  private static boolean failed(ControllerStatus status, String reason) {
    return status.condition(Condition.HOME_MOVE_FAILED)
        .filter(c -> c.status == Condition.Status.True && reason.equals(c.reason)).isPresent();
  }

  private Controller awaitMoved(Controller created) {
    return awaitStatus(created, s -> s.home != null && s.home.move == null && s.phase == ControllerStatus.Phase.Running
        && s.condition(Condition.HOME_MOVE_FAILED).filter(c -> "Moved".equals(c.reason)).isPresent());
  }

  private void moveTo(Controller controller, String storageClass) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\""
            + ControllerAnnotations.CONFIRM_HOME_MOVE + "\":\"" + storageClass + "\"}},\"spec\":{\"persistence\":"
            + "{\"storageClassName\":\"" + storageClass + "\"}}}");
  }

  private void confirm(Controller controller, String storageClass) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\""
            + ControllerAnnotations.CONFIRM_HOME_MOVE + "\":\"" + storageClass + "\"}}}");
  }

  private void patch(Controller controller, String mergePatch) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private PersistentVolumeClaim homeClaim(Controller controller) {
    return csi.awaitBound(NAMESPACE, "jenkins-home-" + statefulSetName(controller) + "-0");
  }

  private StatefulSet statefulSet(Controller controller) {
    return client.apps().statefulSets().inNamespace(NAMESPACE).withName(statefulSetName(controller)).get();
  }

  private Controller awaitStatus(Controller controller, Predicate<ControllerStatus> wanted) {
    try {
      await().atMost(DEADLINE).until(() -> {
        Controller c = client.resources(Controller.class).inNamespace(NAMESPACE)
            .withName(controller.getMetadata().getName()).get();
        return c.getStatus() != null && wanted.test(c.getStatus());
      });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("Controller " + controller.getMetadata().getName() + " did not reach the status in "
          + DEADLINE + "; its status: " + YAML.asYaml(client.resources(Controller.class).inNamespace(NAMESPACE)
              .withName(controller.getMetadata().getName()).get().getStatus()), e);
    }
    return client.resources(Controller.class).inNamespace(NAMESPACE).withName(controller.getMetadata().getName()).get();
  }

  private static String statefulSetName(Controller controller) {
    return StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
  }
}

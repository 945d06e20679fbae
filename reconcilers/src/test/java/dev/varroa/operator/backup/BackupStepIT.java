package dev.varroa.operator.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BackupStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerSpec;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.RestoreSpec;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backup step against a real API server with the snapshot CRDs, the CSI snapshotter and provisioner played by
 * {@link CsiStandIn}, and a clock the test moves; the mite's quiet-down is recorded (the whole path through a real
 * mite and Jenkins is in RestartSurvivalIT).
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BackupStepIT {
  private static final String NS = "backups";
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-02T10:30:00Z"));
  private final List<String> quietDowns = new CopyOnWriteArrayList<>();
  private CsiStandIn csi;
  private KubernetesClient client;
  private BackupStep step;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path root) {
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
    csi = CsiStandIn.builder(client, root).storageClass("fast", "fast.csi.example.com").namespace(NS).start();
    Clock clock = new Clock() {
      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return now.get();
      }
    };
    step = new BackupStep(client, clock, new QuietDown() {
      @Override
      public void start(ControllerIdentity controller) {
        quietDowns.add("quietDown " + controller.name());
      }

      @Override
      public void cancel(ControllerIdentity controller) {
        quietDowns.add("cancel " + controller.name());
      }
    });
  }

  @AfterAll
  void stop() {
    if (csi != null) {
      csi.close();
    }
  }

  private Path home(String sts) throws Exception {
    String claim = BackupNames.homeClaim(sts);
    client.resource(new PersistentVolumeClaimBuilder().withNewMetadata().withName(claim).withNamespace(NS)
        .endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withStorageClassName("fast")
        .withNewResources().withRequests(Map.of("storage", new Quantity("1Gi"))).endResources().endSpec().build())
        .create();
    csi.awaitBound(NS, claim);
    Path folder = csi.folder(NS, claim);
    Files.createDirectories(folder.resolve("secrets"));
    Files.writeString(folder.resolve("secrets/master.key"), "k3y");
    return folder;
  }

  private static Controller controller(String name, Map<String, String> annotations) {
    Controller controller = new Controller();
    controller.getMetadata().setName(name);
    controller.getMetadata().setNamespace(NS);
    controller.getMetadata().setUid("0000-" + name);
    controller.getMetadata().setAnnotations(annotations);
    controller.setSpec(new ControllerSpec());
    return controller;
  }

  private static ObservedState jenkins(int running, boolean quietingDown) {
    return ObservedState.newBuilder().setJenkinsReachable(true).setRunningBuilds(running)
        .setQuietingDown(quietingDown).build();
  }

  private static ControllerStatus with(BackupStep.Outcome outcome) {
    ControllerStatus status = new ControllerStatus();
    status.backup = outcome.status();
    outcome.condition().ifPresent(status.conditions::add);
    return status;
  }

  /** Passes until the backup under way finishes (the stand-in makes snapshots ready on its own thread). */
  private ControllerStatus untilFinished(Controller controller, ResolvedController.Backup settings,
      ControllerStatus status, String sts, ObservedState observed) {
    AtomicReference<ControllerStatus> current = new AtomicReference<>(status);
    await().atMost(DEADLINE).until(() -> {
      current.set(with(step.run(controller, settings, current.get(), sts, Optional.of(observed))));
      return current.get().backup.inProgress == null;
    });
    return current.get();
  }

  @Test
  void scheduledBackupsWaitForRunningBuildsInQuietDownAndKeepOnlyTheNewest() throws Exception {
    String sts = "nightly-1a2b3c4d";
    Path home = home(sts);
    Controller controller = controller("nightly", Map.of());
    ResolvedController.Backup settings = new ResolvedController.Backup(Optional.of("0 * * * *"), 2,
        Optional.empty(), 300);

    ControllerStatus status = with(step.run(controller, settings, new ControllerStatus(), sts,
        Optional.of(jenkins(1, false))));
    assertThat(status.backup.nextScheduledAt).isEqualTo("2026-12-02T11:00:00Z");
    assertThat(status.backup.inProgress).isNull();

    for (int hour = 11; hour <= 13; hour++) {
      now.set(Instant.parse("2026-12-02T%d:00:00Z".formatted(hour)));
      quietDowns.clear();
      status = with(step.run(controller, settings, status, sts, Optional.of(jenkins(1, false))));
      assertThat(status.backup.inProgress.step).isEqualTo(BackupStep.QUIETING_DOWN);
      assertThat(quietDowns).containsExactly("quietDown nightly");
      String snapshot = status.backup.inProgress.snapshot;
      // a build still runs: no snapshot yet
      status = with(step.run(controller, settings, status, sts, Optional.of(jenkins(1, true))));
      assertThat(client.resources(VolumeSnapshot.class).inNamespace(NS).withName(snapshot).get()).isNull();

      status = untilFinished(controller, settings, status, sts, jenkins(0, true));
      assertThat(status.backup.lastSuccessfulSnapshot).isEqualTo(snapshot);
      assertThat(quietDowns).containsExactly("quietDown nightly", "cancel nightly");
      assertThat(status.backup.nextScheduledAt).isEqualTo("2026-12-02T%d:00:00Z".formatted(hour + 1));
      assertThat(csi.snapshotFolder(NS, snapshot).resolve("secrets/master.key")).hasContent("k3y");
    }
    assertThat(status.backup.snapshots).containsExactly("nightly-1a2b3c4d-backup-20261202-120000",
        "nightly-1a2b3c4d-backup-20261202-130000");
    assertThat(client.resources(VolumeSnapshot.class).inNamespace(NS).withLabel(BackupNames.BACKUP_OF, sts).list()
        .getItems()).extracting(s -> s.getMetadata().getName()).containsExactlyInAnyOrderElementsOf(status.backup.snapshots);
    assertThat(status.condition(Condition.BACKUP_FAILED)).get().extracting(c -> c.status).isEqualTo(Condition.Status.False);
    assertThat(home).exists();
  }

  @Test
  void aSnapshotARestoreUsesIsNeverPruned() throws Exception {
    String sts = "kept-1a2b3c4d";
    home(sts);
    ResolvedController.Backup settings = new ResolvedController.Backup(Optional.empty(), 1, Optional.empty(), 300);
    ControllerStatus status = new ControllerStatus();
    String first = null;
    for (int i = 1; i <= 3; i++) {
      now.set(now.get().plusSeconds(60));
      Controller controller = controller("kept", Map.of(ControllerAnnotations.BACKUP_NOW, "request-" + i));
      if (first != null) {
        controller.getSpec().restore = new RestoreSpec();
        controller.getSpec().restore.volumeSnapshotName = first;
      }
      status = with(step.run(controller, settings, status, sts, Optional.empty()));
      status = untilFinished(controller, settings, status, sts, ObservedState.getDefaultInstance());
      first = first == null ? status.backup.lastSuccessfulSnapshot : first;
    }
    assertThat(status.backup.snapshots).hasSize(2).first().isEqualTo(first);
    assertThat(status.backup.lastOnDemandRequest).isEqualTo("request-3");
  }

  @Test
  void aDriverErrorFailsTheBackupWithTheDriversMessageAndCancelsQuietDown() throws Exception {
    String sts = "broken-1a2b3c4d";
    home(sts);
    quietDowns.clear();
    csi.failNextSnapshot("rpc error: code = ResourceExhausted desc = snapshot quota exceeded");
    Controller controller = controller("broken", Map.of(ControllerAnnotations.BACKUP_NOW, "now"));
    ResolvedController.Backup settings = new ResolvedController.Backup(Optional.empty(), 7, Optional.empty(), 300);
    ControllerStatus status = with(step.run(controller, settings, new ControllerStatus(), sts,
        Optional.of(jenkins(0, false))));
    // until the mite reports Jenkins in quiet-down, its count of running builds may predate it
    assertThat(status.backup.inProgress.step).isEqualTo(BackupStep.QUIETING_DOWN);
    status = untilFinished(controller, settings, status, sts, jenkins(0, true));
    Condition failed = status.condition(Condition.BACKUP_FAILED).orElseThrow();
    assertThat(failed.status).isEqualTo(Condition.Status.True);
    assertThat(failed.message).contains("snapshot quota exceeded").contains("broken-1a2b3c4d-backup-");
    assertThat(status.backup.lastFailure.message).contains("snapshot quota exceeded");
    assertThat(quietDowns).containsExactly("quietDown broken", "cancel broken");
    // the same annotation value never takes a second backup
    BackupStep.Outcome again = step.run(controller, settings, status, sts, Optional.of(jenkins(0, false)));
    assertThat(again.status().inProgress).isNull();
  }

  @Test
  void theQuietDownWaitIsBoundedAndSaysHowManyBuildsWereStillRunning() throws Exception {
    String sts = "busy-1a2b3c4d";
    home(sts);
    Controller controller = controller("busy", Map.of(ControllerAnnotations.BACKUP_NOW, "now"));
    ResolvedController.Backup settings = new ResolvedController.Backup(Optional.empty(), 7, Optional.empty(), 60);
    ControllerStatus status = with(step.run(controller, settings, new ControllerStatus(), sts,
        Optional.of(jenkins(2, true))));
    assertThat(status.backup.inProgress.quietedByBackup).isFalse();
    assertThat(status.backup.inProgress.step).isEqualTo(BackupStep.QUIETING_DOWN);
    now.set(now.get().plusSeconds(61));
    status = with(step.run(controller, settings, status, sts, Optional.of(jenkins(2, true))));
    assertThat(status.backup.inProgress.runningBuildsAtSnapshot).isEqualTo(2);
    status = untilFinished(controller, settings, status, sts, jenkins(2, true));
    assertThat(status.backup.lastSuccessfulSnapshot).startsWith(sts + "-backup-");
  }

  @Test
  void reportsAControllerWithoutAHomeAndAScheduleThatIsNotOne() {
    Controller controller = controller("new", Map.of(ControllerAnnotations.BACKUP_NOW, "now"));
    BackupStep.Outcome outcome = step.run(controller,
        new ResolvedController.Backup(Optional.of("every night"), 7, Optional.empty(), 300), new ControllerStatus(),
        "new-1a2b3c4d", Optional.empty());
    assertThat(outcome.condition()).get().satisfies(c -> {
      assertThat(c.reason).isEqualTo("NoHome");
      assertThat(c.message).contains("jenkins-home-new-1a2b3c4d-0");
    });
    BackupStep.Outcome invalid = step.run(controller("new", Map.of()),
        new ResolvedController.Backup(Optional.of("every night"), 7, Optional.empty(), 300), new ControllerStatus(),
        "new-1a2b3c4d", Optional.empty());
    assertThat(invalid.condition()).get().satisfies(c -> {
      assertThat(c.reason).isEqualTo("InvalidSchedule");
      assertThat(c.message).contains("every night").contains("fix");
    });
    assertThat(invalid.status().nextScheduledAt).isNull();
  }
}

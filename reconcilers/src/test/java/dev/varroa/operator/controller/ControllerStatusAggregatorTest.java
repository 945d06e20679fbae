package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.BackupStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HibernationStatus;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.backup.BackupStep;
import dev.varroa.operator.channel.CommandQueue;
import dev.varroa.operator.controller.ControllerStatusAggregator.MiteObservation;
import dev.varroa.operator.controller.ControllerStatusAggregator.Observation;
import dev.varroa.operator.controller.ControllerStatusAggregator.Workload;
import dev.varroa.operator.hibernation.Hibernator;
import dev.varroa.operator.home.HomePass;
import dev.varroa.operator.home.HomeProgress;
import dev.varroa.operator.home.HomeWorkload;
import dev.varroa.operator.render.RestartHash;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The aggregator's table: what a pass observed and the previous status, in; the status a reader sees, out. */
class ControllerStatusAggregatorTest {
  private static final Instant NOW = Instant.parse("2026-01-01T10:00:00Z");
  private static final String STS = "ci-1a2b3c4d";
  private static final String HASH = "restart-hash-1";

  private static StatefulSet statefulSet() {
    return new StatefulSetBuilder().withNewMetadata().withName(STS).withNamespace("team").endMetadata()
        .withNewSpec().withNewTemplate().withNewMetadata().addToAnnotations(RestartHash.ANNOTATION, HASH).endMetadata()
        .endTemplate().endSpec().build();
  }

  private static PodBuilder pod(String hash) {
    return new PodBuilder().withNewMetadata().withName(STS + "-0").withNamespace("team")
        .addToAnnotations(RestartHash.ANNOTATION, hash).endMetadata();
  }

  private static Pod readyPod() {
    return pod(HASH).withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
        .endCondition().endStatus().build();
  }

  private static Workload workload(Pod pod) {
    return new Workload("team-bundle", STS, "http://ci.example", false, statefulSet(), pod);
  }

  private static MiteObservation mite(boolean connected, Boolean applied) {
    ControllerStatus.MiteStatus status = new ControllerStatus.MiteStatus();
    status.connected = connected;
    status.gateway = connected ? "gateway-0" : null;
    status.connectedAt = connected ? "2026-01-01T09:00:00Z" : null;
    Optional<ControllerStatus.ApplyResult> apply = Optional.ofNullable(applied).map(ok -> {
      ControllerStatus.ApplyResult result = new ControllerStatus.ApplyResult();
      result.succeeded = ok;
      result.message = ok ? "applied" : "REFUSED: bad casc";
      return result;
    });
    return new MiteObservation(status, Optional.empty(), apply);
  }

  private static Observation clean(Pod pod) {
    return Observation.of(3).withHome(home(null, List.of())).withWorkload(workload(pod));
  }

  private static HomePass home(HomeStatus.HomeOperation restore, List<Condition> conditions) {
    HomeStatus home = new HomeStatus();
    home.claimName = "home-" + STS + "-0";
    home.restore = restore;
    return new HomePass(home, HomeWorkload.RUN, conditions, Optional.empty());
  }

  private static ControllerStatus withCondition(ControllerStatus status, String type, Condition.Status value,
      String reason) {
    Condition condition = new Condition(type, value, reason, reason + " before");
    condition.lastTransitionTime = "2025-12-01T00:00:00Z";
    condition.observedGeneration = 2L;
    status.conditions = Stream.concat(status.conditions == null ? Stream.of() : status.conditions.stream(),
        Stream.of(condition)).toList();
    return status;
  }

  private static ControllerStatus previousWithSections() {
    ControllerStatus previous = new ControllerStatus();
    previous.phase = ControllerStatus.Phase.Running;
    previous.bundle = "old-bundle";
    previous.statefulSetName = STS;
    previous.url = "http://old.example";
    previous.home = new HomeStatus();
    previous.home.claimName = "old-claim";
    previous.backup = new BackupStatus();
    previous.backup.lastSuccessfulSnapshot = "backup-1";
    previous.hibernation = new HibernationStatus();
    previous.hibernation.lastActivityAt = "2026-01-01T08:00:00Z";
    previous.miteStatus = mite(true, null).status();
    previous.lastReconciledAt = "2026-01-01T09:59:00Z";
    withCondition(previous, Condition.BACKUP_FAILED, Condition.Status.True, "SnapshotFailed");
    return withCondition(previous, Condition.MITE_CONNECTED, Condition.Status.True, "StreamActive");
  }

  private static Optional<Condition> condition(ControllerStatus status, String type) {
    return status.condition(type);
  }

  private static Consumer<ControllerStatus> trio(Condition.Status ready, Condition.Status reconciling,
      Condition.Status stalled) {
    return s -> {
      assertThat(condition(s, Condition.READY).map(c -> c.status)).contains(ready);
      assertThat(condition(s, Condition.RECONCILING).map(c -> c.status)).contains(reconciling);
      assertThat(condition(s, Condition.STALLED).map(c -> c.status)).contains(stalled);
    };
  }

  static Stream<Arguments> table() {
    return Stream.of(
        Arguments.of("new Controller, nothing created yet: Provisioning, Reconciling",
            new ControllerStatus(), clean(null), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Provisioning);
              trio(Condition.Status.False, Condition.Status.True, Condition.Status.False).accept(s);
              assertThat(s.bundle).isEqualTo("team-bundle");
              assertThat(s.statefulSetName).isEqualTo(STS);
              assertThat(s.url).isEqualTo("http://ci.example");
              assertThat(s.observedGeneration).isEqualTo(3L);
              assertThat(s.lastReconciledAt).isEqualTo(NOW.toString());
              assertThat(condition(s, Condition.RECONCILE_BLOCKED).map(c -> c.reason)).contains("Resolved");
              assertThat(s.attention).isNull();
            }),
        Arguments.of("pod ready on the wanted restart hash, no channel: Running, Ready",
            new ControllerStatus(), clean(readyPod()), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Running);
              trio(Condition.Status.True, Condition.Status.False, Condition.Status.False).accept(s);
              assertThat(condition(s, Condition.READY).map(c -> c.reason)).contains("Running");
              assertThat(condition(s, Condition.MITE_CONNECTED)).isEmpty();
            }),
        Arguments.of("pod on the previous restart hash: the roll is under way",
            new ControllerStatus(), clean(pod("restart-hash-0").withNewStatus().addNewCondition().withType("Ready")
                .withStatus("True").endCondition().endStatus().build()), (Consumer<ControllerStatus>) s ->
                assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Provisioning)),
        Arguments.of("mite connected: Connected, MiteConnected StreamActive",
            new ControllerStatus(), clean(readyPod()).withMite(mite(true, true)), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Connected);
              assertThat(condition(s, Condition.MITE_CONNECTED).map(c -> c.reason)).contains("StreamActive");
              assertThat(s.lastApplyResult.succeeded).isTrue();
              trio(Condition.Status.True, Condition.Status.False, Condition.Status.False).accept(s);
            }),
        Arguments.of("mite lost after a stream: StreamLost, Mite unreachable, Stalled",
            previousWithSections(), clean(readyPod()).withMite(mite(false, null)), (Consumer<ControllerStatus>) s -> {
              assertThat(condition(s, Condition.MITE_CONNECTED).map(c -> c.reason))
                  .contains(Condition.REASON_STREAM_LOST);
              assertThat(s.attention).isEqualTo("Mite unreachable");
              assertThat(condition(s, Condition.STALLED).map(c -> c.reason)).contains("Miteunreachable");
              trio(Condition.Status.False, Condition.Status.False, Condition.Status.True).accept(s);
            }),
        Arguments.of("desired state refused by Jenkins: Apply failed",
            new ControllerStatus(), clean(readyPod()).withMite(mite(true, false)), (Consumer<ControllerStatus>) s -> {
              assertThat(s.attention).isEqualTo("Apply failed");
              assertThat(condition(s, Condition.READY).map(c -> c.message)).contains("Apply failed: see the conditions");
            }),
        Arguments.of("blocked inputs: phase stays, ReconcileBlocked, Stalled, no stamp",
            new ControllerStatus(), Observation.of(1).blockedBy("ComposedBundle x not found; fix: create it"),
            (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Pending);
              assertThat(condition(s, Condition.RECONCILE_BLOCKED).map(c -> c.message))
                  .contains("ComposedBundle x not found; fix: create it");
              assertThat(s.attention).isEqualTo("Blocked");
              trio(Condition.Status.False, Condition.Status.False, Condition.Status.True).accept(s);
              assertThat(s.lastReconciledAt).isNull();
            }),
        Arguments.of("apply refused: the workload of the last clean pass, home of this pass, other sections kept",
            previousWithSections(), clean(readyPod()).blockedBy("Namespace agents is not Varroa's; fix: ..."),
            (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Running);
              assertThat(s.bundle).isEqualTo("old-bundle");
              assertThat(s.url).isEqualTo("http://old.example");
              assertThat(s.home.claimName).isEqualTo("home-" + STS + "-0");
              assertThat(s.backup.lastSuccessfulSnapshot).isEqualTo("backup-1");
              assertThat(s.hibernation.lastActivityAt).isEqualTo("2026-01-01T08:00:00Z");
              assertThat(s.miteStatus.connected).isTrue();
              assertThat(condition(s, Condition.MITE_CONNECTED).map(c -> c.reason)).contains("StreamActive");
              assertThat(condition(s, Condition.BACKUP_FAILED).map(c -> c.reason)).contains("SnapshotFailed");
              assertThat(s.lastReconciledAt).isEqualTo("2026-01-01T09:59:00Z");
            }),
        Arguments.of("waiting for the bundle's render: Pending with the bundle, nothing else touched",
            previousWithSections(), Observation.of(4).waitingFor("team-bundle"), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Running);
              assertThat(s.bundle).isEqualTo("team-bundle");
              assertThat(s.observedGeneration).isEqualTo(4L);
              assertThat(s.conditions).hasSize(previousWithSections().conditions.size());
              assertThat(s.lastReconciledAt).isEqualTo("2026-01-01T09:59:00Z");
            }),
        Arguments.of("spec.stopped: Stopped is settled, Ready",
            new ControllerStatus(), Observation.of(1).withWorkload(new Workload("b", STS, "u", true, statefulSet(),
                null)), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Stopped);
              trio(Condition.Status.True, Condition.Status.False, Condition.Status.False).accept(s);
            }),
        Arguments.of("parked by the inactivity policy: Hibernated, the mite away by design",
            new ControllerStatus(), clean(null).parked(true).withMite(mite(false, null))
                .withHibernation(new Hibernator.Outcome(hibernation("idle 30 minutes"), Optional.empty())),
            (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Hibernated);
              assertThat(condition(s, Condition.MITE_CONNECTED).map(c -> c.reason)).contains("Hibernated");
              assertThat(s.hibernation.reason).isEqualTo("idle 30 minutes");
              trio(Condition.Status.True, Condition.Status.False, Condition.Status.False).accept(s);
            }),
        Arguments.of("pod Failed: Failed, Stalled",
            new ControllerStatus(), clean(pod(HASH).withNewStatus().withPhase("Failed").withMessage("evicted")
                .endStatus().build()), (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Failed);
              assertThat(condition(s, "Failed").map(c -> c.message)).contains("pod " + STS + "-0 failed: evicted");
              trio(Condition.Status.False, Condition.Status.False, Condition.Status.True).accept(s);
            }),
        Arguments.of("Jenkins in CrashLoopBackOff: JenkinsBootFailed with the logs command",
            new ControllerStatus(), clean(pod(HASH).withNewStatus().addNewContainerStatus().withName("jenkins")
                .withRestartCount(4).withNewState().withNewWaiting().withReason("CrashLoopBackOff").endWaiting()
                .endState().endContainerStatus().endStatus().build()), (Consumer<ControllerStatus>) s -> {
              assertThat(condition(s, Condition.JENKINS_BOOT_FAILED).map(c -> c.message).orElseThrow())
                  .contains("CrashLoopBackOff", "restart count 4", "kubectl logs -n team " + STS + "-0 -c jenkins");
              assertThat(s.attention).isEqualTo("Boot failed");
            }),
        Arguments.of("plugins init step exited 1: PluginRollFailed",
            new ControllerStatus(), clean(pod(HASH).withNewStatus().addNewInitContainerStatus().withName("plugins")
                .withNewState().withNewTerminated().withExitCode(1).endTerminated().endState()
                .endInitContainerStatus().endStatus().build()), (Consumer<ControllerStatus>) s -> {
              assertThat(condition(s, Condition.PLUGIN_ROLL_FAILED).map(c -> c.status)).contains(Condition.Status.True);
              assertThat(s.attention).isEqualTo("Plugin roll failed");
            }),
        Arguments.of("restore under way: Provisioning, Reconciling names the step, RestoreFailed once",
            withCondition(new ControllerStatus(), Condition.RESTORE_FAILED, Condition.Status.False, "Restoring"),
            Observation.of(1).withHome(home(restoring(), List.of(new Condition(Condition.RESTORE_FAILED,
                Condition.Status.False, "Restoring", "restoring from backup-1")))).withWorkload(workload(readyPod())),
            (Consumer<ControllerStatus>) s -> {
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Provisioning);
              assertThat(condition(s, Condition.RECONCILING).map(c -> c.message).orElseThrow())
                  .startsWith("restore from backup-1, step 3 of 5 (Claiming)");
              assertThat(s.conditions.stream().filter(c -> Condition.RESTORE_FAILED.equals(c.type))).hasSize(1);
              Condition restore = condition(s, Condition.RESTORE_FAILED).orElseThrow();
              assertThat(restore.message).isEqualTo("restoring from backup-1");
              assertThat(restore.lastTransitionTime).isEqualTo("2025-12-01T00:00:00Z");
              assertThat(restore.observedGeneration).isEqualTo(1L);
            }),
        Arguments.of("backup step says BackupFailed: set with this generation, status.backup from the step",
            new ControllerStatus(), clean(readyPod()).withBackup(new BackupStep.Outcome(backup("backup-2"),
                Optional.of(new Condition(Condition.BACKUP_FAILED, Condition.Status.True, "NoHome", "no claim")),
                Optional.empty())), (Consumer<ControllerStatus>) s -> {
              assertThat(condition(s, Condition.BACKUP_FAILED).map(c -> c.reason)).contains("NoHome");
              assertThat(condition(s, Condition.BACKUP_FAILED).map(c -> c.observedGeneration)).contains(3L);
              assertThat(s.backup.lastSuccessfulSnapshot).isEqualTo("backup-2");
            }),
        Arguments.of("backup step has nothing to say: BackupFailed removed; backups never configured: no section",
            previousWithSections(), clean(readyPod()).withBackup(new BackupStep.Outcome(null, Optional.empty(),
                Optional.empty())), (Consumer<ControllerStatus>) s -> {
              assertThat(condition(s, Condition.BACKUP_FAILED)).isEmpty();
              assertThat(s.backup).isNull();
            }),
        Arguments.of("no channel: the mite's section and conditions carry over",
            previousWithSections(), clean(readyPod()), (Consumer<ControllerStatus>) s -> {
              assertThat(s.miteStatus.connected).isTrue();
              assertThat(condition(s, Condition.MITE_CONNECTED).map(c -> c.reason)).contains("StreamActive");
              assertThat(s.phase).isEqualTo(ControllerStatus.Phase.Running);
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void aggregates(String behaviour, ControllerStatus previous, Observation seen, Consumer<ControllerStatus> expect) {
    expect.accept(ControllerStatusAggregator.aggregate(previous, seen, NOW));
  }

  @Test
  void aQueuedCommandsResultIsQueuedCommandFailedAndAPassThatKnowsNoneKeepsIt() {
    ControllerStatus rejected = ControllerStatusAggregator.aggregate(new ControllerStatus(),
        clean(readyPod()).withMite(mite(true, true).withLastCommand(Optional.of(finished(
            CommandResult.Outcome.DEADLINE_EXCEEDED, "still queued at its deadline")))), NOW);
    assertThat(condition(rejected, Condition.QUEUED_COMMAND_FAILED)).hasValueSatisfying(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.True);
      assertThat(c.reason).isEqualTo("DeadlineExceeded");
      assertThat(c.message).isEqualTo("one_shot QUIET_DOWN DEADLINE_EXCEEDED: still queued at its deadline");
    });
    assertThat(rejected.attention).as("a failed command alone needs no attention").isNull();

    ControllerStatus restarted = ControllerStatusAggregator.aggregate(rejected,
        clean(readyPod()).withMite(mite(true, true)), NOW);
    assertThat(condition(restarted, Condition.QUEUED_COMMAND_FAILED).map(c -> c.status))
        .contains(Condition.Status.True);

    ControllerStatus succeeded = ControllerStatusAggregator.aggregate(restarted, clean(readyPod()).withMite(
        mite(true, true).withLastCommand(Optional.of(finished(CommandResult.Outcome.SUCCEEDED, "")))), NOW);
    assertThat(condition(succeeded, Condition.QUEUED_COMMAND_FAILED)).hasValueSatisfying(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.False);
      assertThat(c.message).isEqualTo("one_shot QUIET_DOWN SUCCEEDED");
    });
    assertThat(condition(ControllerStatusAggregator.aggregate(new ControllerStatus(), clean(readyPod())
        .withMite(mite(true, true)), NOW), Condition.QUEUED_COMMAND_FAILED)).as("before any command").isEmpty();
  }

  private static CommandQueue.Finished finished(CommandResult.Outcome outcome, String message) {
    return new CommandQueue.Finished("one_shot QUIET_DOWN", QueuedCommandResult.newBuilder()
        .setResult(CommandResult.newBuilder().setCommandId("c-1").setOutcome(outcome).setMessage(message)).build());
  }

  @Test
  void aCellSaysWhichPinItIgnoresKeepsThatWhileBlockedAndAControllerThatIsNoCellHasNoSuchCondition() {
    dev.varroa.operator.render.CellLayer pinned = new dev.varroa.operator.render.CellLayer(java.util.List.of(),
        java.util.Map.of(), "job-dsl:1.93\n", Optional.of("a cell ignores a pin on job-dsl: ComposedBundle b (its"
        + " plugins) pins job-dsl 1.87"));
    ControllerStatus warned = ControllerStatusAggregator.aggregate(new ControllerStatus(),
        clean(readyPod()).withCell(Optional.of(pinned)), NOW);
    assertThat(condition(warned, ControllerStatusAggregator.PLUGIN_PIN_IGNORED)).hasValueSatisfying(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.True);
      assertThat(c.reason).isEqualTo("PoolOwnsPlugin");
      assertThat(c.message).startsWith("a cell ignores a pin on job-dsl: ComposedBundle b");
    });
    ControllerStatus blocked = ControllerStatusAggregator.aggregate(warned,
        Observation.of(1).blockedBy("Team ci/a: spec.pipelines[1].name ..."), NOW.plusSeconds(1));
    assertThat(condition(blocked, ControllerStatusAggregator.PLUGIN_PIN_IGNORED)).as("kept while blocked")
        .hasValueSatisfying(c -> assertThat(c.status).isEqualTo(Condition.Status.True));
    assertThat(condition(ControllerStatusAggregator.aggregate(new ControllerStatus(), clean(readyPod()), NOW),
        ControllerStatusAggregator.PLUGIN_PIN_IGNORED)).isEmpty();
  }

  @Test
  void aPassThatChangesNothingWritesNothingUntilTheStampIsTenMinutesOld() {
    ControllerStatus first = ControllerStatusAggregator.aggregate(new ControllerStatus(), clean(readyPod()), NOW);
    ControllerStatus again = ControllerStatusAggregator.aggregate(first, clean(readyPod()), NOW.plusSeconds(300));
    assertThat(StatusComparison.same(first, again)).isTrue();
    ControllerStatus later = ControllerStatusAggregator.aggregate(first, clean(readyPod()),
        NOW.plus(ControllerStatusAggregator.LAST_RECONCILED_REFRESH).plusSeconds(1));
    assertThat(later.lastReconciledAt).isEqualTo(NOW.plus(Duration.ofMinutes(10)).plusSeconds(1).toString());
  }

  @Test
  void aFailedStepIsOnReadyAndLosesNoSection() {
    ControllerStatus previous = previousWithSections();
    ControllerStatus failed = ControllerStatusAggregator.failed(previous, PassStep.APPLY.label(),
        new PassStep.Failure(PassStep.APPLY, new IllegalStateException("connection refused")), 5, false, NOW);
    assertThat(condition(failed, Condition.READY).map(c -> c.reason))
        .contains(ControllerStatusAggregator.REASON_RECONCILE_ERROR);
    assertThat(condition(failed, Condition.READY).map(c -> c.message)).contains("step apply: connection refused");
    trio(Condition.Status.False, Condition.Status.True, Condition.Status.False).accept(failed);
    assertThat(failed.home.claimName).isEqualTo("old-claim");
    assertThat(failed.backup.lastSuccessfulSnapshot).isEqualTo("backup-1");
    assertThat(failed.hibernation.lastActivityAt).isEqualTo("2026-01-01T08:00:00Z");
    assertThat(failed.miteStatus.connected).isTrue();
    assertThat(failed.phase).isEqualTo(ControllerStatus.Phase.Running);
    assertThat(failed.lastReconciledAt).isEqualTo(previous.lastReconciledAt);
    assertThat(condition(failed, Condition.BACKUP_FAILED)).isPresent();
    assertThat(condition(failed, Condition.MITE_CONNECTED)).isPresent();
  }

  @Test
  void theLastRetryStallsTheController() {
    ControllerStatus failed = ControllerStatusAggregator.failed(new ControllerStatus(), PassStep.BACKUP.label(),
        new IllegalStateException(), 1, true, NOW);
    trio(Condition.Status.False, Condition.Status.False, Condition.Status.True).accept(failed);
    assertThat(condition(failed, Condition.STALLED).map(c -> c.message))
        .contains("step backup: IllegalStateException");
  }

  @Test
  void aCleanPassAfterAFailureClearsTheError() {
    ControllerStatus failed = ControllerStatusAggregator.failed(ControllerStatusAggregator.aggregate(
        new ControllerStatus(), clean(readyPod()), NOW), "render", new RuntimeException("boom"), 3, false, NOW);
    ControllerStatus healed = ControllerStatusAggregator.aggregate(failed, clean(readyPod()), NOW.plusSeconds(5));
    assertThat(condition(healed, Condition.READY).map(c -> c.reason)).contains("Running");
    assertThat(healed.conditions.stream().filter(c -> Condition.READY.equals(c.type))).hasSize(1);
  }

  private static HomeStatus.HomeOperation restoring() {
    HomeStatus.HomeOperation restore = new HomeStatus.HomeOperation();
    restore.from = "backup-1";
    restore.step = HomeProgress.CLAIMING;
    restore.stepNumber = 3;
    restore.steps = 5;
    return restore;
  }

  private static HibernationStatus hibernation(String reason) {
    HibernationStatus status = new HibernationStatus();
    status.since = NOW.toString();
    status.reason = reason;
    return status;
  }

  private static BackupStatus backup(String last) {
    BackupStatus status = new BackupStatus();
    status.lastSuccessfulSnapshot = last;
    return status;
  }
}

package dev.varroa.operator.backup;

import dev.varroa.api.v1alpha1.BackupStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.home.HomeSnapshots;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.mite.v1.ObservedState;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The backup part of a Controller pass: starts a backup when the schedule or the varroa.dev/backup-now annotation
 * asks, then walks it through its steps across passes — QuietingDown (the mite puts Jenkins in quiet-down and the
 * running builds are waited for, bounded), Snapshotting (the VolumeSnapshot of the JENKINS_HOME claim is created),
 * WaitingReady (readyToUse or error followed; quiet-down cancelled once the driver has cut the snapshot) — and
 * deletes the successful snapshots beyond the count to keep. Everything it needs to resume after an operator
 * restart is in status.backup.
 */
public final class BackupStep {
  public static final String QUIETING_DOWN = "QuietingDown";
  public static final String SNAPSHOTTING = "Snapshotting";
  public static final String WAITING_READY = "WaitingReady";
  public static final String TRIGGER_SCHEDULE = "schedule";
  public static final String TRIGGER_ON_DEMAND = "on-demand";
  /** How often a waiting step looks again when no watched object changes (snapshot status is not watched). */
  static final Duration RECHECK = Duration.ofSeconds(5);
  /** A backup held back by a restore or a move of the home looks again this often. */
  static final Duration DEFERRED_RECHECK = Duration.ofSeconds(30);
  private static final Logger LOG = LoggerFactory.getLogger(BackupStep.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /**
   * What the pass writes: status.backup (null when backups are neither configured nor ever ran), the BackupFailed
   * condition when it has something to say, and when to look again.
   */
  public record Outcome(BackupStatus status, Optional<Condition> condition, Optional<Duration> recheck) {}

  private final KubernetesClient client;
  private final Clock clock;
  private final QuietDown quietDown;

  public BackupStep(KubernetesClient client, Clock clock, QuietDown quietDown) {
    this.client = client;
    this.clock = clock;
    this.quietDown = quietDown;
  }

  /**
   * @param observed what the mite sees of Jenkins, present while its stream is live
   * @param statefulSet the Controller's StatefulSet name (names the claim and the snapshots)
   */
  public Outcome run(Controller controller, ResolvedController.Backup settings, ControllerStatus previous,
      String statefulSet, Optional<ObservedState> observed) {
    return run(controller, settings, previous, previous.home, statefulSet, observed);
  }

  /** @param home status.home as this pass's home step decided it: a restore or a move under way holds a backup back */
  public Outcome run(Controller controller, ResolvedController.Backup settings, ControllerStatus previous,
      HomeStatus home, String statefulSet, Optional<ObservedState> observed) {
    Instant now = clock.instant();
    BackupStatus status = previous.backup == null ? new BackupStatus() : JSON.convertValue(previous.backup, BackupStatus.class);
    Optional<String> demand = annotation(controller, ControllerAnnotations.BACKUP_NOW);
    boolean configured = settings.schedule().isPresent() || demand.isPresent();
    if (!configured && previous.backup == null) {
      return new Outcome(null, Optional.empty(), Optional.empty());
    }
    Optional<Condition> condition = Optional.empty();
    Optional<BackupSchedule> schedule = Optional.empty();
    if (settings.schedule().isPresent()) {
      try {
        schedule = Optional.of(BackupSchedule.parse(settings.schedule().get()));
      } catch (BackupSchedule.InvalidSchedule e) {
        condition = Optional.of(failed("InvalidSchedule", "backup.schedule \"" + settings.schedule().get()
            + "\" of Controller " + name(controller) + " is not a schedule: " + e.getMessage() + "; fix: five cron"
            + " fields in UTC (minute hour day-of-month month day-of-week), e.g. \"30 2 * * *\", or @daily"));
      }
    }
    if (schedule.isEmpty()) {
      status.nextScheduledAt = null;
    } else if (status.nextScheduledAt == null) {
      // a schedule that was just set fires at its next time, not at once
      status.nextScheduledAt = schedule.get().nextAfter(now).map(Instant::toString).orElse(null);
    }

    Optional<Duration> recheck = Optional.empty();
    if (status.inProgress == null) {
      String trigger = null;
      if (demand.isPresent() && !demand.get().equals(status.lastOnDemandRequest)) {
        trigger = TRIGGER_ON_DEMAND;
      } else if (status.nextScheduledAt != null && !now.isBefore(Instant.parse(status.nextScheduledAt))) {
        trigger = TRIGGER_SCHEDULE;
      }
      if (trigger != null) {
        if (homeBusy(home)) {
          // a restore or a move replaces the claim: snapshot the home once it is settled
          return new Outcome(status, condition.or(() -> previousCondition(previous)), Optional.of(DEFERRED_RECHECK));
        }
        if (trigger.equals(TRIGGER_ON_DEMAND)) {
          status.lastOnDemandRequest = demand.get();
        } else {
          status.nextScheduledAt = schedule.flatMap(s -> s.nextAfter(now)).map(Instant::toString).orElse(null);
        }
        Optional<String> missing = claimMissing(controller, statefulSet);
        if (missing.isPresent()) {
          fail(status, BackupNames.snapshot(statefulSet, now), missing.get(), now);
          return new Outcome(status, Optional.of(failed("NoHome", missing.get())), Optional.empty());
        }
        BackupStatus.BackupRun run = new BackupStatus.BackupRun();
        run.snapshot = BackupNames.snapshot(statefulSet, now);
        run.step = QUIETING_DOWN;
        run.trigger = trigger;
        run.startedAt = now.toString();
        status.inProgress = run;
        LOG.info("event=backup_started controller={} snapshot={} trigger={}", name(controller), run.snapshot, trigger);
      }
    }
    if (status.inProgress != null) {
      Progress progress = advance(controller, settings, status, statefulSet, observed, now);
      if (progress.condition().isPresent()) {
        condition = progress.condition();
      }
      recheck = progress.recheck();
    }
    if (schedule.isPresent() && status.inProgress == null && status.nextScheduledAt != null) {
      // nothing watched changes when the schedule comes due: look again then
      Duration untilNext = Duration.between(now, Instant.parse(status.nextScheduledAt));
      recheck = min(recheck, Optional.of(untilNext.isNegative() ? Duration.ZERO : untilNext.plusSeconds(1)));
    }
    if (condition.isEmpty()) {
      condition = previousCondition(previous);
    }
    return new Outcome(status, condition, recheck);
  }

  private record Progress(Optional<Condition> condition, Optional<Duration> recheck) {}

  private Progress advance(Controller controller, ResolvedController.Backup settings, BackupStatus status,
      String statefulSet, Optional<ObservedState> observed, Instant now) {
    BackupStatus.BackupRun run = status.inProgress;
    ControllerIdentity id = identity(controller);
    String namespace = controller.getMetadata().getNamespace();
    if (QUIETING_DOWN.equals(run.step)) {
      boolean live = observed.isPresent() && observed.get().getJenkinsReachable();
      if (live) {
        if (run.quietedByBackup == null) {
          run.quietedByBackup = !observed.get().getQuietingDown();
          if (run.quietedByBackup) {
            quietDown.start(id);
          }
        }
        int running = observed.get().getRunningBuilds();
        Instant giveUp = Instant.parse(run.startedAt).plusSeconds(settings.quietDownTimeoutSeconds());
        // only an observation made in quiet-down counts: an older one may miss a build that started just before
        boolean notYetQuiet = !observed.get().getQuietingDown() && Boolean.TRUE.equals(run.quietedByBackup);
        if ((notYetQuiet || running > 0) && now.isBefore(giveUp)) {
          return new Progress(Optional.empty(), Optional.of(min(RECHECK, Duration.between(now, giveUp))));
        }
        run.runningBuildsAtSnapshot = running > 0 ? running : null;
      } else if (run.quietedByBackup == null) {
        // no Jenkins to quiet (stopped, parked, or the mite is away): the home is snapshotted as it is
        run.quietedByBackup = false;
      }
      run.step = SNAPSHOTTING;
    }
    if (SNAPSHOTTING.equals(run.step)) {
      try {
        VolumeSnapshot snapshot = VolumeSnapshot.of(namespace, run.snapshot, BackupNames.homeClaim(statefulSet),
            settings.volumeSnapshotClassName().orElse(null));
        snapshot.getMetadata().setLabels(labels(controller, statefulSet));
        snapshot.getMetadata().setAnnotations(Map.of(BackupNames.TRIGGER, run.trigger));
        client.resource(snapshot).create();
        LOG.info("event=backup_snapshot_created controller={} snapshot={}", name(controller), run.snapshot);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          String why = e.getCode() == 404
              ? "snapshot.storage.k8s.io/v1 VolumeSnapshot is not served by this cluster; fix: install the CSI"
                  + " external-snapshotter CRDs and snapshot controller, and a CSI driver with snapshot support"
                  + " (docs/backups.md)"
              : "creating VolumeSnapshot " + run.snapshot + " failed: " + message(e);
          return finishFailed(controller, status, why, now, false);
        }
      }
      run.step = WAITING_READY;
    }
    VolumeSnapshot snapshot = client.resources(VolumeSnapshot.class).inNamespace(namespace).withName(run.snapshot).get();
    if (snapshot == null) {
      return finishFailed(controller, status, "VolumeSnapshot " + run.snapshot + " was deleted before it became"
          + " readyToUse; fix: take another with the varroa.dev/backup-now annotation", now, false);
    }
    VolumeSnapshot.Status seen = snapshot.getStatus();
    boolean cut = seen != null && (seen.creationTime != null || Boolean.TRUE.equals(seen.readyToUse) || seen.error != null);
    if (cut && Boolean.TRUE.equals(run.quietedByBackup)) {
      // the driver has cut the snapshot: Jenkins may take builds again while it uploads
      quietDown.cancel(id);
      run.quietedByBackup = false;
    }
    if (seen != null && seen.error != null && seen.error.message != null && !Boolean.TRUE.equals(seen.readyToUse)) {
      return finishFailed(controller, status, "the CSI driver failed VolumeSnapshot " + run.snapshot + ": "
          + seen.error.message + "; fix: see kubectl describe volumesnapshot -n " + namespace + " " + run.snapshot
          + " and the CSI driver's logs, then take another with the varroa.dev/backup-now annotation", now, true);
    }
    if (!snapshot.ready()) {
      return new Progress(Optional.empty(), Optional.of(RECHECK));
    }
    status.lastSuccessfulSnapshot = run.snapshot;
    status.lastSuccessfulAt = Optional.ofNullable(seen.creationTime).orElse(now.toString());
    status.lastFailure = null;
    status.inProgress = null;
    LOG.info("event=backup_succeeded controller={} snapshot={} restore_size={}", name(controller), run.snapshot,
        seen.restoreSize);
    prune(controller, settings, status, statefulSet);
    Condition ok = new Condition(Condition.BACKUP_FAILED, Condition.Status.False, "Succeeded",
        "backup " + run.snapshot + " is readyToUse");
    return new Progress(Optional.of(ok), Optional.empty());
  }

  private Progress finishFailed(Controller controller, BackupStatus status, String why, Instant now,
      boolean deleteSnapshot) {
    BackupStatus.BackupRun run = status.inProgress;
    if (Boolean.TRUE.equals(run.quietedByBackup)) {
      quietDown.cancel(identity(controller));
    }
    if (deleteSnapshot) {
      // a failed snapshot holds no data; the message is kept in status
      client.resources(VolumeSnapshot.class).inNamespace(controller.getMetadata().getNamespace())
          .withName(run.snapshot).delete();
    }
    fail(status, run.snapshot, why, now);
    status.inProgress = null;
    LOG.warn("event=backup_failed controller={} snapshot={} reason=\"{}\"", name(controller), run.snapshot, why);
    return new Progress(Optional.of(failed("SnapshotFailed", why)), Optional.empty());
  }

  private void prune(Controller controller, ResolvedController.Backup settings, BackupStatus status, String statefulSet) {
    String namespace = controller.getMetadata().getNamespace();
    List<VolumeSnapshot> mine = client.resources(VolumeSnapshot.class).inNamespace(namespace)
        .withLabel(BackupNames.BACKUP_OF, statefulSet).list().getItems();
    List<SnapshotRetention.Taken> successful = mine.stream().filter(VolumeSnapshot::ready)
        .map(s -> new SnapshotRetention.Taken(s.getMetadata().getName(), takenAt(s))).toList();
    SnapshotRetention.Decision decision = SnapshotRetention.decide(successful, settings.keep(), inUse(controller));
    for (String name : decision.delete()) {
      client.resources(VolumeSnapshot.class).inNamespace(namespace).withName(name).delete();
      LOG.info("event=backup_pruned controller={} snapshot={} keep={}", name(controller), name, settings.keep());
    }
    status.snapshots = new java.util.ArrayList<>(decision.keep());
  }

  /** Snapshots a restore or a move of this Controller reads from, which pruning must leave alone. */
  static Set<String> inUse(Controller controller) {
    return HomeSnapshots.inUse(controller);
  }

  private static Instant takenAt(VolumeSnapshot snapshot) {
    if (snapshot.getStatus() != null && snapshot.getStatus().creationTime != null) {
      return Instant.parse(snapshot.getStatus().creationTime);
    }
    return Instant.parse(snapshot.getMetadata().getCreationTimestamp());
  }

  private Optional<String> claimMissing(Controller controller, String statefulSet) {
    String claim = BackupNames.homeClaim(statefulSet);
    PersistentVolumeClaim pvc = client.persistentVolumeClaims().inNamespace(controller.getMetadata().getNamespace())
        .withName(claim).get();
    if (pvc == null || pvc.getStatus() == null || !"Bound".equals(pvc.getStatus().getPhase())) {
      return Optional.of("Controller " + name(controller) + " has no bound JENKINS_HOME claim " + claim
          + " to back up yet; fix: wait until the controller has started once, then annotate "
          + ControllerAnnotations.BACKUP_NOW + " again");
    }
    return Optional.empty();
  }

  private static boolean homeBusy(HomeStatus home) {
    return home != null && (home.restore != null || home.move != null);
  }

  private static void fail(BackupStatus status, String snapshot, String why, Instant now) {
    BackupStatus.BackupFailure failure = new BackupStatus.BackupFailure();
    failure.snapshot = snapshot;
    failure.at = now.toString();
    failure.message = why;
    status.lastFailure = failure;
  }

  private static Condition failed(String reason, String message) {
    return new Condition(Condition.BACKUP_FAILED, Condition.Status.True, reason, message);
  }

  private static Optional<Condition> previousCondition(ControllerStatus previous) {
    return previous.condition(Condition.BACKUP_FAILED).map(c -> new Condition(c.type, c.status, c.reason, c.message));
  }

  private static Map<String, String> labels(Controller controller, String statefulSet) {
    Map<String, String> labels = new TreeMap<>(ControllerLabels.of(controller.getMetadata().getName()));
    labels.put(BackupNames.BACKUP_OF, statefulSet);
    return labels;
  }

  private static Optional<String> annotation(Controller controller, String key) {
    Map<String, String> annotations = controller.getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(key)).filter(v -> !v.isBlank());
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  private static String name(Controller controller) {
    return controller.getMetadata().getNamespace() + "/" + controller.getMetadata().getName();
  }

  private static String message(KubernetesClientException e) {
    return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static Optional<Duration> min(Optional<Duration> a, Optional<Duration> b) {
    if (a.isEmpty()) {
      return b;
    }
    return b.isEmpty() ? a : Optional.of(min(a.get(), b.get()));
  }
}

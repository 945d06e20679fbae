package dev.varroa.operator.home;

import static dev.varroa.operator.home.HomeProgress.CLAIMING;
import static dev.varroa.operator.home.HomeProgress.DRAINING;
import static dev.varroa.operator.home.HomeProgress.STARTING;
import static dev.varroa.operator.home.HomeProgress.STOPPING;
import static dev.varroa.operator.home.HomeProgress.SWAPPING;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Optional;

/**
 * Restores JENKINS_HOME from the VolumeSnapshot spec.restore names, before Jenkins starts (seed 003). A new
 * Controller gets its claim from the snapshot and its StatefulSet only once that claim is Bound. A Controller with a
 * home is drained and stopped, a claim is made from the snapshot beside the old one, and the home claim is swapped
 * onto it ({@link HomeSwap}); the old volume is kept (Retain) and listed. Each call does what the cluster shows is left.
 */
final class HomeRestore {
  static final List<String> NEW_HOME = List.of(CLAIMING, STARTING);
  static final List<String> REPLACED_HOME = List.of(DRAINING, STOPPING, CLAIMING, SWAPPING, STARTING);

  private final HomeVolumes volumes;
  private final HomeContext context;
  private final HomeSwap swap;

  HomeRestore(HomeVolumes volumes, HomeContext context) {
    this.volumes = volumes;
    this.context = context;
    this.swap = new HomeSwap(volumes, context);
  }

  HomePass advance(HomeStatus home, String snapshot) {
    String namespace = context.namespace();
    HomeNames names = context.names();
    Optional<PersistentVolumeClaim> claim = volumes.claim(namespace, names.claim());
    boolean swapping = swap.next().isPresent();
    if (!swapping && claim.isPresent() && fromSnapshot(claim.get(), snapshot)) {
      return HomeClaims.bound(claim.get()) ? restored(home, snapshot) : newHomeBinding(home, claim.get(), snapshot);
    }
    if (swapping) {
      return swapStep(home, snapshot);
    }
    Optional<VolumeSnapshot> found = volumes.snapshot(namespace, snapshot);
    Optional<String> unusable = unusable(found, snapshot);
    if (unusable.isPresent()) {
      return unusable(home, claim.isPresent(), unusable.get());
    }
    if (!found.get().ready()) {
      home.restore = null;
      deleteTarget();
      return pass(home, claim.isPresent() ? HomeWorkload.RUN : hold(), HomeSteps.condition(Condition.RESTORE_FAILED,
          false, "WaitingForSnapshot", "waiting for VolumeSnapshot " + namespace + "/" + snapshot
              + " (spec.restore.volumeSnapshotName) to be readyToUse; "
              + (claim.isPresent() ? "Jenkins keeps its current home until then" : "Jenkins starts once it is restored")),
          HomeSteps.SNAPSHOT_RECHECK);
    }
    Quantity size = HomeClaims.larger(context.persistenceSize(), restoreSize(found.get()));
    if (claim.isEmpty()) {
      volumes.create(HomeClaims.fromSnapshot(namespace, names.claim(), controllerName(), snapshot, size,
          context.resolved().persistence().storageClassName()), Optional.empty());
      HomeStatus.HomeOperation operation = operation(home, snapshot, NEW_HOME);
      HomeProgress.at(operation, NEW_HOME, CLAIMING, "claim " + names.claim() + " requested from the snapshot");
      return pass(home, hold(), HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    return replace(home, claim.get(), snapshot, size);
  }

  /** A restore whose snapshot spec.restore no longer names stops, unless its swap began (which then completes). */
  HomePass cancel(HomeStatus home, String snapshot) {
    if (swap.next().isPresent()) {
      return advance(home, snapshot);
    }
    deleteTarget();
    volumes.claim(context.namespace(), context.names().claim())
        .filter(c -> fromSnapshot(c, snapshot) && !HomeClaims.bound(c))
        .ifPresent(c -> volumes.deleteClaim(context.namespace(), c.getMetadata().getName()));
    home.restore = null;
    return pass(home, context.existing().isPresent() ? HomeWorkload.RUN : hold(), HomeSteps.condition(
        Condition.RESTORE_FAILED, false, "Cancelled", "the restore from " + snapshot
            + " stopped: spec.restore.volumeSnapshotName no longer names it"), HomeSteps.STEP_RECHECK);
  }

  /** A restore that failed is not tried again for the same snapshot; a failed swap is first rolled back. */
  HomePass failedBefore(HomeStatus home) {
    Optional<String> rollingBack = swap.rollBack(home);
    if (rollingBack.isPresent()) {
      home.restore.progress = "rolling back to the old home: " + rollingBack.get();
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    boolean hasHome = volumes.claim(context.namespace(), context.names().claim()).isPresent();
    return pass(home, hasHome ? HomeWorkload.RUN : hold(), HomeSteps.noCondition(), Optional.empty());
  }

  private HomePass replace(HomeStatus home, PersistentVolumeClaim claim, String snapshot, Quantity size) {
    String namespace = context.namespace();
    HomeNames names = context.names();
    HomeStatus.HomeOperation operation = operation(home, snapshot, REPLACED_HOME);
    Optional<Pod> pod = volumes.pod(namespace, names.pod());
    if (pod.isPresent()) {
      boolean stopping = HomeClaims.terminating(pod.get());
      HomeProgress.at(operation, REPLACED_HOME, stopping ? STOPPING : DRAINING, stopping
          ? "pod " + names.pod() + " is stopping" : "StatefulSet scaled to 0; pod " + names.pod() + " drains its builds");
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    Optional<PersistentVolumeClaim> target = volumes.claim(namespace, names.targetClaim());
    if (target.isEmpty()) {
      volumes.create(HomeClaims.fromSnapshot(namespace, names.targetClaim(), controllerName(), snapshot,
          HomeClaims.larger(size, HomeClaims.size(claim)), Optional.ofNullable(claim.getSpec().getStorageClassName())),
          Optional.of((HasMetadata) context.controller()));
      HomeProgress.at(operation, REPLACED_HOME, CLAIMING, "claim " + names.targetClaim() + " requested from the snapshot");
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    if (HomeClaims.terminating(target.get())) {
      HomeProgress.at(operation, REPLACED_HOME, CLAIMING, "an earlier claim " + names.targetClaim() + " is being deleted");
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    if (!HomeClaims.bound(target.get())) {
      Optional<String> refused = swap.refusal(target.get());
      if (refused.isPresent()) {
        deleteTarget();
        return failed(home, snapshot, "ClaimRefused", refused.get(), HomeWorkload.RUN);
      }
      HomeProgress.at(operation, REPLACED_HOME, CLAIMING, "claim " + names.targetClaim() + " waits to be Bound");
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    return swapStep(home, snapshot);
  }

  private HomePass swapStep(HomeStatus home, String snapshot) {
    HomeStatus.HomeOperation operation = operation(home, snapshot, REPLACED_HOME);
    HomeSwap.Progress progress = swap.advance(home, false, "replaced by the restore from " + snapshot,
        "snapshot/" + snapshot);
    if (progress instanceof HomeSwap.SwapFailed failed) {
      return failed(home, snapshot, "SwapFailed", failed.message(), HomeWorkload.STOPPED);
    }
    String what = progress instanceof HomeSwap.Swapping s ? s.what() : "claim " + context.names().claim() + " is Bound";
    HomeProgress.at(operation, REPLACED_HOME, SWAPPING, what);
    return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
  }

  private HomePass newHomeBinding(HomeStatus home, PersistentVolumeClaim claim, String snapshot) {
    HomeStatus.HomeOperation operation = operation(home, snapshot, NEW_HOME);
    Optional<String> refused = swap.refusal(claim);
    if (refused.isPresent()) {
      volumes.deleteClaim(context.namespace(), claim.getMetadata().getName());
      return failed(home, snapshot, "ClaimRefused", refused.get(), hold());
    }
    HomeProgress.at(operation, NEW_HOME, CLAIMING, "claim " + claim.getMetadata().getName() + " waits to be Bound");
    return pass(home, hold(), HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
  }

  /** The home claim holds the snapshot's data: start Jenkins on it; done once the StatefulSet exists. */
  private HomePass restored(HomeStatus home, String snapshot) {
    HomeStatus.HomeOperation operation = operation(home, snapshot, NEW_HOME);
    if (context.existing().isEmpty()) {
      List<String> plan = operation.steps != null && operation.steps == REPLACED_HOME.size() ? REPLACED_HOME : NEW_HOME;
      HomeProgress.at(operation, plan, STARTING, "StatefulSet " + context.names().statefulSet() + " created");
      return pass(home, HomeWorkload.RUN, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    swap.finish();
    home.restore = null;
    home.restoredFrom = snapshot;
    return pass(home, HomeWorkload.RUN, HomeSteps.condition(Condition.RESTORE_FAILED, false, "Restored",
        "JENKINS_HOME was restored from VolumeSnapshot " + context.namespace() + "/" + snapshot + " into claim "
            + context.names().claim() + " before Jenkins started"), Optional.empty());
  }

  /** A snapshot that is missing or failed: the old home stays (or nothing starts on an empty one). */
  private HomePass unusable(HomeStatus home, boolean hasHome, String message) {
    deleteTarget();
    home.restore = null;
    String fix = hasHome ? "; Jenkins keeps its current home" : "; Jenkins does not start on an empty home: remove"
        + " spec.restore to start without the snapshot";
    return pass(home, hasHome ? HomeWorkload.RUN : hold(), HomeSteps.condition(Condition.RESTORE_FAILED, true,
        "SnapshotUnusable", message + fix), HomeSteps.SNAPSHOT_RECHECK);
  }

  private HomePass failed(HomeStatus home, String snapshot, String reason, String message, HomeWorkload workload) {
    HomeStatus.HomeOperation operation = operation(home, snapshot, REPLACED_HOME);
    operation.step = HomeProgress.FAILED;
    operation.progress = message;
    String keeps = workload.mode() == HomeWorkload.Mode.RUN ? "; Jenkins keeps its old home" : "";
    return pass(home, workload, HomeSteps.condition(Condition.RESTORE_FAILED, true, reason, message + keeps
        + "; fix the cause, then remove spec.restore and set it again to retry"), HomeSteps.STEP_RECHECK);
  }

  private static Optional<String> unusable(Optional<VolumeSnapshot> snapshot, String name) {
    if (snapshot.isEmpty()) {
      return Optional.of("VolumeSnapshot " + name + " named by spec.restore.volumeSnapshotName does not exist in this"
          + " namespace; fix: create it, or name an existing one");
    }
    VolumeSnapshot.Status status = snapshot.get().getStatus();
    if (status != null && status.error != null && status.error.message != null) {
      return Optional.of("VolumeSnapshot " + name + " (spec.restore.volumeSnapshotName) failed: " + status.error.message
          + "; fix: name another snapshot");
    }
    return Optional.empty();
  }

  private static Quantity restoreSize(VolumeSnapshot snapshot) {
    return snapshot.getStatus() == null || snapshot.getStatus().restoreSize == null ? null
        : new Quantity(snapshot.getStatus().restoreSize);
  }

  private static boolean fromSnapshot(PersistentVolumeClaim claim, String snapshot) {
    return HomeClaims.source(claim).filter(("snapshot/" + snapshot)::equals).isPresent();
  }

  private void deleteTarget() {
    volumes.claim(context.namespace(), context.names().targetClaim())
        .filter(c -> !HomeClaims.terminating(c))
        .ifPresent(c -> volumes.deleteClaim(context.namespace(), c.getMetadata().getName()));
  }

  /** Without a home yet the StatefulSet must not start: withheld, or at zero when it exists (Stopped from birth). */
  private HomeWorkload hold() {
    return context.existing().isPresent() ? HomeWorkload.STOPPED : HomeWorkload.WITHHELD;
  }

  private HomeStatus.HomeOperation operation(HomeStatus home, String snapshot, List<String> plan) {
    if (home.restore == null || !snapshot.equals(home.restore.from)) {
      home.restore = new HomeStatus.HomeOperation();
      home.restore.from = snapshot;
      home.restore.to = context.names().claim();
      home.restore.method = HomeMove.METHOD_SNAPSHOT;
      home.restore.targetClaim = plan == NEW_HOME ? context.names().claim() : context.names().targetClaim();
      home.restore.startedAt = context.now().toString();
      home.restore.steps = plan.size();
    }
    return home.restore;
  }

  private String controllerName() {
    return context.controller().getMetadata().getName();
  }

  private static HomePass pass(HomeStatus home, HomeWorkload workload, List<Condition> conditions,
      Optional<java.time.Duration> recheck) {
    return new HomePass(home, workload, conditions, recheck);
  }
}

package dev.varroa.operator.home;

import static dev.varroa.operator.home.HomeProgress.CLAIMING;
import static dev.varroa.operator.home.HomeProgress.COPYING;
import static dev.varroa.operator.home.HomeProgress.DRAINING;
import static dev.varroa.operator.home.HomeProgress.STARTING;
import static dev.varroa.operator.home.HomeProgress.STOPPING;
import static dev.varroa.operator.home.HomeProgress.SWAPPING;
import static dev.varroa.operator.home.HomeProgress.VERIFYING;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import dev.varroa.operator.snapshot.VolumeSnapshotClass;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Moves JENKINS_HOME to the storage class persistence.storageClassName names, once varroa.dev/confirm-home-move
 * confirms it (seed 004): Draining, Stopping, Claiming, Copying (an rsync Job, or a CSI snapshot restored into the
 * target class when both classes share a driver that has a VolumeSnapshotClass), Verifying (a check Job), Swapping
 * ({@link HomeSwap}) and Starting. Before the swap, removing the annotation or setting the class back aborts; an abort
 * or a failure leaves the old home as it was and Jenkins running on it. Each call does what the cluster shows is left.
 */
final class HomeMove {
  static final String METHOD_RSYNC = "rsync";
  static final String METHOD_SNAPSHOT = "snapshot";
  static final List<String> PLAN = List.of(DRAINING, STOPPING, CLAIMING, COPYING, VERIFYING, SWAPPING, STARTING);

  private final HomeVolumes volumes;
  private final HomeCopyJobs jobs;
  private final HomeContext context;
  private final HomeCopySettings settings;
  private final HomeSwap swap;

  HomeMove(HomeVolumes volumes, HomeCopyJobs jobs, HomeContext context, HomeCopySettings settings) {
    this.volumes = volumes;
    this.jobs = jobs;
    this.context = context;
    this.settings = settings;
    this.swap = new HomeSwap(volumes, context);
  }

  /** No move under way: start one when the class changed and the move is confirmed. */
  HomePass consider(HomeStatus home) {
    Optional<String> wanted = context.desiredClass();
    if (HomeProgress.failed(home.move)) {
      boolean stillAsked = wanted.equals(Optional.of(home.move.to)) && wanted.equals(context.confirmation());
      if (stillAsked || context.existing().isEmpty()) {
        // not retried until the user asks again; a StatefulSet the swap removed comes back on the old home's class
        return pass(home, onOldHome(home.move), HomeSteps.noCondition(),
            context.existing().isEmpty() ? HomeSteps.STEP_RECHECK : Optional.empty());
      }
      // asked otherwise (annotation removed, class changed): HomeMoveFailed keeps saying how the last move ended
      home.move = null;
    }
    boolean changed = context.existing().isPresent() && wanted.isPresent()
        && !wanted.equals(context.existingClass());
    if (!changed || !wanted.equals(context.confirmation())) {
      // an unconfirmed change is refused by the apply step with how to confirm it (PersistenceResize)
      return pass(home, HomeWorkload.RUN, HomeSteps.noCondition(), Optional.empty());
    }
    HomePass begun = advance(home);
    if (!begun.conditions().isEmpty() || !HomeProgress.active(home.move)) {
      return begun;
    }
    return pass(begun.home(), begun.workload(), HomeSteps.condition(Condition.HOME_MOVE_FAILED, false, "Moving",
        "JENKINS_HOME is moving to storage class " + home.move.to + "; see status.home.move"), begun.recheck());
  }

  /** A failed swap is rolled back first; then the failed move stays as it is until the user asks again. */
  HomePass failedBefore(HomeStatus home) {
    Optional<String> rollingBack = swap.rollBack(home);
    if (rollingBack.isPresent()) {
      home.move.progress = "rolling back to the old home: " + rollingBack.get();
      return pass(home, HomeWorkload.WITHHELD, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    return consider(home);
  }

  HomePass advance(HomeStatus home) {
    String namespace = context.namespace();
    HomeNames names = context.names();
    Optional<PersistentVolumeClaim> claim = volumes.claim(namespace, names.claim());
    HomeStatus.HomeOperation move = operation(home, claim);
    boolean swapping = swap.next().isPresent();
    if (!swapping && claim.isPresent() && HomeClaims.bound(claim.get())
        && move.to.equals(claim.get().getSpec().getStorageClassName())) {
      return starting(home, move);
    }
    if (swapping) {
      return swapStep(home, move);
    }
    Optional<String> withdrawn = withdrawn(move);
    if (withdrawn.isPresent()) {
      return rollBack(home, move, "Aborted", "the move to storage class " + move.to + " was aborted at step "
          + move.stepNumber + " (" + move.step + "): " + withdrawn.get());
    }
    Optional<Pod> pod = volumes.pod(namespace, names.pod());
    if (pod.isPresent()) {
      boolean stopping = HomeClaims.terminating(pod.get());
      at(move, stopping ? STOPPING : DRAINING, stopping ? "pod " + names.pod() + " is stopping"
          : "StatefulSet scaled to 0; pod " + names.pod() + " drains its builds");
      return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    if (claim.isEmpty() || !HomeClaims.bound(claim.get())) {
      return rollBack(home, move, "HomeMissing", "claim " + namespace + "/" + names.claim()
          + " that holds JENKINS_HOME is missing or not Bound");
    }
    Optional<StorageClass> targetClass = volumes.storageClass(move.to);
    if (targetClass.isEmpty()) {
      return rollBack(home, move, "StorageClassMissing", "StorageClass " + move.to
          + " named by persistence.storageClassName does not exist; fix: create it, or set the field back to "
          + move.from);
    }
    if (move.method == null) {
      move.method = method(claim.get(), targetClass.get()).isPresent() ? METHOD_SNAPSHOT : METHOD_RSYNC;
    }
    Quantity size = HomeClaims.larger(context.persistenceSize(), HomeClaims.size(claim.get()));
    return METHOD_SNAPSHOT.equals(move.method)
        ? throughSnapshot(home, move, claim.get(), targetClass.get(), size)
        : throughRsync(home, move, size);
  }

  private HomePass throughRsync(HomeStatus home, HomeStatus.HomeOperation move, Quantity size) {
    HomeNames names = context.names();
    Optional<PersistentVolumeClaim> target = volumes.claim(context.namespace(), names.targetClaim());
    if (target.isEmpty()) {
      volumes.create(HomeClaims.empty(context.namespace(), names.targetClaim(), controllerName(), size, move.to),
          Optional.of((HasMetadata) context.controller()));
      at(move, CLAIMING, "claim " + names.targetClaim() + " requested in storage class " + move.to);
      return stopped(home);
    }
    Optional<HomePass> claiming = claiming(home, move, target.get());
    if (claiming.isPresent()) {
      return claiming.get();
    }
    HomeCopyJobs.Result copied = jobs.run(HomeCopyJobRenderer.render(job(names.copyJob(), HomeCopyScript.Command.COPY)),
        context.controller());
    if (copied instanceof HomeCopyJobs.Failed failed) {
      return rollBack(home, move, "CopyFailed", "the copy Job " + names.copyJob() + " failed: " + failed.message()
          + "; read its log: kubectl logs -n " + context.namespace() + " job/" + names.copyJob());
    }
    if (copied instanceof HomeCopyJobs.Running running) {
      at(move, COPYING, "copy Job " + names.copyJob() + " running since " + running.since());
      return stopped(home);
    }
    return verify(home, move, ((HomeCopyJobs.Succeeded) copied).report());
  }

  private HomePass throughSnapshot(HomeStatus home, HomeStatus.HomeOperation move, PersistentVolumeClaim claim,
      StorageClass targetClass, Quantity size) {
    HomeNames names = context.names();
    Optional<VolumeSnapshot> snapshot = volumes.snapshot(context.namespace(), names.moveSnapshot());
    if (snapshot.isEmpty()) {
      Optional<VolumeSnapshotClass> snapshotClass = method(claim, targetClass);
      if (snapshotClass.isEmpty()) {
        return rollBack(home, move, "SnapshotClassMissing", "no VolumeSnapshotClass for the driver "
            + targetClass.getProvisioner() + " any more");
      }
      volumes.create(VolumeSnapshot.of(context.namespace(), names.moveSnapshot(), names.claim(),
          snapshotClass.get().getMetadata().getName()), Optional.of((HasMetadata) context.controller()));
      at(move, CLAIMING, "VolumeSnapshot " + names.moveSnapshot() + " of claim " + names.claim() + " requested");
      return stopped(home);
    }
    VolumeSnapshot.Status status = snapshot.get().getStatus();
    if (status != null && status.error != null && status.error.message != null) {
      return rollBack(home, move, "SnapshotFailed", "VolumeSnapshot " + names.moveSnapshot() + " of the old home failed: "
          + status.error.message);
    }
    if (!snapshot.get().ready()) {
      at(move, CLAIMING, "VolumeSnapshot " + names.moveSnapshot() + " is not readyToUse yet");
      return stopped(home);
    }
    Optional<PersistentVolumeClaim> target = volumes.claim(context.namespace(), names.targetClaim());
    if (target.isEmpty()) {
      Quantity restoreSize = status.restoreSize == null ? null : new Quantity(status.restoreSize);
      volumes.create(HomeClaims.fromSnapshot(context.namespace(), names.targetClaim(), controllerName(),
          names.moveSnapshot(), HomeClaims.larger(size, restoreSize), Optional.of(move.to)),
          Optional.of((HasMetadata) context.controller()));
      at(move, COPYING, "claim " + names.targetClaim() + " requested from VolumeSnapshot " + names.moveSnapshot());
      return stopped(home);
    }
    Optional<HomePass> claiming = claiming(home, move, target.get());
    if (claiming.isPresent()) {
      at(move, COPYING, move.progress);
      return claiming.get();
    }
    return verify(home, move, "claim " + names.targetClaim() + " restored from VolumeSnapshot " + names.moveSnapshot());
  }

  /** Present while the target claim is not usable yet, or when its class refused it. */
  private Optional<HomePass> claiming(HomeStatus home, HomeStatus.HomeOperation move, PersistentVolumeClaim target) {
    String name = target.getMetadata().getName();
    if (HomeClaims.terminating(target)) {
      at(move, CLAIMING, "an earlier claim " + name + " is being deleted");
      return Optional.of(stopped(home));
    }
    if (HomeClaims.bound(target)) {
      return Optional.empty();
    }
    Optional<String> refused = swap.refusal(target);
    if (refused.isPresent()) {
      return Optional.of(rollBack(home, move, "ClaimRefused", refused.get()));
    }
    boolean firstConsumer = METHOD_RSYNC.equals(move.method) && volumes.storageClass(move.to)
        .map(c -> "WaitForFirstConsumer".equals(c.getVolumeBindingMode())).orElse(false);
    if (firstConsumer) {
      // the copy Job's pod is the first consumer: the class binds the claim when it is scheduled
      return Optional.empty();
    }
    at(move, CLAIMING, "claim " + name + " waits to be Bound in storage class " + move.to);
    return Optional.of(stopped(home));
  }

  private HomePass verify(HomeStatus home, HomeStatus.HomeOperation move, String copied) {
    HomeNames names = context.names();
    HomeCopyJobs.Result checked = jobs.run(HomeCopyJobRenderer.render(job(names.checkJob(),
        HomeCopyScript.Command.VERIFY)), context.controller());
    if (checked instanceof HomeCopyJobs.Failed failed) {
      return rollBack(home, move, "VerifyFailed", "the check Job " + names.checkJob() + " found the copy differs: "
          + failed.message());
    }
    if (checked instanceof HomeCopyJobs.Running) {
      at(move, VERIFYING, copied + "; check Job " + names.checkJob() + " compares both homes");
      return stopped(home);
    }
    move.progress = ((HomeCopyJobs.Succeeded) checked).report();
    return swapStep(home, move);
  }

  private HomePass swapStep(HomeStatus home, HomeStatus.HomeOperation move) {
    jobs.delete(context.namespace(), context.names().copyJob());
    jobs.delete(context.namespace(), context.names().checkJob());
    HomeSwap.Progress progress = swap.advance(home, true, "replaced by the move to storage class " + move.to,
        "move/" + move.from);
    if (progress instanceof HomeSwap.SwapFailed failed) {
      move.step = HomeProgress.FAILED;
      move.progress = "rolling back to the old home: " + failed.message();
      return pass(home, HomeWorkload.WITHHELD, HomeSteps.condition(Condition.HOME_MOVE_FAILED, true, "SwapFailed",
          failed.message() + "; the home claim goes back to the old volume and Jenkins starts on it; fix the cause,"
              + " then remove the " + ControllerAnnotations.CONFIRM_HOME_MOVE + " annotation and set it again to retry"),
          HomeSteps.STEP_RECHECK);
    }
    String what = progress instanceof HomeSwap.Swapping s ? s.what()
        : "claim " + context.names().claim() + " is Bound to the new volume";
    at(move, SWAPPING, what);
    move.abort = "past the point of abort: the swap completes";
    return pass(home, HomeWorkload.WITHHELD, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
  }

  /** The home claim is on the target class: the StatefulSet is re-created with it; done once it exists. */
  private HomePass starting(HomeStatus home, HomeStatus.HomeOperation move) {
    if (context.existing().isEmpty() || !context.existingClass().equals(Optional.of(move.to))) {
      at(move, STARTING, "StatefulSet " + context.names().statefulSet() + " created with storage class " + move.to);
      move.abort = "past the point of abort: the move is done";
      return pass(home, HomeWorkload.RUN, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
    }
    swap.finish();
    volumes.deleteSnapshot(context.namespace(), context.names().moveSnapshot());
    String from = move.from;
    home.move = null;
    return pass(home, HomeWorkload.RUN, HomeSteps.condition(Condition.HOME_MOVE_FAILED, false, "Moved",
        "JENKINS_HOME moved from storage class " + from + " to " + context.existingClass().orElse("") + "; the old"
            + " volume is kept (Retain), see status.home.retainedVolumes"), Optional.empty());
  }

  /** Before the swap: the Jobs, the target claim and the snapshot go; Jenkins starts again on the old home. */
  private HomePass rollBack(HomeStatus home, HomeStatus.HomeOperation move, String reason, String message) {
    jobs.delete(context.namespace(), context.names().copyJob());
    jobs.delete(context.namespace(), context.names().checkJob());
    volumes.claim(context.namespace(), context.names().targetClaim()).filter(c -> !HomeClaims.terminating(c))
        .ifPresent(c -> volumes.deleteClaim(context.namespace(), c.getMetadata().getName()));
    if (METHOD_SNAPSHOT.equals(move.method)) {
      volumes.deleteSnapshot(context.namespace(), context.names().moveSnapshot());
    }
    move.step = HomeProgress.FAILED;
    move.progress = message;
    move.abort = null;
    String retry = "Aborted".equals(reason)
        ? "set the " + ControllerAnnotations.CONFIRM_HOME_MOVE + " annotation to " + move.to + " to move again"
        : "fix the cause, then remove the " + ControllerAnnotations.CONFIRM_HOME_MOVE + " annotation and set it again"
            + " to retry";
    return pass(home, onOldHome(move), HomeSteps.condition(Condition.HOME_MOVE_FAILED, true, reason, message
        + "; JENKINS_HOME stays on storage class " + move.from + ", untouched, and Jenkins starts on it; " + retry
        + ", or set persistence.storageClassName back to " + move.from), Optional.empty());
  }

  /** Why the move is no longer asked for, if it is not. */
  private Optional<String> withdrawn(HomeStatus.HomeOperation move) {
    if (!context.desiredClass().equals(Optional.of(move.to))) {
      return Optional.of("persistence.storageClassName is now " + context.desiredClass().orElse("(default)"));
    }
    if (!context.confirmation().equals(Optional.of(move.to))) {
      return Optional.of("the " + ControllerAnnotations.CONFIRM_HOME_MOVE + " annotation was removed or changed");
    }
    return Optional.empty();
  }

  /** The VolumeSnapshotClass that makes the snapshot method possible: both volumes on the same CSI driver. */
  private Optional<VolumeSnapshotClass> method(PersistentVolumeClaim claim, StorageClass target) {
    Optional<String> driver = volumes.volume(claim.getSpec().getVolumeName())
        .map(PersistentVolume::getSpec).map(s -> s.getCsi() == null ? null : s.getCsi().getDriver());
    if (driver.isEmpty() || !driver.get().equals(target.getProvisioner())) {
      return Optional.empty();
    }
    return volumes.snapshotClass(driver.get());
  }

  private HomeStatus.HomeOperation operation(HomeStatus home, Optional<PersistentVolumeClaim> claim) {
    if (home.move == null) {
      home.move = new HomeStatus.HomeOperation();
      home.move.from = claim.map(c -> c.getSpec().getStorageClassName())
          .or(context::existingClass).orElse("(default)");
      home.move.to = context.desiredClass().orElseThrow();
      home.move.targetClaim = context.names().targetClaim();
      home.move.startedAt = context.now().toString();
      home.move.steps = PLAN.size();
    }
    if (!Objects.equals(home.move.step, SWAPPING) && !Objects.equals(home.move.step, STARTING)) {
      home.move.abort = "remove the " + ControllerAnnotations.CONFIRM_HOME_MOVE + " annotation, or set"
          + " persistence.storageClassName back to " + home.move.from + "; possible until the Swapping step";
    }
    return home.move;
  }

  private HomeCopyJobRenderer.HomeCopyJob job(String name, HomeCopyScript.Command command) {
    return new HomeCopyJobRenderer.HomeCopyJob(context.namespace(), name, controllerName(), command,
        context.names().claim(), context.names().targetClaim(), settings.image());
  }

  private void at(HomeStatus.HomeOperation move, String step, String progress) {
    HomeProgress.at(move, PLAN, step, progress);
    move.job = COPYING.equals(step) && METHOD_RSYNC.equals(move.method) ? context.names().copyJob()
        : VERIFYING.equals(step) ? context.names().checkJob() : move.job;
  }

  private HomePass stopped(HomeStatus home) {
    return pass(home, HomeWorkload.STOPPED, HomeSteps.noCondition(), HomeSteps.STEP_RECHECK);
  }

  private static HomeWorkload onOldHome(HomeStatus.HomeOperation move) {
    return new HomeWorkload(HomeWorkload.Mode.RUN_ON_OLD_HOME,
        "(default)".equals(move.from) ? Optional.empty() : Optional.ofNullable(move.from));
  }

  private String controllerName() {
    return context.controller().getMetadata().getName();
  }

  private static HomePass pass(HomeStatus home, HomeWorkload workload, List<Condition> conditions,
      Optional<java.time.Duration> recheck) {
    return new HomePass(home, workload, conditions, recheck);
  }
}

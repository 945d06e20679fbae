package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.backup.BackupStep;
import dev.varroa.operator.channel.CommandQueue;
import dev.varroa.operator.hibernation.Hibernator;
import dev.varroa.operator.home.HomePass;
import dev.varroa.operator.home.HomeProgress;
import dev.varroa.operator.render.CellLayer;
import dev.varroa.operator.render.RestartHash;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The one writer of a Controller's status: turns what a pass observed (one outcome per step, collected in an
 * {@link Observation}) and the previous status into the new status. Derives the phase, the attention signals in seed
 * 001's precedence and Ready/Reconciling/Stalled from what the cluster shows; takes status.home, status.backup and
 * status.hibernation and their conditions from their steps' outcomes, and carries each over when its step did not run.
 */
final class ControllerStatusAggregator {
  /** A pass that changes nothing else still refreshes lastReconciledAt once this old, so a resync writes nothing. */
  static final Duration LAST_RECONCILED_REFRESH = Duration.ofMinutes(10);
  static final String JENKINS_CONTAINER = "jenkins";
  static final String PLUGINS_CONTAINER = "plugins";
  /** A cell's warning that it ignores another layer's pin on a plugin the pool owns (seed 001: job-dsl). */
  public static final String PLUGIN_PIN_IGNORED = "PluginPinIgnored";
  /** Ready's reason while a pass fails with an unexpected error (docs/controllers.md). */
  static final String REASON_RECONCILE_ERROR = "ReconcileError";
  /** Longest error text a condition message carries; a stack of causes can be far longer. */
  static final int ERROR_MESSAGE_LIMIT = 1024;
  /** Waiting reasons that mean the Jenkins container cannot start. */
  private static final List<String> BOOT_FAILURES = List.of(
      "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError", "InvalidImageName");

  private ControllerStatusAggregator() {}

  /**
   * What the render and apply steps leave for status: the identity of the workload and what the cluster shows of it.
   *
   * @param bundle the ComposedBundle in force, or varroa-starter
   * @param statefulSet the StatefulSet the informer holds after the apply, null before it exists
   * @param pod pod 0 the informer holds, null before it exists
   */
  record Workload(String bundle, String statefulSetName, String url, boolean stopped, StatefulSet statefulSet,
      Pod pod) {}

  /**
   * What one pass learned, one outcome per step. A step that did not run (an earlier step stopped the pass) is empty,
   * and the part of status it decides carries over.
   *
   * @param waitingForBundle inputs: the ComposedBundle whose render the pass waits for
   * @param blocked inputs, apply or delivery: why the pass stopped, with the fix
   * @param hibernated hibernation plan: the inactivity policy parks the controller (docs/hibernation.md)
   * @param home home step: status.home and the RestoreFailed/HomeMoveFailed conditions it sets
   * @param workload render and apply: what the workload is and what the cluster shows
   * @param mite delivery: the mite as the gateways report it; null without a control channel
   * @param hibernation hibernation completion: status.hibernation
   * @param backup backup step: status.backup and BackupFailed
   * @param cell inputs: a cell's generated layer; empty for a Controller that is no cell or a pass blocked before it
   */
  record Observation(long generation, Optional<String> waitingForBundle, Optional<String> blocked, boolean hibernated,
      Optional<HomePass> home, Optional<Workload> workload, MiteObservation mite,
      Optional<Hibernator.Outcome> hibernation, Optional<BackupStep.Outcome> backup, Optional<CellLayer> cell) {
    /** A pass that has observed nothing yet. */
    static Observation of(long generation) {
      return new Observation(generation, Optional.empty(), Optional.empty(), false, Optional.empty(), Optional.empty(),
          null, Optional.empty(), Optional.empty(), Optional.empty());
    }

    Observation waitingFor(String bundle) {
      return new Observation(generation, Optional.of(bundle), blocked, hibernated, home, workload, mite, hibernation,
          backup, cell);
    }

    Observation blockedBy(String message) {
      return new Observation(generation, waitingForBundle, Optional.of(message), hibernated, home, workload, mite,
          hibernation, backup, cell);
    }

    Observation parked(boolean parked) {
      return new Observation(generation, waitingForBundle, blocked, parked, home, workload, mite, hibernation, backup,
          cell);
    }

    Observation withHome(HomePass pass) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, Optional.of(pass), workload, mite,
          hibernation, backup, cell);
    }

    Observation withWorkload(Workload seen) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, home, Optional.of(seen), mite,
          hibernation, backup, cell);
    }

    Observation withMite(MiteObservation seen) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, home, workload, seen, hibernation,
          backup, cell);
    }

    Observation withHibernation(Hibernator.Outcome outcome) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, home, workload, mite,
          Optional.of(outcome), backup, cell);
    }

    /** inputs: a cell's generated layer, whose ignored pin status reports (PluginPinIgnored) */
    Observation withCell(Optional<CellLayer> layer) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, home, workload, mite, hibernation,
          backup, layer);
    }

    Observation withBackup(BackupStep.Outcome outcome) {
      return new Observation(generation, waitingForBundle, blocked, hibernated, home, workload, mite, hibernation,
          Optional.of(outcome), cell);
    }
  }

  /**
   * What the gateways report of the mite, and the last desired-state result.
   *
   * @param status miteStatus as it should read (connected false when no live stream)
   * @param degradedReason present when the holding gateway cannot use the bus for this stream
   * @param lastApply the newest result of a desired-state push, if one finished since the operator started
   */
  record MiteObservation(ControllerStatus.MiteStatus status, Optional<String> degradedReason,
      Optional<ControllerStatus.ApplyResult> lastApply, Optional<CommandQueue.Finished> lastCommand) {
    MiteObservation(ControllerStatus.MiteStatus status, Optional<String> degradedReason,
        Optional<ControllerStatus.ApplyResult> lastApply) {
      this(status, degradedReason, lastApply, Optional.empty());
    }

    /** With the last one-shot command queued for the mite that finished, known while this operator runs. */
    MiteObservation withLastCommand(Optional<CommandQueue.Finished> finished) {
      return new MiteObservation(status, degradedReason, lastApply, finished);
    }

    boolean connected() {
      return Boolean.TRUE.equals(status.connected);
    }
  }

  static ControllerStatus aggregate(ControllerStatus previous, Observation seen, Instant now) {
    if (seen.waitingForBundle().isPresent()) {
      // the bundle's render ConfigMap is watched: its arrival starts the next pass, which says the rest
      ControllerStatus status = StatusComparison.copy(previous);
      status.phase = previous.phase == null ? ControllerStatus.Phase.Pending : previous.phase;
      status.bundle = seen.waitingForBundle().get();
      status.observedGeneration = seen.generation();
      return status;
    }
    // a blocked pass reports the workload as the last clean pass saw it
    Workload workload = seen.blocked().isPresent() ? null : seen.workload().orElse(null);
    Pod pod = workload == null ? null : workload.pod();
    ControllerStatus status = new ControllerStatus();
    status.observedGeneration = seen.generation();
    status.bundle = workload == null ? previous.bundle : workload.bundle();
    status.statefulSetName = workload == null ? previous.statefulSetName : workload.statefulSetName();
    status.url = workload == null ? previous.url : workload.url();
    status.home = seen.home().isPresent() ? seen.home().get().home() : previous.home;
    status.backup = seen.backup().isPresent() ? seen.backup().get().status() : previous.backup;
    status.hibernation = seen.hibernation().isPresent() ? seen.hibernation().get().status() : previous.hibernation;
    status.miteStatus = seen.mite() == null ? previous.miteStatus : seen.mite().status();
    status.lastApplyResult = seen.mite() == null ? previous.lastApplyResult
        : seen.mite().lastApply().orElse(previous.lastApplyResult);
    Conditions conditions = new Conditions(previous.conditions, seen.generation(), now.toString());

    Optional<String> bootFailure = pod == null ? Optional.empty() : bootFailure(pod);
    Optional<String> pluginFailure = pod == null ? Optional.empty() : pluginFailure(pod);
    boolean podFailed = pod != null && pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase());
    // a restore or a move of JENKINS_HOME under way: Provisioning, and Reconciling names its step
    Optional<String> homeStep = HomeProgress.underWay(status.home);
    status.phase = homeStep.isPresent() && !podFailed && seen.blocked().isEmpty() ? ControllerStatus.Phase.Provisioning
        : phase(previous, seen, workload, podFailed);
    if (seen.mite() != null) {
      mite(conditions, previous, seen.mite(), seen.hibernated());
    }

    if (podFailed) {
      conditions.set("Failed", Condition.Status.True, "PodFailed",
          "pod " + pod.getMetadata().getName() + " failed: " + Objects.toString(pod.getStatus().getMessage(), "no message"));
    }
    seen.blocked().ifPresentOrElse(
        message -> conditions.set(Condition.RECONCILE_BLOCKED, Condition.Status.True, "Blocked", message),
        () -> conditions.set(Condition.RECONCILE_BLOCKED, Condition.Status.False, "Resolved", "nothing blocks reconciliation"));
    bootFailure.ifPresentOrElse(
        message -> conditions.set(Condition.JENKINS_BOOT_FAILED, Condition.Status.True, "ContainerFailing", message),
        () -> conditions.set(Condition.JENKINS_BOOT_FAILED, Condition.Status.False, "NoFailure", "the Jenkins container is not failing"));
    pluginFailure.ifPresentOrElse(
        message -> conditions.set(Condition.PLUGIN_ROLL_FAILED, Condition.Status.True, "PluginsInitFailed", message),
        () -> conditions.set(Condition.PLUGIN_ROLL_FAILED, Condition.Status.False, "NoFailure", "the plugins step is not failing"));

    status.attention = attention(status, seen.mite() == null ? previous.conditions : conditions.build(), podFailed,
        seen.blocked(), bootFailure, pluginFailure);
    boolean settled = status.phase == ControllerStatus.Phase.Running || status.phase == ControllerStatus.Phase.Connected
        || status.phase == ControllerStatus.Phase.Stopped || status.phase == ControllerStatus.Phase.Hibernated;
    String attentionReason = status.attention == null ? null : status.attention.replace(" ", "");
    Kstatus state = status.attention != null ? Kstatus.STALLED : settled ? Kstatus.READY : Kstatus.RECONCILING;
    conditions.kstatus(state,
        new Kstatus.Wording(status.attention == null ? status.phase.name() : attentionReason,
            status.attention == null ? "phase " + status.phase : status.attention + ": see the conditions"),
        new Kstatus.Wording(status.phase.name(), homeStep.orElse("phase " + status.phase)),
        new Kstatus.Wording(status.attention == null ? "NoAttention" : attentionReason,
            status.attention == null ? "nothing needs attention" : status.attention));
    List<Condition> all = new ArrayList<>(conditions.build());
    all.addAll(homeConditions(previous, seen, now));
    if (seen.mite() == null && previous.conditions != null) {
      // without a control channel this pass keeps the mite's conditions as they are
      previous.conditions.stream().filter(c -> Condition.MITE_CONNECTED.equals(c.type)
          || Condition.MITE_STREAM_DEGRADED.equals(c.type)).forEach(all::add);
    }
    if ((seen.mite() == null || seen.mite().lastCommand().isEmpty()) && previous.conditions != null) {
      previous.conditions.stream().filter(c -> Condition.QUEUED_COMMAND_FAILED.equals(c.type)).forEach(all::add);
    }
    all.addAll(backupConditions(previous, seen, now));
    all.addAll(cellConditions(previous, seen, now));
    status.conditions = all;

    // A blocked pass ends in an error: its stamp stays where the last clean pass left it.
    status.lastReconciledAt = previous.lastReconciledAt;
    if (seen.blocked().isEmpty()) {
      ControllerStatus unstamped = withStamp(status, previous.lastReconciledAt);
      boolean otherwiseSame = StatusComparison.same(unstamped, previous);
      boolean stale = previous.lastReconciledAt == null
          || Instant.parse(previous.lastReconciledAt).plus(LAST_RECONCILED_REFRESH).isBefore(now);
      if (!otherwiseSame || stale) {
        status.lastReconciledAt = now.toString();
      }
    }
    return status;
  }

  /**
   * The previous status with a pass's unexpected failure on Ready/Reconciling/Stalled: every section the steps wrote
   * (home, backup, hibernation, miteStatus...) stays as it was, and so does lastReconciledAt.
   *
   * @param step the step that failed, as {@link PassStep} names it
   * @param lastAttempt the framework gives up retrying after this one: Stalled until an event or a resync
   */
  static ControllerStatus failed(ControllerStatus previous, String step, Throwable error, long generation,
      boolean lastAttempt, Instant now) {
    ControllerStatus status = StatusComparison.copy(previous);
    String message = "step " + step + ": " + describe(error);
    Kstatus.Wording failure = new Kstatus.Wording(REASON_RECONCILE_ERROR, message);
    List<Condition> trio = new Conditions(previous.conditions, generation, now.toString())
        .kstatus(lastAttempt ? Kstatus.STALLED : Kstatus.RECONCILING, failure, new Kstatus.Wording(
            REASON_RECONCILE_ERROR, lastAttempt ? "retries exhausted; the next change or resync starts a new pass"
                : "retrying with backoff"), failure).build();
    List<Condition> all = new ArrayList<>();
    if (previous.conditions != null) {
      previous.conditions.stream().filter(c -> trio.stream().noneMatch(t -> t.type.equals(c.type))).forEach(all::add);
    }
    all.addAll(trio);
    status.conditions = all;
    return status;
  }

  private static String describe(Throwable error) {
    Throwable cause = error instanceof PassStep.Failure failure ? failure.getCause() : error;
    String text = cause.getMessage() == null || cause.getMessage().isBlank() ? cause.getClass().getSimpleName()
        : cause.getMessage();
    return text.length() > ERROR_MESSAGE_LIMIT ? text.substring(0, ERROR_MESSAGE_LIMIT) + "..." : text;
  }

  /**
   * RestoreFailed and HomeMoveFailed: as the home step set them this pass (a condition keeps its lastTransitionTime
   * while its status stays), the others as they were.
   */
  private static List<Condition> homeConditions(ControllerStatus previous, Observation seen, Instant now) {
    List<Condition> set = seen.home().map(HomePass::conditions).orElse(List.of()).stream()
        .filter(c -> HomeProgress.CONDITIONS.contains(c.type)).toList();
    List<Condition> all = new ArrayList<>(HomeProgress.carried(previous.conditions).stream()
        .filter(c -> set.stream().noneMatch(n -> n.type.equals(c.type))).toList());
    Conditions changed = new Conditions(previous.conditions, seen.generation(), now.toString());
    set.forEach(c -> changed.set(c.type, c.status, c.reason, c.message));
    all.addAll(changed.build());
    return all;
  }

  /** BackupFailed as the backup step says this pass (absent: removed), or as it was when the step did not run. */
  private static List<Condition> backupConditions(ControllerStatus previous, Observation seen, Instant now) {
    if (seen.backup().isEmpty()) {
      return previous.conditions == null ? List.of()
          : previous.conditions.stream().filter(c -> Condition.BACKUP_FAILED.equals(c.type)).toList();
    }
    return seen.backup().get().condition().map(c -> new Conditions(previous.conditions, seen.generation(),
        now.toString()).set(Condition.BACKUP_FAILED, c.status, c.reason, c.message).build()).orElse(List.of());
  }

  /**
   * PluginPinIgnored, for a cell only: True naming the layer whose pin on a pool plugin the cell ignores, False when
   * none does; as it was when the pass stopped before the cell's layer resolved.
   */
  private static List<Condition> cellConditions(ControllerStatus previous, Observation seen, Instant now) {
    if (seen.cell().isEmpty()) {
      return seen.blocked().isEmpty() || previous.conditions == null ? List.of()
          : previous.conditions.stream().filter(c -> PLUGIN_PIN_IGNORED.equals(c.type)).toList();
    }
    Optional<String> ignored = seen.cell().get().ignoredPin();
    return new Conditions(previous.conditions, seen.generation(), now.toString()).set(PLUGIN_PIN_IGNORED,
        ignored.isPresent() ? Condition.Status.True : Condition.Status.False,
        ignored.isPresent() ? "PoolOwnsPlugin" : "NoPinIgnored",
        ignored.orElse("no layer pins a plugin the pool owns")).build();
  }

  private static ControllerStatus withStamp(ControllerStatus status, String stamp) {
    ControllerStatus copy = StatusComparison.copy(status);
    copy.lastReconciledAt = stamp;
    return copy;
  }

  private static ControllerStatus.Phase phase(ControllerStatus previous, Observation seen, Workload workload,
      boolean podFailed) {
    if (podFailed) {
      return ControllerStatus.Phase.Failed;
    }
    if (seen.blocked().isPresent()) {
      return previous.phase == null ? ControllerStatus.Phase.Pending : previous.phase;
    }
    if (workload != null && workload.stopped()) {
      return ControllerStatus.Phase.Stopped;
    }
    if (seen.hibernated()) {
      return ControllerStatus.Phase.Hibernated;
    }
    if (workload == null || workload.statefulSet() == null || workload.pod() == null) {
      return ControllerStatus.Phase.Provisioning;
    }
    Pod pod = workload.pod();
    String wanted = annotation(workload.statefulSet().getSpec().getTemplate().getMetadata().getAnnotations());
    String running = annotation(pod.getMetadata().getAnnotations());
    if (!Objects.equals(wanted, running)) {
      // The pod still runs the previous restart-class inputs: the roll is under way.
      return ControllerStatus.Phase.Provisioning;
    }
    boolean ready = pod.getStatus() != null && pod.getStatus().getConditions() != null
        && pod.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    if (ready) {
      if (seen.mite() != null) {
        return seen.mite().connected() ? ControllerStatus.Phase.Connected : ControllerStatus.Phase.Running;
      }
      return previous.phase == ControllerStatus.Phase.Connected ? ControllerStatus.Phase.Connected
          : ControllerStatus.Phase.Running;
    }
    return ControllerStatus.Phase.Provisioning;
  }

  private static String annotation(java.util.Map<String, String> annotations) {
    return annotations == null ? null : annotations.get(RestartHash.ANNOTATION);
  }

  private static Optional<String> bootFailure(Pod pod) {
    return containerStatus(pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses(), JENKINS_CONTAINER)
        .flatMap(s -> {
          if (s.getState() != null && s.getState().getWaiting() != null
              && BOOT_FAILURES.contains(s.getState().getWaiting().getReason())) {
            Integer exit = s.getLastState() != null && s.getLastState().getTerminated() != null
                ? s.getLastState().getTerminated().getExitCode() : null;
            return Optional.of("container jenkins is " + s.getState().getWaiting().getReason()
                + (exit == null ? "" : ", last exit code " + exit) + ", restart count " + s.getRestartCount()
                + "; read its logs: kubectl logs -n " + pod.getMetadata().getNamespace() + " "
                + pod.getMetadata().getName() + " -c jenkins --previous");
          }
          return Optional.empty();
        });
  }

  private static Optional<String> pluginFailure(Pod pod) {
    return containerStatus(pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses(), PLUGINS_CONTAINER)
        .flatMap(s -> {
          var terminated = s.getState() != null && s.getState().getTerminated() != null ? s.getState().getTerminated()
              : s.getLastState() != null ? s.getLastState().getTerminated() : null;
          if (terminated != null && terminated.getExitCode() != null && terminated.getExitCode() != 0) {
            return Optional.of("the plugins init step exited with code " + terminated.getExitCode()
                + (terminated.getMessage() == null ? "" : ": " + terminated.getMessage())
                + "; read its logs: kubectl logs -n " + pod.getMetadata().getNamespace() + " "
                + pod.getMetadata().getName() + " -c plugins");
          }
          return Optional.empty();
        });
  }

  private static Optional<ContainerStatus> containerStatus(List<ContainerStatus> statuses, String name) {
    return statuses == null ? Optional.empty() : statuses.stream().filter(s -> name.equals(s.getName())).findFirst();
  }

  /** MiteConnected (StreamLost once a stream was held) and MiteStreamDegraded from the gateways' report. */
  private static void mite(Conditions conditions, ControllerStatus previous, MiteObservation mite, boolean hibernated) {
    if (hibernated && !mite.connected()) {
      // a parked controller has no pod: its mite is away by design, not lost
      conditions.set(Condition.MITE_CONNECTED, Condition.Status.False, "Hibernated",
          "the controller is parked by its inactivity policy; the mite connects again once it wakes");
    } else if (mite.connected()) {
      conditions.set(Condition.MITE_CONNECTED, Condition.Status.True, "StreamActive",
          "gateway " + mite.status().gateway + " holds the mite's stream since " + mite.status().connectedAt);
    } else {
      boolean wasConnected = previous.conditions != null && previous.conditions.stream().anyMatch(c ->
          Condition.MITE_CONNECTED.equals(c.type) && (c.status == Condition.Status.True
              || Condition.REASON_STREAM_LOST.equals(c.reason)));
      if (wasConnected) {
        conditions.set(Condition.MITE_CONNECTED, Condition.Status.False, Condition.REASON_STREAM_LOST,
            "the mite's stream was lost; the pod stays in place. Check the gateway pods and the mite's logs");
      } else {
        conditions.set(Condition.MITE_CONNECTED, Condition.Status.False, "NotYetConnected",
            "the mite has not connected; check gateway reachability on TCP 9090, bootstrap token errors and the"
                + " mite's logs");
      }
    }
    mite.degradedReason().ifPresentOrElse(
        reason -> conditions.set(Condition.MITE_STREAM_DEGRADED, Condition.Status.True, "BusUnavailable",
            reason + "; commands wait while the stream stays connected"),
        () -> conditions.set(Condition.MITE_STREAM_DEGRADED, Condition.Status.False, "BusAvailable",
            mite.connected() ? "the gateway reaches the bus for this stream" : "no stream"));
    mite.lastCommand().ifPresent(last -> queuedCommand(conditions, last));
  }

  /**
   * QueuedCommandFailed from the last queued command's result: True with the outcome as its reason while it did not
   * succeed, False once one did. Absent until a command ran; kept as it was by a pass that knows no result (a
   * restarted operator).
   */
  private static void queuedCommand(Conditions conditions, CommandQueue.Finished last) {
    CommandResult result = last.published().getResult();
    String outcome = Arrays.stream(result.getOutcome().name().toLowerCase(Locale.ROOT).split("_"))
        .map(word -> Character.toUpperCase(word.charAt(0)) + word.substring(1)).collect(Collectors.joining());
    conditions.set(Condition.QUEUED_COMMAND_FAILED, last.succeeded() ? Condition.Status.False : Condition.Status.True,
        outcome, last.what() + " " + result.getOutcome() + (result.getMessage().isEmpty() ? ""
            : ": " + result.getMessage()));
  }

  /** The highest-precedence attention signal of seed 001, or null. */
  private static String attention(ControllerStatus status, List<Condition> conditionsNow, boolean failed,
      Optional<String> blocked, Optional<String> boot, Optional<String> plugins) {
    if (failed) {
      return "Failed";
    }
    if (blocked.isPresent()) {
      return "Blocked";
    }
    if (boot.isPresent()) {
      return "Boot failed";
    }
    if (plugins.isPresent()) {
      return "Plugin roll failed";
    }
    if (status.lastApplyResult != null && Boolean.FALSE.equals(status.lastApplyResult.succeeded)) {
      return "Apply failed";
    }
    boolean streamLost = conditionsNow != null && conditionsNow.stream().anyMatch(c ->
        Condition.MITE_CONNECTED.equals(c.type) && c.status == Condition.Status.False
            && Condition.REASON_STREAM_LOST.equals(c.reason));
    return streamLost ? "Mite unreachable" : null;
  }
}

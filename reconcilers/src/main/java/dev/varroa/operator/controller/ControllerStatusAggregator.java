package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.home.HomeProgress;
import dev.varroa.operator.render.RestartHash;
import dev.varroa.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Derives a Controller's status from what the cluster shows (StatefulSet, pod, container states):
 * the phase, the attention signals in seed 001's precedence, and Ready/Reconciling/Stalled.
 */
final class ControllerStatusAggregator {
  /** A pass that changes nothing else still refreshes lastReconciledAt once this old, so a resync writes nothing. */
  static final Duration LAST_RECONCILED_REFRESH = Duration.ofMinutes(10);
  static final String JENKINS_CONTAINER = "jenkins";
  static final String PLUGINS_CONTAINER = "plugins";
  /** Waiting reasons that mean the Jenkins container cannot start. */
  private static final List<String> BOOT_FAILURES = List.of(
      "CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "CreateContainerConfigError", "InvalidImageName");

  /** Conditions that the home, backup and hibernation steps set themselves; the aggregator carries them over. */
  static final java.util.Set<String> CARRIED_CONDITIONS = java.util.Set.of(
      Condition.BACKUP_FAILED, Condition.RESTORE_FAILED, Condition.HOME_MOVE_FAILED);

  private ControllerStatusAggregator() {}

  /**
   * Sets one of the {@link #CARRIED_CONDITIONS} on a status the aggregator built, keeping its lastTransitionTime
   * while its status stays the same.
   */
  static void put(ControllerStatus status, Condition condition, long generation, Instant now) {
    java.util.List<Condition> all = new java.util.ArrayList<>(status.conditions);
    Optional<Condition> before = all.stream().filter(c -> condition.type.equals(c.type)).findFirst();
    all.removeIf(c -> condition.type.equals(c.type));
    condition.observedGeneration = generation;
    condition.lastTransitionTime = before.filter(c -> c.status == condition.status).map(c -> c.lastTransitionTime)
        .orElse(now.toString());
    all.add(condition);
    status.conditions = all;
  }

  /**
   * What the reconciler learned in this pass; mite is null when the operator runs without a control channel;
   * hibernated when the inactivity policy parked the controller (docs/hibernation.md).
   */
  record Observation(long generation, boolean stopped, Optional<String> blocked, String bundle, String statefulSetName,
      String url, StatefulSet statefulSet, Pod pod, MiteObservation mite, boolean hibernated) {
    Observation(long generation, boolean stopped, Optional<String> blocked, String bundle, String statefulSetName,
        String url, StatefulSet statefulSet, Pod pod, MiteObservation mite) {
      this(generation, stopped, blocked, bundle, statefulSetName, url, statefulSet, pod, mite, false);
    }

    Observation(long generation, boolean stopped, Optional<String> blocked, String bundle, String statefulSetName,
        String url, StatefulSet statefulSet, Pod pod) {
      this(generation, stopped, blocked, bundle, statefulSetName, url, statefulSet, pod, null);
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
      Optional<ControllerStatus.ApplyResult> lastApply) {
    boolean connected() {
      return Boolean.TRUE.equals(status.connected);
    }
  }

  static ControllerStatus aggregate(ControllerStatus previous, Observation seen, Instant now) {
    ControllerStatus status = new ControllerStatus();
    status.observedGeneration = seen.generation();
    status.bundle = seen.bundle();
    status.statefulSetName = seen.statefulSetName();
    status.url = seen.url();
    // home, backup and hibernation are written by their own steps of the pass; they carry over untouched here
    status.home = previous.home;
    status.backup = previous.backup;
    status.hibernation = previous.hibernation;
    status.miteStatus = seen.mite() == null ? previous.miteStatus : seen.mite().status();
    status.lastApplyResult = seen.mite() == null ? previous.lastApplyResult
        : seen.mite().lastApply().orElse(previous.lastApplyResult);
    Conditions conditions = new Conditions(previous.conditions, seen.generation(), now.toString());

    Optional<String> bootFailure = seen.pod() == null ? Optional.empty() : bootFailure(seen.pod());
    Optional<String> pluginFailure = seen.pod() == null ? Optional.empty() : pluginFailure(seen.pod());
    boolean podFailed = seen.pod() != null && seen.pod().getStatus() != null
        && "Failed".equals(seen.pod().getStatus().getPhase());
    // a restore or a move of JENKINS_HOME under way: Provisioning, and Reconciling names its step
    Optional<String> homeStep = HomeProgress.underWay(status.home);
    status.phase = homeStep.isPresent() && !podFailed && seen.blocked().isEmpty() ? ControllerStatus.Phase.Provisioning
        : phase(previous, seen, podFailed);
    if (seen.mite() != null) {
      mite(conditions, previous, seen.mite(), seen.hibernated());
    }

    if (podFailed) {
      conditions.set("Failed", Condition.Status.True, "PodFailed",
          "pod " + seen.pod().getMetadata().getName() + " failed: " + Objects.toString(seen.pod().getStatus().getMessage(), "no message"));
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
    conditions.set(Condition.READY, status.attention == null && settled ? Condition.Status.True : Condition.Status.False,
        status.attention == null ? status.phase.name() : status.attention.replace(" ", ""),
        status.attention == null ? "phase " + status.phase : status.attention + ": see the conditions");
    conditions.set(Condition.RECONCILING, !settled && status.attention == null ? Condition.Status.True : Condition.Status.False,
        status.phase.name(), homeStep.orElse("phase " + status.phase));
    conditions.set(Condition.STALLED, status.attention != null ? Condition.Status.True : Condition.Status.False,
        status.attention == null ? "NoAttention" : status.attention.replace(" ", ""),
        status.attention == null ? "nothing needs attention" : status.attention);
    // Without a control channel this pass keeps the mite's conditions as they are.
    java.util.List<Condition> all = new java.util.ArrayList<>(conditions.build());
    all.addAll(HomeProgress.carried(previous.conditions));
    if (seen.mite() == null && previous.conditions != null) {
      previous.conditions.stream().filter(c -> Condition.MITE_CONNECTED.equals(c.type)
          || Condition.MITE_STREAM_DEGRADED.equals(c.type)).forEach(all::add);
    }
    if (previous.conditions != null) {
      previous.conditions.stream().filter(c -> CARRIED_CONDITIONS.contains(c.type)).forEach(all::add);
    }
    status.conditions = all;

    // A blocked pass ends in an error: its stamp stays where the last clean pass left it.
    boolean stamp = seen.blocked().isEmpty();
    status.lastReconciledAt = previous.lastReconciledAt;
    if (stamp) {
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

  private static ControllerStatus withStamp(ControllerStatus status, String stamp) {
    ControllerStatus copy = StatusComparison.copy(status);
    copy.lastReconciledAt = stamp;
    return copy;
  }

  private static ControllerStatus.Phase phase(ControllerStatus previous, Observation seen, boolean podFailed) {
    if (podFailed) {
      return ControllerStatus.Phase.Failed;
    }
    if (seen.blocked().isPresent()) {
      return previous.phase == null ? ControllerStatus.Phase.Pending : previous.phase;
    }
    if (seen.stopped()) {
      return ControllerStatus.Phase.Stopped;
    }
    if (seen.hibernated()) {
      return ControllerStatus.Phase.Hibernated;
    }
    if (seen.statefulSet() == null || seen.pod() == null) {
      return ControllerStatus.Phase.Provisioning;
    }
    String wanted = annotation(seen.statefulSet().getSpec().getTemplate().getMetadata().getAnnotations());
    String running = annotation(seen.pod().getMetadata().getAnnotations());
    if (!Objects.equals(wanted, running)) {
      // The pod still runs the previous restart-class inputs: the roll is under way.
      return ControllerStatus.Phase.Provisioning;
    }
    boolean ready = seen.pod().getStatus() != null && seen.pod().getStatus().getConditions() != null
        && seen.pod().getStatus().getConditions().stream()
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

package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.api.v1alpha1.BroodOperationStatus.StepResult;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.OneShot;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs brood operation steps on the Controllers of this cluster, one pass at a time: {@link #advance} looks at where a
 * target stands, does the next thing its step needs (an annotation, a command to the mite, a pod deleted) and says what
 * it waits for. Everything a step did is in the target's marks, written before or with the act, so a pass repeated
 * after an operator restart or a lost answer waits for the act instead of doing it again.
 */
public final class TargetStepExecutor {
  /** A one-shot command that waits this long in the queue is useless to the step that sent it. */
  static final Duration COMMAND_DEADLINE = Duration.ofMinutes(5);
  private static final Logger LOG = LoggerFactory.getLogger(TargetStepExecutor.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final KubernetesClient client;
  private final BiFunction<String, String, Optional<Controller>> controllers;
  private final JenkinsOfController jenkins;
  private final Clock clock;

  /** @param controllers this cluster's Controller by namespace and name, from a cache */
  public TargetStepExecutor(KubernetesClient client, BiFunction<String, String, Optional<Controller>> controllers,
      JenkinsOfController jenkins, Clock clock) {
    this.client = client;
    this.controllers = controllers;
    this.jenkins = jenkins;
    this.clock = clock;
  }

  /** What a step's pass came to. */
  sealed interface Outcome {
    String message();

    record Waiting(String message) implements Outcome {}

    record Done(String message) implements Outcome {}

    record Failed(String message) implements Outcome {}

    /** A pause step: the target waits for a person. */
    record Paused(String message) implements Outcome {}
  }

  /**
   * One pass over one Running (or Paused, or Unknown) target: returns it as it stands after the pass (a copy); a
   * target that finished its last step is Succeeded, one whose step failed or timed out is Failed.
   */
  public Target advance(OperationContext op, Target given) {
    Target target = JSON.convertValue(given, Target.class);
    Instant now = clock.instant();
    target.reportedAt = now.toString();
    if (target.marks == null) {
      target.marks = new TreeMap<>();
    }
    int index = target.step == null ? 0 : target.step;
    if (index >= op.steps().size()) {
      finish(target, now);
      return target;
    }
    BroodOperationSpec.Step step = op.steps().get(index);
    StepResult result;
    if (target.steps.size() <= index) {
      result = new StepResult();
      result.type = step.type;
      result.phase = "Running";
      result.startedAt = now.toString();
      target.steps.add(result);
      target.marks.clear();
    } else {
      result = target.steps.get(index);
    }
    Instant startedAt = Instant.parse(result.startedAt);
    Outcome outcome;
    Optional<Controller> controller = controllers.apply(target.namespace, target.name);
    if (controller.isEmpty()) {
      outcome = new Outcome.Failed("Controller " + target.namespace + "/" + target.name + " no longer exists in cluster "
          + target.cluster);
    } else {
      try {
        outcome = run(op, index, step, controller.get(), target.marks, startedAt, now);
      } catch (KubernetesClientException e) {
        outcome = new Outcome.Waiting("the API server refused a step's write, trying again: " + e.getMessage());
      }
    }
    Duration timeout = op.timeout(index);
    if ((outcome instanceof Outcome.Waiting || outcome instanceof Outcome.Paused)
        && !step.type.equals(StepTypes.PAUSE) && now.isAfter(startedAt.plus(timeout))) {
      outcome = new Outcome.Failed("step " + step.type + " did not finish within " + timeout.toSeconds() + " s: "
          + outcome.message());
      cleanUpAfterFailure(op, index, step, controller, target.marks);
    }
    if (outcome instanceof Outcome.Done done) {
      result.phase = "Succeeded";
      result.completedAt = now.toString();
      result.message = done.message();
      target.message = done.message();
      target.step = index + 1;
      target.marks.clear();
      target.phase = TargetPhase.Running;
      if (index + 1 >= op.steps().size()) {
        finish(target, now);
      }
    } else if (outcome instanceof Outcome.Failed failed) {
      result.phase = "Failed";
      result.completedAt = now.toString();
      result.message = failed.message();
      target.message = failed.message();
      target.phase = TargetPhase.Failed;
      target.completedAt = now.toString();
      LOG.info("event=brood_target_failed operation={} target={} step={} message=\"{}\"", op.operation(),
          target.namespace + "/" + target.name, step.type, failed.message());
    } else {
      boolean paused = outcome instanceof Outcome.Paused;
      result.phase = paused ? "Paused" : "Running";
      result.message = outcome.message();
      target.message = outcome.message();
      target.phase = paused ? TargetPhase.Paused : TargetPhase.Running;
    }
    return target;
  }

  /** A cancelled target: undoes a quiet-down its step asked for and has not yet turned into a restart. */
  public void cancel(OperationContext op, Target target) {
    int index = target.step == null ? 0 : target.step;
    if (target.marks == null || index >= op.steps().size()) {
      return;
    }
    cleanUpAfterFailure(op, index, op.steps().get(index), controllers.apply(target.namespace, target.name),
        target.marks);
  }

  private static void finish(Target target, Instant now) {
    target.phase = TargetPhase.Succeeded;
    target.completedAt = now.toString();
    target.marks = null;
  }

  private Outcome run(OperationContext op, int index, BroodOperationSpec.Step step, Controller controller,
      Map<String, String> marks, Instant startedAt, Instant now) {
    String request = op.run() + "-s" + index;
    // command ids are deduplicated queue-wide: each names its controller too
    String command = request + "-" + controller.getMetadata().getUid();
    return switch (step.type) {
      case StepTypes.BACKUP -> backup(controller, request, startedAt);
      case StepTypes.QUIET_DOWN -> quietDown(controller, marks, command, true);
      case StepTypes.CANCEL_QUIET_DOWN -> quietDown(controller, marks, command, false);
      case StepTypes.WAIT_FOR_IDLE -> waitForIdle(op, controller, startedAt, now).orElseGet(
          () -> new Outcome.Done("no build running"));
      case StepTypes.SAFE_RESTART -> safeRestart(op, controller, marks, command, now);
      case StepTypes.REPROVISION -> reprovision(op, controller, marks, command, now);
      case StepTypes.REAPPLY_CONFIGURATION -> reapply(controller, request);
      case StepTypes.WAKE -> wake(controller, request);
      case StepTypes.HIBERNATE -> hibernate(controller, request);
      case StepTypes.PAUSE -> pause(op, step, marks);
      default -> new Outcome.Failed("step type \"" + step.type + "\" is not one this operator knows; fix: use one of "
          + StepTypes.ALL);
    };
  }

  private Outcome backup(Controller controller, String request, Instant startedAt) {
    annotate(controller, ControllerAnnotations.BACKUP_NOW, request);
    ControllerStatus status = controller.getStatus();
    if (status == null || status.backup == null || !request.equals(status.backup.lastOnDemandRequest)) {
      return new Outcome.Waiting("waiting for the operator to start the backup");
    }
    if (status.backup.inProgress != null) {
      return new Outcome.Waiting("backup " + status.backup.inProgress.snapshot + ": " + status.backup.inProgress.step);
    }
    if (status.backup.lastFailure != null && status.backup.lastFailure.at != null
        && !Instant.parse(status.backup.lastFailure.at).isBefore(startedAt)) {
      return new Outcome.Failed("backup failed: " + status.backup.lastFailure.message);
    }
    if (status.backup.lastSuccessfulAt != null && !Instant.parse(status.backup.lastSuccessfulAt).isBefore(startedAt)) {
      return new Outcome.Done("snapshot " + status.backup.lastSuccessfulSnapshot + " is ready");
    }
    return new Outcome.Waiting("waiting for the backup's result");
  }

  private Outcome quietDown(Controller controller, Map<String, String> marks, String request, boolean quiet) {
    ControllerIdentity id = identity(controller);
    Optional<ObservedState> observed = observed(id);
    if (observed.isEmpty()) {
      return new Outcome.Waiting("the mite of Controller " + name(controller) + " is not connected");
    }
    if (observed.get().getQuietingDown() == quiet) {
      return new Outcome.Done(quiet ? "Jenkins is quieting down" : "Jenkins is no longer quieting down");
    }
    if (!marks.containsKey("sent")) {
      marks.put("sent", clock.instant().toString());
      jenkins.oneShot(id, quiet ? OneShot.Action.QUIET_DOWN : OneShot.Action.CANCEL_QUIET_DOWN, request,
          clock.instant().plus(COMMAND_DEADLINE));
    }
    return new Outcome.Waiting(quiet ? "waiting for Jenkins to quiet down" : "waiting for Jenkins to leave quiet-down");
  }

  /** Empty once no build runs; a Failed outcome once the drain timeout passed with builds still running. */
  private Optional<Outcome> waitForIdle(OperationContext op, Controller controller, Instant since, Instant now) {
    Optional<ObservedState> observed = observed(identity(controller));
    if (observed.isEmpty()) {
      return Optional.of(new Outcome.Waiting("the mite of Controller " + name(controller) + " is not connected"));
    }
    int running = observed.get().getRunningBuilds();
    if (running == 0) {
      return Optional.empty();
    }
    if (now.isAfter(since.plus(op.drainTimeout()))) {
      return Optional.of(new Outcome.Failed(running + " build(s) still running after the drain timeout ("
          + op.drainTimeout().toSeconds() + " s); fix: let them finish, or raise spec.strategy.drainTimeoutSeconds"));
    }
    return Optional.of(new Outcome.Waiting("waiting for " + running + " running build(s) to finish"));
  }

  /**
   * Quiet-down, then the running builds waited for (drain timeout), both marked so they happen once; returns empty once
   * Jenkins is quiet and idle.
   */
  private Optional<Outcome> quietAndIdle(OperationContext op, Controller controller, Map<String, String> marks,
      String request, Instant now) {
    ControllerIdentity id = identity(controller);
    if (observed(id).isEmpty() && !marks.containsKey("quietedAt")) {
      return Optional.of(new Outcome.Waiting("the mite of Controller " + name(controller) + " is not connected"));
    }
    if (!marks.containsKey("quietedAt")) {
      marks.put("quietedAt", now.toString());
      jenkins.oneShot(id, OneShot.Action.QUIET_DOWN, request + "-quiet", now.plus(COMMAND_DEADLINE));
    }
    // no build may start while the running ones are waited for: Jenkins must be quiet first
    Optional<ObservedState> observed = observed(id);
    if (observed.isPresent() && !observed.get().getQuietingDown()
        && !now.isAfter(Instant.parse(marks.get("quietedAt")).plus(op.drainTimeout()))) {
      return Optional.of(new Outcome.Waiting("waiting for Jenkins to quiet down"));
    }
    Optional<Outcome> idle = waitForIdle(op, controller, Instant.parse(marks.get("quietedAt")), now);
    if (idle.isPresent() && idle.get() instanceof Outcome.Failed failed) {
      jenkins.oneShot(id, OneShot.Action.CANCEL_QUIET_DOWN, request + "-unquiet", now.plus(COMMAND_DEADLINE));
      marks.remove("quietedAt");
      return Optional.of(new Outcome.Failed(failed.message() + "; quiet-down cancelled, nothing restarted"));
    }
    return idle;
  }

  private Outcome safeRestart(OperationContext op, Controller controller, Map<String, String> marks, String request,
      Instant now) {
    ControllerIdentity id = identity(controller);
    if (!marks.containsKey("restartAt")) {
      Optional<Outcome> waiting = quietAndIdle(op, controller, marks, request, now);
      if (waiting.isPresent()) {
        return waiting.get();
      }
      marks.put("restartAt", now.toString());
      jenkins.oneShot(id, OneShot.Action.SAFE_RESTART, request + "-restart", now.plus(COMMAND_DEADLINE));
      return new Outcome.Waiting("Jenkins was asked to restart");
    }
    Instant restartAt = Instant.parse(marks.get("restartAt"));
    Optional<MiteRoute> route = jenkins.route(id);
    if (route.isEmpty()) {
      return new Outcome.Waiting("Jenkins restarts: waiting for the mite to report it");
    }
    ObservedState observed = route.get().getObserved();
    long upSince = observed.getJenkinsUpSinceEpochMillis();
    if (upSince == 0 || Instant.ofEpochMilli(upSince).isBefore(restartAt.minusSeconds(1))
        || !observed.getJenkinsReachable()) {
      return new Outcome.Waiting("Jenkins restarts: waiting for it to answer again");
    }
    if (!connected(controller)) {
      return new Outcome.Waiting("Jenkins answers again: waiting for Controller " + name(controller) + " to be Connected");
    }
    return new Outcome.Done("Jenkins restarted, up since " + Instant.ofEpochMilli(upSince));
  }

  private Outcome reprovision(OperationContext op, Controller controller, Map<String, String> marks, String request,
      Instant now) {
    String pod = podName(controller);
    if (pod == null) {
      return new Outcome.Waiting("Controller " + name(controller) + " has no StatefulSet yet");
    }
    if (!marks.containsKey("deletedPod")) {
      Optional<Outcome> waiting = quietAndIdle(op, controller, marks, request, now);
      if (waiting.isPresent()) {
        return waiting.get();
      }
      Pod current = client.pods().inNamespace(controller.getMetadata().getNamespace()).withName(pod).get();
      if (current == null) {
        return new Outcome.Waiting("pod " + pod + " does not exist yet");
      }
      marks.put("deletedPod", current.getMetadata().getUid());
      marks.put("deletedAt", now.toString());
      client.pods().inNamespace(controller.getMetadata().getNamespace()).withName(pod).delete();
      LOG.info("event=brood_pod_deleted operation={} controller={} pod={}", op.operation(), name(controller), pod);
      return new Outcome.Waiting("pod " + pod + " deleted: waiting for its replacement");
    }
    Pod current = client.pods().inNamespace(controller.getMetadata().getNamespace()).withName(pod).get();
    if (current == null || current.getMetadata().getUid().equals(marks.get("deletedPod"))) {
      return new Outcome.Waiting("pod " + pod + " deleted: waiting for its replacement");
    }
    Instant deletedAt = Instant.parse(marks.get("deletedAt"));
    ControllerStatus status = controller.getStatus();
    boolean reconnected = status != null && status.miteStatus != null && status.miteStatus.connectedAt != null
        && !Instant.parse(status.miteStatus.connectedAt).isBefore(deletedAt);
    if (!connected(controller) || !reconnected) {
      return new Outcome.Waiting("pod " + pod + " replaced: waiting for Controller " + name(controller)
          + " to be Connected again");
    }
    return new Outcome.Done("pod " + pod + " replaced, Controller Connected");
  }

  private Outcome reapply(Controller controller, String request) {
    annotate(controller, ControllerAnnotations.REAPPLY, request);
    ControllerStatus status = controller.getStatus();
    ControllerStatus.ApplyResult result = status == null ? null : status.lastApplyResult;
    if (result == null || !request.equals(result.trigger)) {
      return new Outcome.Waiting("waiting for Jenkins to apply the desired state again");
    }
    return Boolean.TRUE.equals(result.succeeded)
        ? new Outcome.Done("desired state " + result.bundleDigest + " applied")
        : new Outcome.Failed("Jenkins refused the desired state: " + result.message);
  }

  private Outcome wake(Controller controller, String request) {
    ControllerStatus status = controller.getStatus();
    ControllerStatus.Phase phase = status == null ? null : status.phase;
    if (phase == ControllerStatus.Phase.Connected) {
      return new Outcome.Done("Controller is Connected");
    }
    if (phase == ControllerStatus.Phase.Hibernated) {
      annotate(controller, ControllerAnnotations.WAKE, request);
    }
    return new Outcome.Waiting("waiting for Controller " + name(controller) + " to be Connected (phase " + phase + ")");
  }

  private Outcome hibernate(Controller controller, String request) {
    ControllerStatus status = controller.getStatus();
    if (status != null && status.phase == ControllerStatus.Phase.Hibernated) {
      return new Outcome.Done("Controller is Hibernated");
    }
    annotate(controller, ControllerAnnotations.HIBERNATE_NOW, request);
    if (status == null || status.hibernation == null || !request.equals(status.hibernation.lastHibernateRequest)) {
      return new Outcome.Waiting("waiting for the operator to park the controller");
    }
    String outcome = status.hibernation.lastHibernateOutcome;
    if (outcome != null && !outcome.equals("Parked")) {
      return new Outcome.Failed("Controller " + name(controller) + " could not hibernate: " + outcome);
    }
    return new Outcome.Waiting("waiting for Controller " + name(controller) + " to be Hibernated");
  }

  private static Outcome pause(OperationContext op, BroodOperationSpec.Step step, Map<String, String> marks) {
    if (!marks.containsKey("resume")) {
      marks.put("resume", op.resume());
    }
    if (!marks.get("resume").equals(op.resume())) {
      return new Outcome.Done("resumed");
    }
    return new Outcome.Paused("waiting for a person: set a new value of annotation " + OperationContext.RESUME_ANNOTATION
        + " on BroodOperation " + op.namespace() + "/" + op.name() + " (varroactl broodop resume " + op.name() + ")"
        + (step.note == null ? "" : "; " + step.note));
  }

  private void cleanUpAfterFailure(OperationContext op, int index, BroodOperationSpec.Step step,
      Optional<Controller> controller, Map<String, String> marks) {
    boolean quietedByStep = marks.containsKey("quietedAt") && !marks.containsKey("restartAt")
        && !marks.containsKey("deletedPod");
    if (controller.isPresent() && quietedByStep) {
      jenkins.oneShot(identity(controller.get()), OneShot.Action.CANCEL_QUIET_DOWN, op.run() + "-s" + index + "-"
          + controller.get().getMetadata().getUid() + "-unquiet", clock.instant().plus(COMMAND_DEADLINE));
      marks.remove("quietedAt");
    }
  }

  private void annotate(Controller controller, String annotation, String value) {
    Map<String, String> annotations = controller.getMetadata().getAnnotations();
    if (annotations != null && value.equals(annotations.get(annotation))) {
      return;
    }
    client.resources(Controller.class).inNamespace(controller.getMetadata().getNamespace())
        .withName(controller.getMetadata().getName())
        .patch(PatchContext.of(PatchType.JSON_MERGE), JSON.asJson(Map.of("metadata", Map.of("annotations",
            Map.of(annotation, value)))));
  }

  private Optional<ObservedState> observed(ControllerIdentity id) {
    return jenkins.route(id).map(MiteRoute::getObserved);
  }

  private static boolean connected(Controller controller) {
    return controller.getStatus() != null && controller.getStatus().phase == ControllerStatus.Phase.Connected;
  }

  private static String podName(Controller controller) {
    ControllerStatus status = controller.getStatus();
    return status == null || status.statefulSetName == null ? null : status.statefulSetName + "-0";
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  private static String name(Controller controller) {
    return controller.getMetadata().getNamespace() + "/" + controller.getMetadata().getName();
  }
}

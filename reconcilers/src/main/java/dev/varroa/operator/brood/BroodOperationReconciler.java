package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Phase;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import dev.varroa.protocol.bus.v1.BroodTargetReport;
import dev.varroa.protocol.bus.v1.BroodTargetRequest;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.PrimaryUpdateAndCacheUtils;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs each BroodOperation (docs/brood-operations.md). A pass resolves the selection when a run starts (this cluster's
 * Controllers from the cache, every other cluster's from its operator over NATS), advances every target in flight by
 * one step pass (here, or by its cluster's operator), starts the next Pending targets within maxConcurrent, and writes
 * where everything stands to status — the only memory a run has, so a restarted or newly elected operator resumes it.
 * A target is marked Running in status before its first step acts, so none is started twice.
 */
@ControllerConfiguration(name = "broodoperation")
public final class BroodOperationReconciler implements Reconciler<BroodOperation> {
  /** How often a run with targets in flight looks again. */
  static final Duration IN_FLIGHT_PASS = Duration.ofSeconds(1);
  /** How soon targets started in a pass get their first step pass. */
  static final Duration STARTED_PASS = Duration.ofMillis(100);
  /** How often a paused run, or one waiting for a cluster's list, looks again. */
  static final Duration WAITING_PASS = Duration.ofSeconds(5);
  static final Set<Phase> FINAL = EnumSet.of(Phase.Succeeded, Phase.Failed, Phase.Cancelled);
  /**
   * Targets one operation may hold: each takes about 600 bytes of status, and a status beyond etcd's 1.5 MiB request
   * limit could no longer be written (docs/benchmarks.md).
   */
  public static final int MAX_TARGETS = 2000;
  private static final Logger LOG = LoggerFactory.getLogger(BroodOperationReconciler.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Clock clock;
  private final Supplier<String> cluster;
  private final Supplier<Collection<Controller>> controllers;
  private final TargetStepExecutor executor;
  private volatile RemoteClusters remote;

  /**
   * @param cluster this cluster's name
   * @param controllers this cluster's Controllers, from a cache
   * @param executor runs the steps on this cluster's Controllers
   */
  public BroodOperationReconciler(Clock clock, Supplier<String> cluster, Supplier<Collection<Controller>> controllers,
      TargetStepExecutor executor) {
    this.clock = clock;
    this.cluster = cluster;
    this.controllers = controllers;
    this.executor = executor;
  }

  /** From now on selections reach the other clusters (the core's operator, once its NATS connection is up). */
  public void reach(RemoteClusters clusters) {
    this.remote = clusters;
  }

  @Override
  public UpdateControl<BroodOperation> reconcile(BroodOperation operation, Context<BroodOperation> context) {
    BroodOperationStatus previous = operation.getStatus() == null ? new BroodOperationStatus() : operation.getStatus();
    BroodOperationStatus status = JSON.convertValue(previous, BroodOperationStatus.class);
    BroodOperationSpec spec = operation.getSpec();
    Instant now = clock.instant();
    String digest = PlanDigest.of(spec);
    Optional<Duration> again;
    if (status.planDigest == null || (!digest.equals(status.planDigest) && FINAL.contains(status.phase))) {
      again = begin(operation, status, digest, now);
    } else if (FINAL.contains(status.phase)) {
      again = Optional.empty();
    } else {
      again = run(operation, status, now);
      if (!digest.equals(status.planDigest)) {
        // targets or steps changed under way: that plan runs once this one ended
        status.message = status.message + "; spec.targets or spec.steps changed: the new plan runs after this run";
        again = Optional.of(again.orElse(IN_FLIGHT_PASS));
      }
    }
    status.observedGeneration = operation.getMetadata().getGeneration();
    status.counts = BroodProgress.counts(status.targets);
    status.conditions = conditions(operation, status, digest, now);
    if (!sameIgnoringReportTimes(previous, status)) {
      BroodOperation written = new BroodOperation();
      written.setMetadata(new ObjectMetaBuilder().withName(operation.getMetadata().getName())
          .withNamespace(operation.getMetadata().getNamespace()).build());
      written.setStatus(status);
      PrimaryUpdateAndCacheUtils.ssaPatchStatusAndCacheResource(operation, written, context);
    }
    UpdateControl<BroodOperation> control = UpdateControl.noUpdate();
    return again.map(control::rescheduleAfter).orElse(control);
  }

  /** A new run: the selection resolved over the clusters it names, every target Pending (or listed, for a dry run). */
  private Optional<Duration> begin(BroodOperation operation, BroodOperationStatus status, String digest, Instant now) {
    BroodOperationSpec spec = operation.getSpec();
    String here = cluster.get();
    RemoteClusters fleet = remote;
    Set<String> registered = Set.of();
    if (fleet != null) {
      try {
        registered = fleet.registered();
      } catch (Exception e) {
        LOG.warn("event=brood_registry_unavailable operation={} error=\"{}\"", name(operation), e.getMessage());
      }
    }
    TargetSelection.Selected selected;
    try {
      Set<String> wanted = TargetSelection.clusters(spec.targets, here, registered);
      Map<String, TargetSelection.ClusterList> lists = new TreeMap<>();
      Set<String> others = new java.util.TreeSet<>();
      for (String c : wanted) {
        if (c.equals(here)) {
          lists.put(c, new TargetSelection.ClusterList.Arrived(controllers.get().stream()
              .map(BroodOperationReconciler::facts).toList()));
        } else if (fleet == null) {
          lists.put(c, new TargetSelection.ClusterList.Missing("only the core cluster's operator reaches other clusters;"
              + " fix: create this BroodOperation on the core cluster"));
        } else if (!registered.contains(c)) {
          lists.put(c, new TargetSelection.ClusterList.Missing("cluster " + c + " is not registered (varroactl get"
              + " clusters lists the registered ones); fix: correct spec.targets.clusters"));
        } else {
          others.add(c);
        }
      }
      if (!others.isEmpty()) {
        lists.putAll(fleet.controllers(others));
      }
      selected = TargetSelection.select(spec.targets, lists);
    } catch (InvalidSelection e) {
      status.phase = Phase.Failed;
      status.message = "BroodOperation " + name(operation) + ": " + e.getMessage();
      status.planDigest = digest;
      status.completedAt = now.toString();
      return Optional.empty();
    }
    status.unresolvedClusters = selected.unresolved().entrySet().stream().map(e -> {
      BroodOperationStatus.ClusterProblem problem = new BroodOperationStatus.ClusterProblem();
      problem.cluster = e.getKey();
      problem.reason = e.getValue();
      return problem;
    }).collect(Collectors.toCollection(ArrayList::new));
    status.steps = spec.steps.stream().map(s -> s.type).collect(Collectors.toCollection(ArrayList::new));
    status.targets = selected.targets().stream().map(ref -> {
      Target target = new Target();
      target.cluster = ref.cluster();
      target.namespace = ref.namespace();
      target.name = ref.name();
      target.phase = TargetPhase.Pending;
      target.step = 0;
      return target;
    }).collect(Collectors.toCollection(ArrayList::new));
    status.startedAt = null;
    status.completedAt = null;
    if (Boolean.TRUE.equals(spec.dryRun)) {
      status.planDigest = digest;
      status.dryRun = true;
      status.phase = Phase.Succeeded;
      status.completedAt = now.toString();
      status.message = "dry run: " + status.targets.size() + " target(s), " + status.steps.size() + " step(s) each;"
          + " nothing was touched" + unresolvedNote(status);
      return Optional.empty();
    }
    status.dryRun = null;
    if (!selected.unresolved().isEmpty()) {
      // a member whose list did not arrive would silently lose its targets: wait for it, naming it
      status.phase = Phase.Pending;
      status.targets = new ArrayList<>();
      status.message = "waiting for the Controller lists of " + String.join(", ", selected.unresolved().keySet())
          + unresolvedNote(status);
      return Optional.of(WAITING_PASS);
    }
    status.planDigest = digest;
    status.unresolvedClusters = new ArrayList<>();
    if (status.targets.size() > MAX_TARGETS) {
      status.phase = Phase.Failed;
      status.completedAt = now.toString();
      status.message = "spec.targets of BroodOperation " + name(operation) + " selects " + status.targets.size()
          + " Controllers; one operation runs at most " + MAX_TARGETS + "; fix: split it by cluster or namespace";
      status.targets = new ArrayList<>();
      return Optional.empty();
    }
    status.startedAt = now.toString();
    if (status.targets.isEmpty()) {
      status.phase = Phase.Succeeded;
      status.completedAt = now.toString();
      status.message = "no Controller matches spec.targets: nothing to do";
      return Optional.empty();
    }
    status.phase = Phase.Running;
    status.message = status.targets.size() + " target(s), " + status.steps.size() + " step(s) each";
    LOG.info("event=brood_started operation={} targets={} steps={}", name(operation), status.targets.size(),
        status.steps);
    return run(operation, status, now);
  }

  /** One pass of a run under way. */
  private Optional<Duration> run(BroodOperation operation, BroodOperationStatus status, Instant now) {
    BroodOperationSpec spec = operation.getSpec();
    OperationContext op = OperationContext.of(cluster.get(), operation, status.planDigest, status.steps);
    boolean cancel = Boolean.TRUE.equals(spec.cancel);
    boolean started = false;
    advance(op, status.targets, cancel, now);
    if (cancel) {
      for (Target target : status.targets) {
        if (!BroodProgress.FINISHED.contains(target.phase)) {
          target.phase = TargetPhase.Cancelled;
          target.completedAt = now.toString();
          target.message = (target.message == null ? "" : target.message + "; ") + "cancelled";
        }
      }
    } else {
      List<Integer> starting = BroodProgress.toStart(spec, status.targets);
      started = !starting.isEmpty();
      for (int index : starting) {
        Target target = status.targets.get(index);
        target.phase = TargetPhase.Running;
        target.step = 0;
        target.startedAt = now.toString();
        target.message = "starting " + op.steps().get(0).type;
      }
    }
    if (BroodProgress.over(spec, status.targets)) {
      long failed = BroodProgress.count(status.targets, TargetPhase.Failed);
      boolean stopped = !cancel && BroodProgress.stoppedByFailures(spec.strategy, status.targets);
      for (Target target : status.targets) {
        if (target.phase == TargetPhase.Pending) {
          target.phase = TargetPhase.Cancelled;
          target.message = "not started: failurePolicy " + BroodProgress.failurePolicy(spec.strategy)
              + " stopped the operation";
        }
      }
      status.completedAt = now.toString();
      if (cancel) {
        status.phase = Phase.Cancelled;
        status.message = "cancelled (spec.cancel)";
      } else if (failed > 0) {
        status.phase = Phase.Failed;
        status.message = failed + " of " + status.targets.size() + " target(s) failed"
            + (stopped ? "; failurePolicy " + BroodProgress.failurePolicy(spec.strategy) + " stopped the rest" : "")
            + firstFailure(status.targets);
      } else {
        status.phase = Phase.Succeeded;
        status.message = status.targets.size() + " target(s) succeeded";
      }
      LOG.info("event=brood_finished operation={} phase={} message=\"{}\"", name(operation), status.phase,
          status.message);
      return Optional.empty();
    }
    Optional<Target> paused = status.targets.stream().filter(t -> t.phase == TargetPhase.Paused).findFirst();
    long inFlight = status.targets.stream().filter(t -> BroodProgress.IN_FLIGHT.contains(t.phase)).count();
    if (Boolean.TRUE.equals(spec.suspend)) {
      status.phase = Phase.Paused;
      status.message = "paused (spec.suspend): no target starts" + (inFlight > 0 ? "; " + inFlight
          + " target(s) under way finish their steps" : "");
    } else if (paused.isPresent()) {
      status.phase = Phase.Paused;
      status.message = paused.get().cluster + "/" + paused.get().namespace + "/" + paused.get().name + ": "
          + paused.get().message;
    } else {
      status.phase = Phase.Running;
      status.message = BroodProgress.count(status.targets, TargetPhase.Succeeded) + " of " + status.targets.size()
          + " target(s) done, " + inFlight + " in flight";
    }
    // targets started now act in the next pass, right after this pass's status write recorded them as Running
    return Optional.of(started ? STARTED_PASS : inFlight > 0 ? IN_FLIGHT_PASS : WAITING_PASS);
  }

  /** One step pass for every target in flight: here through the executor, elsewhere through its cluster's operator. */
  private void advance(OperationContext op, List<Target> targets, boolean cancel, Instant now) {
    String here = cluster.get();
    Map<String, List<Integer>> byCluster = new LinkedHashMap<>();
    for (int i = 0; i < targets.size(); i++) {
      if (BroodProgress.IN_FLIGHT.contains(targets.get(i).phase)) {
        byCluster.computeIfAbsent(targets.get(i).cluster, c -> new ArrayList<>()).add(i);
      }
    }
    Map<String, CompletableFuture<BroodTargetReport>> asked = new TreeMap<>();
    RemoteClusters fleet = remote;
    for (Map.Entry<String, List<Integer>> entry : byCluster.entrySet()) {
      if (entry.getKey().equals(here) || fleet == null) {
        continue;
      }
      BroodTargetRequest.Builder request = BroodTargetRequest.newBuilder().setContextJson(JSON.asJson(op))
          .setCancel(cancel);
      entry.getValue().forEach(i -> request.addTargetsJson(JSON.asJson(targets.get(i))));
      asked.put(entry.getKey(), CompletableFuture.supplyAsync(() -> {
        try {
          return fleet.pass(entry.getKey(), request.build());
        } catch (Exception e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }));
    }
    for (int i : byCluster.getOrDefault(here, List.of())) {
      if (cancel) {
        executor.cancel(op, targets.get(i));
      } else {
        targets.set(i, executor.advance(op, targets.get(i)));
      }
    }
    for (Map.Entry<String, List<Integer>> entry : byCluster.entrySet()) {
      String other = entry.getKey();
      if (other.equals(here)) {
        continue;
      }
      String silence;
      try {
        if (fleet == null) {
          throw new IllegalStateException("this operator does not reach other clusters");
        }
        BroodTargetReport report = asked.get(other).join();
        if (!report.getError().isEmpty() || report.getTargetsJsonCount() != entry.getValue().size()) {
          throw new IllegalStateException(report.getError().isEmpty() ? "an answer for other targets" : report.getError());
        }
        for (int k = 0; k < entry.getValue().size(); k++) {
          targets.set(entry.getValue().get(k), JSON.unmarshal(report.getTargetsJson(k), Target.class));
        }
        continue;
      } catch (RuntimeException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        silence = cause instanceof java.util.concurrent.TimeoutException ? "no answer within "
            + RemoteClusters.PASS_WAIT.toSeconds() + " s" : String.valueOf(cause.getMessage());
      }
      for (int i : entry.getValue()) {
        silent(op, targets.get(i), other, silence, now);
      }
    }
  }

  /** A target whose cluster did not answer: Unknown, named, until its step's timeout passes, then Failed. */
  private static void silent(OperationContext op, Target target, String other, String why, Instant now) {
    int index = target.step == null ? 0 : target.step;
    Instant since = Optional.ofNullable(target.reportedAt).or(() -> Optional.ofNullable(target.startedAt))
        .map(Instant::parse).orElse(now);
    Instant stepStarted = index < target.steps.size() && target.steps.get(index).startedAt != null
        ? Instant.parse(target.steps.get(index).startedAt) : since;
    Duration timeout = index < op.steps().size() ? op.timeout(index) : Duration.ZERO;
    String message = "cluster " + other + " has not answered since " + since + ": " + why;
    if (now.isAfter(stepStarted.plus(timeout))) {
      target.phase = TargetPhase.Failed;
      target.completedAt = now.toString();
      target.message = message + "; the step's timeout (" + timeout.toSeconds() + " s) passed";
      if (index < target.steps.size()) {
        target.steps.get(index).phase = "Failed";
        target.steps.get(index).completedAt = now.toString();
        target.steps.get(index).message = target.message;
      }
    } else {
      target.phase = TargetPhase.Unknown;
      target.message = message;
    }
  }

  private static List<dev.varroa.api.v1alpha1.Condition> conditions(BroodOperation operation,
      BroodOperationStatus status, String digest, Instant now) {
    Conditions conditions = new Conditions(status.conditions, operation.getMetadata().getGeneration(), now.toString());
    Phase phase = status.phase == null ? Phase.Pending : status.phase;
    String message = status.message == null ? "" : status.message;
    switch (phase) {
      case Succeeded -> conditions.kstatus(Kstatus.READY, status.dryRun != null ? "DryRun" : "Succeeded", message);
      case Failed -> conditions.kstatus(Kstatus.STALLED, "Failed", message);
      case Cancelled -> conditions.kstatus(Kstatus.suspended(dev.varroa.api.v1alpha1.Condition.Status.False),
          "Cancelled", message);
      case Paused -> conditions.kstatus(Kstatus.suspended(dev.varroa.api.v1alpha1.Condition.Status.False), "Paused",
          message);
      default -> conditions.kstatus(Kstatus.RECONCILING, phase.name(), message);
    }
    return new ArrayList<>(conditions.build());
  }

  /** Equal but for the instants members stamp on every pass: those alone are not worth a write. */
  private static boolean sameIgnoringReportTimes(BroodOperationStatus a, BroodOperationStatus b) {
    return Objects.equals(withoutReportTimes(a), withoutReportTimes(b));
  }

  private static String withoutReportTimes(BroodOperationStatus status) {
    BroodOperationStatus copy = JSON.convertValue(status, BroodOperationStatus.class);
    copy.targets.forEach(t -> t.reportedAt = null);
    return JSON.asJson(copy);
  }

  private static String firstFailure(List<Target> targets) {
    return targets.stream().filter(t -> t.phase == TargetPhase.Failed).findFirst()
        .map(t -> "; first: " + t.cluster + "/" + t.namespace + "/" + t.name + ": " + t.message).orElse("");
  }

  private static String unresolvedNote(BroodOperationStatus status) {
    return status.unresolvedClusters.isEmpty() ? "" : "; unresolved: " + status.unresolvedClusters.stream()
        .map(p -> p.cluster + " (" + p.reason + ")").collect(Collectors.joining(", "));
  }

  private static ControllerFacts facts(Controller controller) {
    return new ControllerFacts(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getStatus() == null || controller.getStatus().phase == null ? ""
            : controller.getStatus().phase.name(), controller.getMetadata().getLabels());
  }

  private static String name(BroodOperation operation) {
    return operation.getMetadata().getNamespace() + "/" + operation.getMetadata().getName();
  }
}

package dev.varroa.operator.brood;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** The strategy's arithmetic: how many targets may be in flight, which start next, when the run is over. Pure. */
public final class BroodProgress {
  public static final String STOP_ON_FIRST_FAILURE = "StopOnFirstFailure";
  public static final String CONTINUE = "Continue";
  public static final String STOP_AFTER_FAILURES = "StopAfterFailures";
  /** Phases that hold one of the maxConcurrent slots: the target's steps are under way, or may be (Unknown). */
  static final Set<TargetPhase> IN_FLIGHT = EnumSet.of(TargetPhase.Running, TargetPhase.Paused, TargetPhase.Unknown);
  static final Set<TargetPhase> FINISHED = EnumSet.of(TargetPhase.Succeeded, TargetPhase.Failed, TargetPhase.Cancelled);

  private BroodProgress() {}

  /** maxConcurrent as a count: a number as given, a percentage of the targets rounded down but at least 1. */
  public static int concurrency(BroodOperationSpec.Strategy strategy, int targets) {
    IntOrString max = strategy == null ? null : strategy.maxConcurrent;
    if (max == null) {
      return BroodOperationSpec.DEFAULT_MAX_CONCURRENT;
    }
    if (max.getIntVal() != null) {
      return Math.max(1, max.getIntVal());
    }
    String text = max.getStrVal().trim();
    if (text.endsWith("%")) {
      int percent = Integer.parseInt(text.substring(0, text.length() - 1));
      return Math.max(1, targets * percent / 100);
    }
    return Math.max(1, Integer.parseInt(text));
  }

  public static String failurePolicy(BroodOperationSpec.Strategy strategy) {
    return strategy == null || strategy.failurePolicy == null ? STOP_ON_FIRST_FAILURE : strategy.failurePolicy;
  }

  /** True once the failures the policy tolerates are used up: no further target starts. */
  public static boolean stoppedByFailures(BroodOperationSpec.Strategy strategy, List<Target> targets) {
    long failed = count(targets, TargetPhase.Failed);
    return switch (failurePolicy(strategy)) {
      case CONTINUE -> false;
      case STOP_AFTER_FAILURES -> failed >= (strategy.maxFailures == null ? 1 : strategy.maxFailures);
      default -> failed >= 1;
    };
  }

  /** Indexes of the Pending targets to start now, in run order, within the free slots. */
  public static List<Integer> toStart(BroodOperationSpec spec, List<Target> targets) {
    List<Integer> start = new ArrayList<>();
    if (Boolean.TRUE.equals(spec.suspend) || Boolean.TRUE.equals(spec.cancel)
        || stoppedByFailures(spec.strategy, targets)) {
      return start;
    }
    int free = concurrency(spec.strategy, targets.size()) - (int) targets.stream()
        .filter(t -> IN_FLIGHT.contains(t.phase)).count();
    for (int i = 0; i < targets.size() && start.size() < free; i++) {
      if (targets.get(i).phase == TargetPhase.Pending) {
        start.add(i);
      }
    }
    return start;
  }

  public static long count(List<Target> targets, TargetPhase phase) {
    return targets.stream().filter(t -> t.phase == phase).count();
  }

  public static BroodOperationStatus.Counts counts(List<Target> targets) {
    BroodOperationStatus.Counts counts = new BroodOperationStatus.Counts();
    counts.total = targets.size();
    counts.pending = (int) count(targets, TargetPhase.Pending);
    counts.running = (int) count(targets, TargetPhase.Running);
    counts.paused = (int) count(targets, TargetPhase.Paused);
    counts.succeeded = (int) count(targets, TargetPhase.Succeeded);
    counts.failed = (int) count(targets, TargetPhase.Failed);
    counts.unknown = (int) count(targets, TargetPhase.Unknown);
    counts.cancelled = (int) count(targets, TargetPhase.Cancelled);
    return counts;
  }

  /** True when no target is in flight and none will start: the run is over. */
  public static boolean over(BroodOperationSpec spec, List<Target> targets) {
    boolean inFlight = targets.stream().anyMatch(t -> IN_FLIGHT.contains(t.phase));
    if (inFlight) {
      return false;
    }
    boolean pending = targets.stream().anyMatch(t -> t.phase == TargetPhase.Pending);
    return !pending || Boolean.TRUE.equals(spec.cancel) || stoppedByFailures(spec.strategy, targets);
  }
}

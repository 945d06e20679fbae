package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.HomeStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of the home step in one pass.
 *
 * @param home status.home as it now reads
 * @param workload what the apply step may do with the StatefulSet
 * @param conditions RestoreFailed or HomeMoveFailed as this pass sets them (the others carry over); the Controller's
 *     status aggregator writes them
 * @param recheck when to look again: restores and moves wait on objects no informer watches (Jobs, snapshots, volumes)
 */
public record HomePass(HomeStatus home, HomeWorkload workload, List<Condition> conditions, Optional<Duration> recheck) {
  public HomePass {
    conditions = List.copyOf(conditions);
  }

  /** The earlier of two rechecks. */
  public Optional<Duration> recheckBefore(Optional<Duration> other) {
    if (recheck.isEmpty()) {
      return other;
    }
    return other.isEmpty() || recheck.get().compareTo(other.get()) < 0 ? recheck : other;
  }
}

package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.status.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of the home step in one pass.
 *
 * @param home status.home as it now reads
 * @param workload what the apply step may do with the StatefulSet
 * @param conditions RestoreFailed or HomeMoveFailed as this pass sets them (the others carry over)
 * @param recheck when to look again: restores and moves wait on objects no informer watches (Jobs, snapshots, volumes)
 */
public record HomePass(HomeStatus home, HomeWorkload workload, List<Condition> conditions, Optional<Duration> recheck) {
  public HomePass {
    conditions = List.copyOf(conditions);
  }

  /**
   * A copy of {@code previous} with this pass's status.home and conditions, for the status aggregator, which carries
   * both over. A condition keeps its lastTransitionTime while its status stays the same.
   */
  public ControllerStatus applyTo(ControllerStatus previous, long generation, Instant now) {
    ControllerStatus status = HomeStatusCopy.of(previous);
    status.home = home;
    if (conditions.isEmpty()) {
      return status;
    }
    Conditions set = new Conditions(previous.conditions, generation, now.toString());
    conditions.forEach(c -> set.set(c.type, c.status, c.reason, c.message));
    List<Condition> all = new ArrayList<>();
    if (previous.conditions != null) {
      previous.conditions.stream().filter(c -> conditions.stream().noneMatch(n -> n.type.equals(c.type)))
          .forEach(all::add);
    }
    all.addAll(set.build());
    status.conditions = all;
    return status;
  }

  /** The earlier of two rechecks. */
  public Optional<Duration> recheckBefore(Optional<Duration> other) {
    if (recheck.isEmpty()) {
      return other;
    }
    return other.isEmpty() || recheck.get().compareTo(other.get()) < 0 ? recheck : other;
  }
}

package dev.varroa.operator.status;

import dev.varroa.api.v1alpha1.Condition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Builds a status condition list the GitOps way: a condition keeps its lastTransitionTime while its
 * status stays the same, so re-setting an unchanged condition changes nothing and writes nothing.
 */
public final class Conditions {
  private final List<Condition> previous;
  private final List<Condition> next = new ArrayList<>();
  private final long generation;
  private final String now;

  /**
   * @param previous the conditions currently in status
   * @param generation metadata.generation the new conditions describe
   * @param now the transition time to stamp on conditions whose status changes (RFC 3339)
   */
  public Conditions(List<Condition> previous, long generation, String now) {
    this.previous = previous == null ? List.of() : previous;
    this.generation = generation;
    this.now = now;
  }

  public Conditions set(String type, Condition.Status status, String reason, String message) {
    Condition condition = new Condition(type, status, reason, message);
    condition.observedGeneration = generation;
    condition.lastTransitionTime = previous.stream()
        .filter(c -> type.equals(c.type) && c.status == status)
        .map(c -> c.lastTransitionTime)
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(now);
    next.add(condition);
    return this;
  }

  /**
   * Sets Ready, Reconciling and Stalled together from one state, the one way every reconciler sets the trio; each
   * condition carries its own reason and message.
   */
  public Conditions kstatus(Kstatus state, Kstatus.Wording ready, Kstatus.Wording reconciling,
      Kstatus.Wording stalled) {
    return set(Condition.READY, state.ready(), ready.reason(), ready.message())
        .set(Condition.RECONCILING, state.reconciling(), reconciling.reason(), reconciling.message())
        .set(Condition.STALLED, state.stalled(), stalled.reason(), stalled.message());
  }

  /** The trio with one reason and message on all three. */
  public Conditions kstatus(Kstatus state, String reason, String message) {
    Kstatus.Wording same = new Kstatus.Wording(reason, message);
    return kstatus(state, same, same, same);
  }

  public List<Condition> build() {
    return List.copyOf(next);
  }
}

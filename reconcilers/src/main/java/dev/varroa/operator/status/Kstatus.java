package dev.varroa.operator.status;

import dev.varroa.api.v1alpha1.Condition;

/**
 * Where an object stands in the GitOps (kstatus) vocabulary, as the statuses of Ready, Reconciling and Stalled. At most
 * one of the three is True, so Argo CD and Flux never read a contradiction; {@link Conditions#kstatus} sets all three.
 */
public record Kstatus(Condition.Status ready, Condition.Status reconciling, Condition.Status stalled) {
  /** Up to date and usable. */
  public static final Kstatus READY = new Kstatus(Condition.Status.True, Condition.Status.False, Condition.Status.False);
  /** Under way, or retrying something that may heal by itself. */
  public static final Kstatus RECONCILING =
      new Kstatus(Condition.Status.False, Condition.Status.True, Condition.Status.False);
  /** Needs a person: nothing changes until the fix the message names is made. */
  public static final Kstatus STALLED = new Kstatus(Condition.Status.False, Condition.Status.False, Condition.Status.True);

  /** Not reconciled on purpose (spec.suspend): neither reconciling nor stalled; Ready says what it last was. */
  public static Kstatus suspended(Condition.Status ready) {
    return new Kstatus(ready, Condition.Status.False, Condition.Status.False);
  }

  /** The reason and message one of the three conditions carries. */
  public record Wording(String reason, String message) {}
}

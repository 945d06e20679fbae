package dev.varroa.operator.actions;

import java.util.Arrays;

/** Where a cluster's drain stands, as ClusterPresence.drain_state and docs/actions.md spell it. */
public enum DrainState {
  /** No drain was ever asked for (or the state was cleared). */
  NONE(""),
  /** Deleting the cluster's Controllers one by one. */
  DRAINING("Draining"),
  /** Every Controller is gone. */
  DRAINED("Drained"),
  /** A drain was cancelled: what was deleted stays deleted, the rest stays. */
  CANCELLED("DrainCancelled");

  private final String value;

  DrainState(String value) {
    this.value = value;
  }

  public String value() {
    return value;
  }

  /** The state stored under this value; an unknown value (a newer operator's) reads as no drain. */
  public static DrainState of(String value) {
    return Arrays.stream(values()).filter(s -> s.value.equals(value)).findFirst().orElse(NONE);
  }
}

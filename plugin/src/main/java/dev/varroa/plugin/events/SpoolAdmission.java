package dev.varroa.plugin.events;

/** What the spool did with one event. */
public sealed interface SpoolAdmission {

  /** Written to the spool; it stays there until the mite acknowledges it. */
  record Spooled(RunSequence key) implements SpoolAdmission {
  }

  /**
   * Not written: the spool is at {@code VARROA_SPOOL_BYTES}. The event's sequence number is used up, so the
   * gap in the run's numbers shows downstream where events were refused.
   */
  record RefusedAtCap(RunSequence key, long usedBytes, long capBytes) implements SpoolAdmission {
  }

  default boolean spooled() {
    return this instanceof Spooled;
  }
}

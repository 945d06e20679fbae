package dev.varroa.plugin.events;

/**
 * A look at the spool, for the glue to show and tests to check.
 *
 * @param pendingEvents events written and not yet acknowledged
 * @param usedBytes bytes on disk, the figure the cap bounds
 * @param capBytes {@code VARROA_SPOOL_BYTES}
 * @param refusedAtCap events refused because the spool was full, since Jenkins started
 */
public record SpoolStatus(long pendingEvents, long usedBytes, long capBytes, long refusedAtCap) {

  /** {@code {"pendingEvents":N,"usedBytes":N,"capBytes":N,"refusedAtCap":N}} for {@code GET /varroa/spool}. */
  public String toJson() {
    return "{\"pendingEvents\":" + pendingEvents + ",\"usedBytes\":" + usedBytes + ",\"capBytes\":" + capBytes
        + ",\"refusedAtCap\":" + refusedAtCap + "}";
  }
}

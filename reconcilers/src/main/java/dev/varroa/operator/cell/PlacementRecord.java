package dev.varroa.operator.cell;

import java.time.Instant;
import java.util.List;

/** Where a pool's placement is recorded: the core record store's team_placements table (docs/cells.md). */
public interface PlacementRecord {
  /** One placed team: its cell, and since when it is there. */
  record Entry(String team, String cell, Instant since) {}

  /** Records the whole placement of one pool; false when it could not be recorded now (the pool tries again). */
  boolean record(String namespace, String pool, List<Entry> placements);

  /** An operator without a bus records nothing. */
  PlacementRecord NONE = (namespace, pool, placements) -> true;
}

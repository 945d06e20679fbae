package dev.varroa.operator.cell;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Where a pool's placement is recorded: the core record store's team_placements table (docs/cells.md). */
public interface PlacementRecord {
  /** One placed team: the cell hosting it and since when (Team status.placedSince). */
  record Entry(String team, String cell, Instant since) {}

  /** Records the whole placement of one pool: empty when recorded, else why not (the pool tries again). */
  Optional<String> record(String namespace, String pool, List<Entry> placements);

  /** An operator without a bus records nothing. */
  PlacementRecord NONE = (namespace, pool, placements) -> Optional.empty();
}

package dev.varroa.recorder.store;

import dev.varroa.protocol.bus.v1.TeamPlacement;
import dev.varroa.protocol.bus.v1.TeamPlacements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Replaces one CellPool's rows of team_placements with the snapshot its cluster's operator sent, in one transaction:
 * teams missing from the snapshot are deleted, the others written with the cell and since the operator gave.
 */
public final class TeamPlacementWriter {

  /** What the replace did; a repeated snapshot writes and deletes nothing. */
  public record Outcome(int written, int deleted) {}

  private static final String DELETE_GONE = """
      DELETE FROM team_placements
      WHERE cluster = ? AND namespace = ? AND pool = ? AND NOT (team = ANY (?))""";
  // A row that already says the same is left alone, so recorded_at tells when the placement last changed.
  private static final String UPSERT = """
      INSERT INTO team_placements (cluster, namespace, team, pool, cell, since)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (cluster, namespace, team) DO UPDATE
        SET pool = EXCLUDED.pool, cell = EXCLUDED.cell, since = EXCLUDED.since, recorded_at = now()
        WHERE (team_placements.pool, team_placements.cell, team_placements.since)
          IS DISTINCT FROM (EXCLUDED.pool, EXCLUDED.cell, EXCLUDED.since)""";

  private final DataSource dataSource;

  public TeamPlacementWriter(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** What is wrong with the snapshot, naming the field and the fix; empty when it can be recorded. */
  public static Optional<String> problem(TeamPlacements snapshot) {
    if (snapshot.getCluster().isEmpty()) {
      return Optional.of("TeamPlacements.cluster is empty: set it to the operator's VARROA_CLUSTER_NAME");
    }
    if (snapshot.getNamespace().isEmpty() || snapshot.getPool().isEmpty()) {
      return Optional.of("TeamPlacements of cluster " + snapshot.getCluster()
          + " names no CellPool: set namespace and pool");
    }
    String pool = snapshot.getCluster() + "/" + snapshot.getNamespace() + "/" + snapshot.getPool();
    Set<String> teams = new HashSet<>();
    for (TeamPlacement placement : snapshot.getPlacementsList()) {
      if (placement.getTeam().isEmpty()) {
        return Optional.of("a placement of CellPool " + pool + " has an empty team: name the Team");
      }
      if (placement.getCell().isEmpty()) {
        return Optional.of("placement of team " + placement.getTeam() + " in CellPool " + pool
            + " has an empty cell: send only placed teams");
      }
      if (placement.getSinceEpochMillis() <= 0) {
        return Optional.of("placement of team " + placement.getTeam() + " in CellPool " + pool
            + " has no since_epoch_millis: send the Team's status.placedSince");
      }
      if (!teams.add(placement.getTeam())) {
        return Optional.of("team " + placement.getTeam() + " is placed twice in CellPool " + pool
            + ": send each team once");
      }
    }
    return Optional.empty();
  }

  /** Replaces the pool's rows; call {@link #problem} first. */
  public Outcome replace(TeamPlacements snapshot) throws SQLException {
    try (Connection connection = dataSource.getConnection()) {
      try {
        // two recorders taking two snapshots of one pool at once apply them one after the other
        try (PreparedStatement lock = connection.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
          lock.setString(1, "team_placements/" + snapshot.getCluster() + "/" + snapshot.getNamespace() + "/"
              + snapshot.getPool());
          lock.execute();
        }
        int deleted;
        try (PreparedStatement delete = connection.prepareStatement(DELETE_GONE)) {
          delete.setString(1, snapshot.getCluster());
          delete.setString(2, snapshot.getNamespace());
          delete.setString(3, snapshot.getPool());
          delete.setArray(4, connection.createArrayOf("text",
              snapshot.getPlacementsList().stream().map(TeamPlacement::getTeam).toArray(String[]::new)));
          deleted = delete.executeUpdate();
        }
        int written = 0;
        try (PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
          for (TeamPlacement placement : snapshot.getPlacementsList()) {
            upsert.setString(1, snapshot.getCluster());
            upsert.setString(2, snapshot.getNamespace());
            upsert.setString(3, placement.getTeam());
            upsert.setString(4, snapshot.getPool());
            upsert.setString(5, placement.getCell());
            upsert.setObject(6, OffsetDateTime.ofInstant(Instant.ofEpochMilli(placement.getSinceEpochMillis()),
                ZoneOffset.UTC));
            written += upsert.executeUpdate();
          }
        }
        connection.commit();
        return new Outcome(written, deleted);
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    }
  }
}

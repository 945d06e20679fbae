package dev.varroa.recorder.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads team_placements: which cell of which CellPool hosts each Team, per cluster. For the /cells page and for
 * finding the cell a build for a team needs awake.
 */
public final class TeamPlacementReader {

  /** One placed team. */
  public record Placement(String cluster, String namespace, String pool, String cell, String team, Instant since,
      Instant recordedAt) {}

  private static final String COLUMNS = "SELECT cluster, namespace, pool, cell, team, since, recorded_at"
      + " FROM team_placements";
  private static final String ORDER = " ORDER BY cluster, namespace, pool, cell, team";

  private final DataSource dataSource;

  public TeamPlacementReader(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** Every placement of one cluster, by namespace, pool, cell and team. */
  public List<Placement> inCluster(String cluster) throws SQLException {
    return query(COLUMNS + " WHERE cluster = ?" + ORDER, cluster);
  }

  /** Every placement in one namespace of one cluster, by pool, cell and team. */
  public List<Placement> inNamespace(String cluster, String namespace) throws SQLException {
    return query(COLUMNS + " WHERE cluster = ? AND namespace = ?" + ORDER, cluster, namespace);
  }

  /** The placement of one team, when it is placed. */
  public Optional<Placement> ofTeam(String cluster, String namespace, String team) throws SQLException {
    return query(COLUMNS + " WHERE cluster = ? AND namespace = ? AND team = ?", cluster, namespace, team).stream()
        .findFirst();
  }

  private List<Placement> query(String sql, String... values) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setString(i + 1, values[i]);
      }
      List<Placement> placements = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          placements.add(new Placement(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
              rows.getString(5), rows.getObject(6, OffsetDateTime.class).toInstant(),
              rows.getObject(7, OffsetDateTime.class).toInstant()));
        }
      }
      return placements;
    }
  }
}

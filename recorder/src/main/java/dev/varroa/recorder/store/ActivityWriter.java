package dev.varroa.recorder.store;

import dev.varroa.protocol.activity.v1.ActivityEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Writes a batch of activity events into the {@code activity} table in one transaction. The event id is the key:
 * an event delivered or published twice is stored once ({@code ON CONFLICT DO NOTHING}).
 */
public final class ActivityWriter {

  // jsonb_object builds the attributes from two text arrays: no JSON is written by hand here.
  private static final String INSERT = """
      INSERT INTO activity (id, cluster, namespace, controller, kind, actor, summary, occurred_at, attributes)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, jsonb_object(?::text[], ?::text[]))
      ON CONFLICT (id) DO NOTHING""";

  private final DataSource dataSource;
  private final String clusterName;

  /** @param clusterName recorded for an event that names no cluster (VARROA_CLUSTER_NAME) */
  public ActivityWriter(DataSource dataSource, String clusterName) {
    this.dataSource = dataSource;
    this.clusterName = clusterName;
  }

  /**
   * Why an event cannot be stored, or empty when it can: a malformed event is refused (and terminated by the
   * consumer) rather than failing the batch it came in.
   */
  public static Optional<String> problem(ActivityEvent event) {
    try {
      UUID.fromString(event.getId());
    } catch (IllegalArgumentException e) {
      return Optional.of("the event id '" + event.getId() + "' is not a UUID");
    }
    if (event.getKind().isBlank()) {
      return Optional.of("event " + event.getId() + " has no kind");
    }
    return Optional.empty();
  }

  /** Stores the events (each passed {@link #problem}); returns how many were new. */
  public int write(List<ActivityEvent> events) throws SQLException {
    if (events.isEmpty()) {
      return 0;
    }
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
        for (ActivityEvent event : events) {
          List<Map.Entry<String, String>> attributes = List.copyOf(event.getAttributesMap().entrySet());
          insert.setObject(1, UUID.fromString(event.getId()));
          insert.setString(2, event.getCluster().isBlank() ? clusterName : event.getCluster());
          insert.setString(3, event.getNamespace());
          insert.setString(4, event.getController());
          insert.setString(5, event.getKind());
          insert.setString(6, event.getActor());
          insert.setString(7, event.getSummary());
          insert.setObject(8, OffsetDateTime.ofInstant(Instant.ofEpochMilli(event.getOccurredAtEpochMillis()),
              ZoneOffset.UTC));
          insert.setArray(9, connection.createArrayOf("text",
              attributes.stream().map(Map.Entry::getKey).toArray()));
          insert.setArray(10, connection.createArrayOf("text",
              attributes.stream().map(Map.Entry::getValue).toArray()));
          insert.addBatch();
        }
        int inserted = 0;
        for (int count : insert.executeBatch()) {
          inserted += Math.max(count, 0);
        }
        connection.commit();
        return inserted;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    }
  }
}

package dev.varroa.dashboard.records;

import dev.varroa.dashboard.activity.ActivityItem;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * deps.Backfill of seed 001's activity path: GET /activity and MCP list_activity read the recorder's {@code activity}
 * table through it, newest first. Without a record store it answers empty ({@link #disabled()}).
 *
 * <p>The caller's authorization is a filter over each event's scope; denied rows are skipped and the table is read on
 * page after page until the answer holds {@code limit} allowed events or the table has no more, so a caller allowed
 * only a few controllers still gets a full page.
 */
public final class Backfill {

  /** Rows read per round trip; at least the limit, so a caller allowed everything gets its page in one. */
  static final int PAGE_ROWS = 250;

  // Attributes come back as two aligned arrays (key order): no JSON is parsed here.
  private static final String COLUMNS = """
      SELECT id::text AS id, cluster, namespace, controller, kind, actor, summary, occurred_at,
             ARRAY(SELECT key FROM jsonb_each_text(attributes) ORDER BY key) AS attribute_keys,
             ARRAY(SELECT value FROM jsonb_each_text(attributes) ORDER BY key) AS attribute_values
      FROM activity""";

  private final Optional<DataSource> dataSource;

  public Backfill(DataSource dataSource) {
    this.dataSource = Optional.of(dataSource);
  }

  private Backfill() {
    this.dataSource = Optional.empty();
  }

  /** The backfill of an installation without a record store: every query answers no events. */
  public static Backfill disabled() {
    return new Backfill();
  }

  /** Whether events come from a record store: GET /activity's {@code recordStore}. */
  public boolean recordStore() {
    return dataSource.isPresent();
  }

  /**
   * Up to {@code query.limit()} events matching the query whose scope {@code allowed} accepts, newest first
   * (occurredAt, then id, descending).
   */
  public List<ActivityItem> events(ActivityQuery query, Predicate<ControllerScope> allowed) throws SQLException {
    if (dataSource.isEmpty()) {
      return List.of();
    }
    List<ActivityItem> page = new ArrayList<>();
    int pageRows = Math.max(PAGE_ROWS, query.limit());
    ActivityItem last = null;
    try (Connection connection = dataSource.get().getConnection()) {
      // A repeatable snapshot: rows drained by the recorder meanwhile never shift the pages under us.
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try {
        while (page.size() < query.limit()) {
          List<ActivityItem> rows = read(connection, query, last, pageRows);
          for (ActivityItem row : rows) {
            if (allowed.test(row.scope())) {
              page.add(row);
              if (page.size() == query.limit()) {
                break;
              }
            }
          }
          if (rows.size() < pageRows) {
            break;
          }
          last = rows.get(rows.size() - 1);
        }
      } finally {
        connection.rollback();
      }
    }
    return page;
  }

  private static List<ActivityItem> read(Connection connection, ActivityQuery query, ActivityItem after, int rows)
      throws SQLException {
    StringBuilder sql = new StringBuilder(COLUMNS).append(" WHERE true");
    List<Object> parameters = new ArrayList<>();
    equal(sql, parameters, "cluster", query.cluster());
    equal(sql, parameters, "namespace", query.namespace());
    equal(sql, parameters, "controller", query.controller());
    if (query.since() != null) {
      sql.append(" AND occurred_at >= ?");
      parameters.add(OffsetDateTime.ofInstant(query.since(), ZoneOffset.UTC));
    }
    if (after != null) {
      // Keyset paging: the next page starts strictly after the last row of this one in (occurred_at, id) order.
      sql.append(" AND (occurred_at, id) < (?, ?::uuid)");
      parameters.add(OffsetDateTime.ofInstant(after.occurredAt(), ZoneOffset.UTC));
      parameters.add(after.id());
    }
    sql.append(" ORDER BY occurred_at DESC, id DESC LIMIT ?");
    parameters.add(rows);
    try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
      for (int i = 0; i < parameters.size(); i++) {
        statement.setObject(i + 1, parameters.get(i));
      }
      try (ResultSet result = statement.executeQuery()) {
        List<ActivityItem> items = new ArrayList<>();
        while (result.next()) {
          items.add(new ActivityItem(result.getString("id"), result.getString("cluster"),
              result.getString("namespace"), result.getString("controller"), result.getString("kind"),
              result.getString("actor"), result.getString("summary"),
              result.getObject("occurred_at", OffsetDateTime.class).toInstant(),
              attributes(result.getArray("attribute_keys"), result.getArray("attribute_values"))));
        }
        return items;
      }
    }
  }

  static void equal(StringBuilder sql, List<Object> parameters, String column, Object value) {
    if (value != null) {
      sql.append(" AND ").append(column).append(" = ?");
      parameters.add(value);
    }
  }

  private static Map<String, String> attributes(Array keys, Array values) throws SQLException {
    String[] k = (String[]) keys.getArray();
    String[] v = (String[]) values.getArray();
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < k.length; i++) {
      attributes.put(k[i], v[i]);
    }
    return attributes;
  }
}

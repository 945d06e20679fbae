package dev.varroa.dashboard.records;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The fleet's builds per hour, from table runs: completed builds by result (by the hour they completed) and
 * queue-to-start time p50/p95 (by the hour they started), over the runs of the Controllers the caller may see. The
 * percentiles are PostgreSQL's {@code percentile_cont} (linear between the two nearest ranks).
 */
public final class BuildStatistics {

  public static final Duration BUCKET = Duration.ofHours(1);
  public static final int DEFAULT_HOURS = 24;
  public static final int MAX_HOURS = 168;
  /** A completed run without a result event. */
  public static final String NO_RESULT = "UNKNOWN";

  // Jenkins' queued time when the start event carried it, else what the two timestamps say.
  private static final String QUEUE_MILLIS = "GREATEST(COALESCE(r.queued_millis, "
      + "(extract(epoch FROM r.started_at - r.queued_at) * 1000)::bigint), 0)";
  private static final String ALLOWED = " JOIN unnest(?::text[], ?::text[], ?::text[]) AS allowed(cluster, namespace, "
      + "controller_name) ON allowed.cluster = r.cluster AND allowed.namespace = r.namespace "
      + "AND allowed.controller_name = r.controller_name";

  private final DataSource dataSource;

  public BuildStatistics(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** One hour: completed builds by result, how many started and their queue-to-start p50/p95 (null: none). */
  public record Hour(Instant start, Map<String, Long> completed, long started, Long queueP50Millis,
      Long queueP95Millis) {}

  /** Queue-to-start over the whole window. */
  public record Queue(long started, Long p50Millis, Long p95Millis) {}

  /** The window [from, until) in hourly buckets, the last one holding now. */
  public record Window(Instant from, Instant until, List<Hour> hours, Queue queue) {}

  /** The hours up to the one holding {@code now}, {@code hours} of them (1..{@value #MAX_HOURS}). */
  public Window hourly(Instant now, int hours, Predicate<ControllerScope> allowed) throws SQLException {
    if (hours < 1 || hours > MAX_HOURS) {
      throw new InvalidParameterException("hours", "hours must be between 1 and " + MAX_HOURS + ", got " + hours);
    }
    Instant until = now.truncatedTo(ChronoUnit.HOURS).plus(BUCKET);
    Instant from = until.minus(BUCKET.multipliedBy(hours));
    List<Map<String, Long>> completed = new ArrayList<>();
    long[] started = new long[hours];
    Long[] p50 = new Long[hours];
    Long[] p95 = new Long[hours];
    for (int i = 0; i < hours; i++) {
      completed.add(new TreeMap<>());
    }
    Queue queue = new Queue(0, null, null);
    try (Connection connection = dataSource.getConnection()) {
      // One snapshot: the controllers read first are the ones the sums below cover.
      connection.setAutoCommit(false);
      connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
      try {
        List<ControllerScope> seen = allowedControllers(connection, from, until, allowed);
        if (!seen.isEmpty()) {
          Array[] keys = keys(connection, seen);
          readCompleted(connection, keys, from, until, completed);
          queue = readQueue(connection, keys, from, until, started, p50, p95);
        }
      } finally {
        connection.rollback();
      }
    }
    List<Hour> out = new ArrayList<>();
    for (int i = 0; i < hours; i++) {
      out.add(new Hour(from.plus(BUCKET.multipliedBy(i)), completed.get(i), started[i], p50[i], p95[i]));
    }
    return new Window(from, until, out, queue);
  }

  private static List<ControllerScope> allowedControllers(Connection connection, Instant from, Instant until,
      Predicate<ControllerScope> allowed) throws SQLException {
    List<ControllerScope> out = new ArrayList<>();
    try (PreparedStatement statement = connection.prepareStatement("SELECT DISTINCT cluster, namespace, "
        + "controller_name FROM runs WHERE (completed_at >= ? AND completed_at < ?) "
        + "OR (started_at >= ? AND started_at < ?)")) {
      statement.setObject(1, utc(from));
      statement.setObject(2, utc(until));
      statement.setObject(3, utc(from));
      statement.setObject(4, utc(until));
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          ControllerScope scope = new ControllerScope(rows.getString(1), rows.getString(2), rows.getString(3));
          if (allowed.test(scope)) {
            out.add(scope);
          }
        }
      }
    }
    return out;
  }

  private static void readCompleted(Connection connection, Array[] keys, Instant from, Instant until,
      List<Map<String, Long>> completed) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT floor(extract(epoch FROM r.completed_at "
        + "- ?::timestamptz) / 3600)::int AS bucket, COALESCE(r.result, '" + NO_RESULT + "') AS result, count(*) "
        + "FROM runs r" + ALLOWED + " WHERE r.completed_at >= ? AND r.completed_at < ? GROUP BY 1, 2")) {
      statement.setObject(1, utc(from));
      bindKeys(statement, 2, keys);
      statement.setObject(5, utc(from));
      statement.setObject(6, utc(until));
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          completed.get(rows.getInt(1)).put(rows.getString(2), rows.getLong(3));
        }
      }
    }
  }

  private static Queue readQueue(Connection connection, Array[] keys, Instant from, Instant until, long[] started,
      Long[] p50, Long[] p95) throws SQLException {
    Queue whole = new Queue(0, null, null);
    // GROUPING SETS: one row per hour and one (bucket NULL) for the whole window, from the same rows.
    try (PreparedStatement statement = connection.prepareStatement("SELECT bucket, count(*), "
        + "percentile_cont(0.5) WITHIN GROUP (ORDER BY queue_millis), "
        + "percentile_cont(0.95) WITHIN GROUP (ORDER BY queue_millis) FROM (SELECT floor(extract(epoch FROM "
        + "r.started_at - ?::timestamptz) / 3600)::int AS bucket, " + QUEUE_MILLIS + " AS queue_millis FROM runs r"
        + ALLOWED + " WHERE r.started_at >= ? AND r.started_at < ?) s WHERE queue_millis IS NOT NULL "
        + "GROUP BY GROUPING SETS ((bucket), ())")) {
      statement.setObject(1, utc(from));
      bindKeys(statement, 2, keys);
      statement.setObject(5, utc(from));
      statement.setObject(6, utc(until));
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          int bucket = rows.getInt(1);
          boolean all = rows.wasNull();
          long count = rows.getLong(2);
          Long median = Math.round(rows.getDouble(3));
          Long high = Math.round(rows.getDouble(4));
          if (all) {
            whole = new Queue(count, median, high);
          } else {
            started[bucket] = count;
            p50[bucket] = median;
            p95[bucket] = high;
          }
        }
      }
    }
    return whole;
  }

  private static Array[] keys(Connection connection, List<ControllerScope> scopes) throws SQLException {
    return new Array[] {
        connection.createArrayOf("text", scopes.stream().map(ControllerScope::cluster).toArray()),
        connection.createArrayOf("text", scopes.stream().map(ControllerScope::namespace).toArray()),
        connection.createArrayOf("text", scopes.stream().map(ControllerScope::controller).toArray())};
  }

  private static void bindKeys(PreparedStatement statement, int first, Array[] keys) throws SQLException {
    for (int i = 0; i < keys.length; i++) {
      statement.setArray(first + i, keys[i]);
    }
  }

  /** The window as the API shows it (docs/dashboard-api.md, "Build statistics"). */
  public static Map<String, Object> view(Window window) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("from", window.from().toString());
    out.put("until", window.until().toString());
    out.put("bucketSeconds", BUCKET.toSeconds());
    List<Map<String, Object>> hours = new ArrayList<>();
    for (Hour hour : window.hours()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("start", hour.start().toString());
      one.put("completed", hour.completed());
      one.put("started", hour.started());
      one.put("queueP50Millis", hour.queueP50Millis());
      one.put("queueP95Millis", hour.queueP95Millis());
      hours.add(one);
    }
    out.put("hours", hours);
    Map<String, Object> queue = new LinkedHashMap<>();
    queue.put("started", window.queue().started());
    queue.put("p50Millis", window.queue().p50Millis());
    queue.put("p95Millis", window.queue().p95Millis());
    out.put("queue", queue);
    return out;
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }
}

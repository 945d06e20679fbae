package dev.varroa.dashboard.records;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import javax.sql.DataSource;

/**
 * The runs the recorder wrote (tables runs, stages, test_summaries): GET /runs, GET /runs/{runId}, the runs of
 * GET /search, and where a run's console log is. Authorization is the caller's filter over each run's scope; lists
 * skip denied rows and keep reading until the page is full, like {@link Backfill}.
 */
public final class RunRecords {

  /** Rows read per round trip of a filtered list. */
  static final int PAGE_ROWS = 250;
  /** The most runs one search answers. */
  public static final int MAX_SEARCH_RESULTS = 50;

  // Newest first by when the run started, or, before it starts, when it was queued.
  private static final String SORT_KEY = "COALESCE(started_at, queued_at, first_recorded_at)";
  private static final String COLUMNS = "SELECT controller_uid, run_id, cluster, namespace, controller_name, job, "
      + "build_number, result, cause, node, queued_at, started_at, completed_at, duration_millis, queued_millis, "
      + SORT_KEY + " AS sort_key FROM runs";

  private final DataSource dataSource;

  public RunRecords(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /** The job schedules the plugin reported (GET /broodschedules), in the same database. */
  public JobScheduleRecords jobSchedules() {
    return new JobScheduleRecords(dataSource);
  }

  /** The hourly figures over the same table (GET /statistics/runs). */
  public BuildStatistics statistics() {
    return new BuildStatistics(dataSource);
  }

  /** Up to {@code query.limit()} runs matching the query that {@code allowed} accepts, newest first. */
  public List<RunItem> runs(RunQuery query, Predicate<ControllerScope> allowed) throws SQLException {
    StringBuilder where = new StringBuilder(" WHERE true");
    List<Object> parameters = new ArrayList<>();
    Backfill.equal(where, parameters, "cluster", query.cluster());
    Backfill.equal(where, parameters, "namespace", query.namespace());
    Backfill.equal(where, parameters, "controller_name", query.controller());
    Backfill.equal(where, parameters, "job", query.job());
    Backfill.equal(where, parameters, "build_number", query.build());
    if (query.before() != null) {
      where.append(" AND ").append(SORT_KEY).append(" < ?");
      parameters.add(utc(query.before()));
    }
    return filtered(where.toString(), parameters, query.limit(), allowed);
  }

  /**
   * Runs whose job name contains text, ignoring case, newest first, at most {@code limit} (1..{@value
   * #MAX_SEARCH_RESULTS}); for GET /search.
   */
  public List<RunItem> searchByJob(String text, int limit, Predicate<ControllerScope> allowed) throws SQLException {
    if (text == null || text.isBlank()) {
      throw new InvalidParameterException("q", "q must name some text to search for");
    }
    if (limit < 1 || limit > MAX_SEARCH_RESULTS) {
      throw new InvalidParameterException("limit", "limit must be between 1 and " + MAX_SEARCH_RESULTS + ", got "
          + limit);
    }
    // strpos on lower(): the text is matched literally, so % and _ in it are no wildcards.
    List<Object> parameters = new ArrayList<>();
    parameters.add(text.strip().toLowerCase(Locale.ROOT));
    return filtered(" WHERE strpos(lower(job), ?) > 0", parameters, limit, allowed);
  }

  /** One run with its stages and tests; the newest allowed one when controllers share a run id. */
  public RecordLookup<RunDetail> run(String runId, Predicate<ControllerScope> allowed) throws SQLException {
    try (Connection connection = readOnly()) {
      try {
        Located located = locate(connection, runId, allowed);
        if (!(located.lookup() instanceof RecordLookup.Found<RunItem> found)) {
          return located.lookup() instanceof RecordLookup.Denied<RunItem> denied
              ? new RecordLookup.Denied<>(denied.scope()) : new RecordLookup.Missing<>();
        }
        return new RecordLookup.Found<>(new RunDetail(found.value(), stages(connection, located.controllerUid(), runId),
            tests(connection, located.controllerUid(), runId)));
      } finally {
        connection.rollback();
      }
    }
  }

  /** The run alone, for finding its console log. */
  public RecordLookup<RunItem> locate(String runId, Predicate<ControllerScope> allowed) throws SQLException {
    try (Connection connection = readOnly()) {
      try {
        return locate(connection, runId, allowed).lookup();
      } finally {
        connection.rollback();
      }
    }
  }

  private record Located(RecordLookup<RunItem> lookup, String controllerUid) {
  }

  private static Located locate(Connection connection, String runId, Predicate<ControllerScope> allowed)
      throws SQLException {
    if (runId == null || runId.isBlank()) {
      throw new InvalidParameterException("runId", "a run id is required");
    }
    try (PreparedStatement statement = connection.prepareStatement(COLUMNS + " WHERE run_id = ? ORDER BY sort_key "
        + "DESC, controller_uid DESC")) {
      statement.setString(1, runId);
      RunItem denied = null;
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          RunItem run = run(rows);
          if (allowed.test(run.scope())) {
            return new Located(new RecordLookup.Found<>(run), rows.getString("controller_uid"));
          }
          denied = denied == null ? run : denied;
        }
      }
      return new Located(denied == null ? new RecordLookup.Missing<>() : new RecordLookup.Denied<>(denied.scope()),
          null);
    }
  }

  private List<RunItem> filtered(String where, List<Object> parameters, int limit, Predicate<ControllerScope> allowed)
      throws SQLException {
    List<RunItem> page = new ArrayList<>();
    int pageRows = Math.max(PAGE_ROWS, limit);
    Cursor after = null;
    try (Connection connection = readOnly()) {
      try {
        while (page.size() < limit) {
          StringBuilder sql = new StringBuilder(COLUMNS).append(where);
          List<Object> values = new ArrayList<>(parameters);
          if (after != null) {
            sql.append(" AND (").append(SORT_KEY).append(", controller_uid, run_id) < (?, ?, ?)");
            values.add(utc(after.sortKey()));
            values.add(after.controllerUid());
            values.add(after.runId());
          }
          sql.append(" ORDER BY sort_key DESC, controller_uid DESC, run_id DESC LIMIT ?");
          values.add(pageRows);
          int read = 0;
          try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < values.size(); i++) {
              statement.setObject(i + 1, values.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
              while (rows.next()) {
                read++;
                RunItem run = run(rows);
                after = new Cursor(instant(rows, "sort_key"), rows.getString("controller_uid"), run.runId());
                if (page.size() < limit && allowed.test(run.scope())) {
                  page.add(run);
                }
              }
            }
          }
          if (read < pageRows) {
            break;
          }
        }
      } finally {
        connection.rollback();
      }
    }
    return page;
  }

  private record Cursor(Instant sortKey, String controllerUid, String runId) {
  }

  private Connection readOnly() throws SQLException {
    Connection connection = dataSource.getConnection();
    // One snapshot for every page, so rows the recorder writes meanwhile never shift them.
    connection.setAutoCommit(false);
    connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
    return connection;
  }

  private static RunItem run(ResultSet rows) throws SQLException {
    return new RunItem(rows.getString("run_id"), rows.getString("cluster"), rows.getString("namespace"),
        rows.getString("controller_name"), rows.getString("job"), nullableLong(rows, "build_number"),
        rows.getString("result"), rows.getString("cause"), rows.getString("node"), instant(rows, "queued_at"),
        instant(rows, "started_at"), instant(rows, "completed_at"), nullableLong(rows, "duration_millis"),
        nullableLong(rows, "queued_millis"));
  }

  private static List<RunDetail.Stage> stages(Connection connection, String controllerUid, String runId)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT stage_id, name, parallel_branch, status, "
        + "started_at, ended_at, duration_millis FROM stages WHERE controller_uid = ? AND run_id = ? "
        + "ORDER BY started_at NULLS LAST, name_sequence, stage_id")) {
      statement.setString(1, controllerUid);
      statement.setString(2, runId);
      List<RunDetail.Stage> stages = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery()) {
        while (rows.next()) {
          stages.add(new RunDetail.Stage(rows.getString("stage_id"), rows.getString("name"),
              rows.getString("parallel_branch"), rows.getString("status"), instant(rows, "started_at"),
              instant(rows, "ended_at"), nullableLong(rows, "duration_millis")));
        }
      }
      return stages;
    }
  }

  private static RunDetail.TestTotals tests(Connection connection, String controllerUid, String runId)
      throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT total, failed, skipped FROM test_summaries "
        + "WHERE controller_uid = ? AND run_id = ?")) {
      statement.setString(1, controllerUid);
      statement.setString(2, runId);
      try (ResultSet rows = statement.executeQuery()) {
        return rows.next() ? new RunDetail.TestTotals(rows.getInt("total"), rows.getInt("failed"),
            rows.getInt("skipped")) : null;
      }
    }
  }

  private static OffsetDateTime utc(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  private static Instant instant(ResultSet rows, String column) throws SQLException {
    OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static Long nullableLong(ResultSet rows, String column) throws SQLException {
    long value = rows.getLong(column);
    return rows.wasNull() ? null : value;
  }
}

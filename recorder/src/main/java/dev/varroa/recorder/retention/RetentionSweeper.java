package dev.varroa.recorder.retention;

import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStoreException;
import dev.varroa.recorder.store.DatabaseErrors;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes what is older than {@link RetentionRules} allow, every interval, in short bounded transactions so the
 * consumers writing the same tables never wait long. What ages by what (docs/build-logs.md "Retention"):
 * <ul>
 *   <li>a run by when it completed; a run that never completed by its last update, so a build that is still
 *       reporting is never swept and one abandoned mid-way goes once nothing was heard of it for the age;
 *       its run_events go with it (stages and test summaries follow by their foreign keys);</li>
 *   <li>a stage by when it ended (else started, else its run's age); a test summary by when it was reported
 *       (else its run's age);</li>
 *   <li>a claim by when it was granted, with the runs' age. The ledger's counter ({@code build_numbers}) is
 *       never touched: a number, once granted, is never granted again;</li>
 *   <li>activity by when it occurred; console logs by their last write ({@link LogStore#deleteWrittenBefore}).</li>
 * </ul>
 */
public final class RetentionSweeper implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RetentionSweeper.class);

  /** Rows deleted per transaction. */
  static final int BATCH = 1000;
  /** The first sweep runs this soon after start (or after one interval if shorter), not an interval later. */
  static final Duration FIRST_SWEEP_DELAY = Duration.ofMinutes(1);

  // Locked rows (a consumer writing that run right now) are skipped this time and swept next time.
  private static final String RUNS = """
      WITH doomed AS (
          SELECT controller_uid, run_id FROM runs
          WHERE COALESCE(completed_at, updated_at) < ?
          LIMIT ? FOR UPDATE SKIP LOCKED),
      gone_events AS (
          DELETE FROM run_events e USING doomed d
          WHERE e.controller_uid = d.controller_uid AND e.run_id = d.run_id RETURNING 1),
      gone_runs AS (
          DELETE FROM runs r USING doomed d
          WHERE r.controller_uid = d.controller_uid AND r.run_id = d.run_id RETURNING 1)
      SELECT (SELECT count(*) FROM gone_runs), (SELECT count(*) FROM gone_events)""";

  private static final String STAGES = """
      WITH doomed AS (
          SELECT s.controller_uid, s.run_id, s.stage_id FROM stages s
          JOIN runs r ON r.controller_uid = s.controller_uid AND r.run_id = s.run_id
          WHERE COALESCE(s.ended_at, s.started_at, r.completed_at, r.updated_at) < ?
          LIMIT ? FOR UPDATE OF s SKIP LOCKED)
      DELETE FROM stages s USING doomed d
      WHERE s.controller_uid = d.controller_uid AND s.run_id = d.run_id AND s.stage_id = d.stage_id""";

  private static final String TESTS = """
      WITH doomed AS (
          SELECT t.controller_uid, t.run_id FROM test_summaries t
          JOIN runs r ON r.controller_uid = t.controller_uid AND r.run_id = t.run_id
          WHERE COALESCE(t.reported_at, r.completed_at, r.updated_at) < ?
          LIMIT ? FOR UPDATE OF t SKIP LOCKED)
      DELETE FROM test_summaries t USING doomed d
      WHERE t.controller_uid = d.controller_uid AND t.run_id = d.run_id""";

  private static final String CLAIMS = """
      WITH doomed AS (
          SELECT controller_uid, run_id FROM claims WHERE granted_at < ?
          LIMIT ? FOR UPDATE SKIP LOCKED)
      DELETE FROM claims c USING doomed d
      WHERE c.controller_uid = d.controller_uid AND c.run_id = d.run_id""";

  // A requested pipeline run lives as long as the runs do: its status reads its run.
  private static final String PIPELINE_REQUESTS = """
      WITH doomed AS (
          SELECT request_id FROM pipeline_requests WHERE requested_at < ?
          LIMIT ? FOR UPDATE SKIP LOCKED)
      DELETE FROM pipeline_requests p USING doomed d WHERE p.request_id = d.request_id""";

  private static final String ACTIVITY = """
      WITH doomed AS (
          SELECT id FROM activity WHERE occurred_at < ?
          LIMIT ? FOR UPDATE SKIP LOCKED)
      DELETE FROM activity a USING doomed d WHERE a.id = d.id""";

  /** What one sweep deleted; logs is -1 when no log store is configured or logs are kept forever. */
  public record Swept(long runs, long runEvents, long stages, long testSummaries, long claims,
      long pipelineRequests, long activity, long logs) {
  }

  private final DataSource dataSource;
  private final RetentionRules rules;
  private final Optional<LogStore> logs;
  private final Clock clock;
  private final int batch;
  private final ScheduledExecutorService schedule = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-recorder-retention");
    thread.setDaemon(true);
    return thread;
  });
  private volatile boolean closing;

  /** @param logs the console log store, when one is configured (VARROA_BLOB_MODE) */
  public RetentionSweeper(DataSource dataSource, RetentionRules rules, Optional<LogStore> logs, Clock clock) {
    this(dataSource, rules, logs, clock, BATCH);
  }

  RetentionSweeper(DataSource dataSource, RetentionRules rules, Optional<LogStore> logs, Clock clock, int batch) {
    this.batch = batch;
    this.dataSource = dataSource;
    this.rules = rules;
    this.logs = logs;
    this.clock = clock;
  }

  /** Sweeps every interval from now on, the first time shortly after start. */
  public void start() {
    long first = Math.min(FIRST_SWEEP_DELAY.toMillis(), rules.interval().toMillis());
    schedule.scheduleWithFixedDelay(this::sweepLogged, first, rules.interval().toMillis(), TimeUnit.MILLISECONDS);
    LOG.info("event=retention_scheduled {} logStore={}", rules, logs.map(LogStore::tier).orElse("none"));
  }

  private void sweepLogged() {
    try {
      sweep();
    } catch (RuntimeException e) {
      // The schedule must survive whatever one sweep met.
      LOG.warn("event=retention_sweep_failed error=\"{}\"", String.valueOf(e.getMessage()).replace('"', '\''));
    }
  }

  /**
   * One sweep now. A database failure ends the database part (what was deleted stays deleted) and the log part
   * still runs; each failure is logged and the next interval tries again.
   */
  public Swept sweep() {
    Instant now = clock.instant();
    long started = System.nanoTime();
    long[] runs = {0, 0};
    long stages = 0;
    long tests = 0;
    long claims = 0;
    long pipelineRequests = 0;
    long activity = 0;
    long logsDeleted = -1;
    try {
      if (!rules.runs().isZero()) {
        runs = deleteRuns(now.minus(rules.runs()));
        claims = deleteInBatches(CLAIMS, now.minus(rules.runs()));
        pipelineRequests = deleteInBatches(PIPELINE_REQUESTS, now.minus(rules.runs()));
      }
      if (!rules.stages().isZero()) {
        stages = deleteInBatches(STAGES, now.minus(rules.stages()));
      }
      if (!rules.tests().isZero()) {
        tests = deleteInBatches(TESTS, now.minus(rules.tests()));
      }
      if (!rules.activity().isZero()) {
        activity = deleteInBatches(ACTIVITY, now.minus(rules.activity()));
      }
    } catch (SQLException e) {
      LOG.warn("event=retention_database_failed sqlState={} error=\"{}\"", e.getSQLState(), DatabaseErrors.describe(e));
    }
    if (logs.isPresent() && !rules.logs().isZero()) {
      try {
        logsDeleted = logs.get().deleteWrittenBefore(now.minus(rules.logs()));
      } catch (LogStoreException | RuntimeException e) {
        LOG.warn("event=retention_logs_failed tier={} error=\"{}\"", logs.get().tier(),
            String.valueOf(e.getMessage()).replace('"', '\''));
      }
    }
    Swept swept = new Swept(runs[0], runs[1], stages, tests, claims, pipelineRequests, activity, logsDeleted);
    LOG.info("event=retention_swept runs={} runEvents={} stages={} testSummaries={} claims={} pipelineRequests={}"
            + " activity={} logs={} tookMs={}", swept.runs(), swept.runEvents(), swept.stages(), swept.testSummaries(),
        swept.claims(), swept.pipelineRequests(), swept.activity(), logsDeleted < 0 ? "-" : Long.toString(logsDeleted),
        Duration.ofNanos(System.nanoTime() - started).toMillis());
    return swept;
  }

  private long[] deleteRuns(Instant cutoff) throws SQLException {
    long[] total = {0, 0};
    while (!closing) {
      long runs;
      try (Connection connection = dataSource.getConnection();
          PreparedStatement statement = connection.prepareStatement(RUNS)) {
        bind(statement, cutoff);
        try (ResultSet result = statement.executeQuery()) {
          result.next();
          runs = result.getLong(1);
          total[1] += result.getLong(2);
        }
        connection.commit();
      }
      total[0] += runs;
      if (runs < batch) {
        break;
      }
    }
    return total;
  }

  private long deleteInBatches(String sql, Instant cutoff) throws SQLException {
    long total = 0;
    while (!closing) {
      int deleted;
      try (Connection connection = dataSource.getConnection();
          PreparedStatement statement = connection.prepareStatement(sql)) {
        bind(statement, cutoff);
        deleted = statement.executeUpdate();
        connection.commit();
      }
      total += deleted;
      if (deleted < batch) {
        break;
      }
    }
    return total;
  }

  private void bind(PreparedStatement statement, Instant cutoff) throws SQLException {
    statement.setObject(1, OffsetDateTime.ofInstant(cutoff, ZoneOffset.UTC));
    statement.setInt(2, batch);
  }

  @Override
  public void close() throws InterruptedException {
    closing = true;
    schedule.shutdownNow();
    schedule.awaitTermination(10, TimeUnit.SECONDS);
  }
}

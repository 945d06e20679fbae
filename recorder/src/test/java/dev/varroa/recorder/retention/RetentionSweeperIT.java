package dev.varroa.recorder.retention;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The sweep on a real PostgreSQL with the recorder's schema: old rows go, newer ones and the ledger counter stay. */
class RetentionSweeperIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  /**
   * Stands in for the console log store only to see the cutoff the sweep asks for; LogRetentionIT sweeps the real
   * s3 and postgres tiers.
   */
  private static final class CutoffRecordingLogStore implements LogStore {
    final List<Instant> cutoffs = new ArrayList<>();

    @Override
    public String tier() {
      return "postgres";
    }

    @Override
    public LogExtent extent(LogKey key) {
      throw new UnsupportedOperationException("the sweep only deletes");
    }

    @Override
    public LogExtent write(LogKey key, long offset, byte[] data, boolean last) {
      throw new UnsupportedOperationException("the sweep only deletes");
    }

    @Override
    public byte[] read(LogKey key, long from, int maxBytes) {
      throw new UnsupportedOperationException("the sweep only deletes");
    }

    @Override
    public long deleteWrittenBefore(Instant cutoff) {
      cutoffs.add(cutoff);
      return 3;
    }

    @Override
    public void close() {
    }
  }

  private static RecordStore store(String database) throws InterruptedException {
    PostgresServer postgres = POSTGRES.server();
    String url = postgres.createDatabase(database);
    RecordStore store = RecordStore.open(RecorderSettings.of(url, postgres.user(), postgres.password(),
        "nats://127.0.0.1:4222"));
    store.migrate();
    return store;
  }

  private static OffsetDateTime daysAgo(long days) {
    return OffsetDateTime.ofInstant(NOW.minus(Duration.ofDays(days)), ZoneOffset.UTC);
  }

  private static void execute(RecordStore store, String sql, Object... parameters) throws SQLException {
    try (Connection connection = store.dataSource().getConnection();
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      statement.execute();
      connection.commit();
    }
  }

  private static List<String> strings(RecordStore store, String sql) throws SQLException {
    try (Connection connection = store.dataSource().getConnection();
        PreparedStatement statement = connection.prepareStatement(sql);
        ResultSet rows = statement.executeQuery()) {
      List<String> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      connection.commit();
      return values;
    }
  }

  /** A run with two events, one stage and a test summary; completedAt null for a run that never completed. */
  private static void run(RecordStore store, String runId, OffsetDateTime completedAt, OffsetDateTime updatedAt)
      throws SQLException {
    execute(store, """
        INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, build_number,
            completed_at, last_sequence, updated_at)
        VALUES ('uid-1', ?, 'core', 'ci', 'sandbox', 'team/app/main', 1, ?, 2, ?)""", runId, completedAt, updatedAt);
    for (int sequence = 1; sequence <= 2; sequence++) {
      execute(store, """
          INSERT INTO run_events (controller_uid, run_id, sequence, job, kind, payload)
          VALUES ('uid-1', ?, ?, 'team/app/main', 'run_started', '\\x00'::bytea)""", runId, sequence);
    }
    OffsetDateTime at = completedAt == null ? updatedAt : completedAt;
    execute(store, """
        INSERT INTO stages (controller_uid, run_id, stage_id, name, name_sequence, started_at, ended_at)
        VALUES ('uid-1', ?, 'stage-1', 'Build', 1, ?, ?)""", runId, at, at);
    execute(store, """
        INSERT INTO test_summaries (controller_uid, run_id, total, failed, skipped, summary_sequence, reported_at)
        VALUES ('uid-1', ?, 10, 0, 0, 1, ?)""", runId, at);
  }

  private static void claim(RecordStore store, String runId, long number, OffsetDateTime grantedAt) throws SQLException {
    execute(store, """
        INSERT INTO claims (controller_uid, run_id, job, build_number, cluster, namespace, controller_name, granted_at)
        VALUES ('uid-1', ?, 'team/app/main', ?, 'core', 'ci', 'sandbox', ?)""", runId, number, grantedAt);
  }

  private static void activity(RecordStore store, String summary, OffsetDateTime occurredAt) throws SQLException {
    execute(store, """
        INSERT INTO activity (id, cluster, kind, summary, occurred_at)
        VALUES (?, 'core', 'controller.created', ?, ?)""", UUID.randomUUID(), summary, occurredAt);
  }

  private static void pipelineRequest(RecordStore store, String pipeline, OffsetDateTime requestedAt)
      throws SQLException {
    execute(store, """
        INSERT INTO pipeline_requests (request_id, cluster, namespace, team, pipeline, state, requested_at)
        VALUES (?, 'core', 'tenants', 'alpha', ?, 'requested', ?)""", UUID.randomUUID(), pipeline, requestedAt);
  }

  @Test
  void deletesWhatIsOlderThanEachAgeAndKeepsTheRestAndTheLedgerCounter() throws Exception {
    try (RecordStore store = store("retention_ages")) {
      run(store, "old-completed", daysAgo(200), daysAgo(1));
      run(store, "recent-completed", daysAgo(10), daysAgo(10));
      // Never completed: its last update decides. Quiet for 200 days goes; still reporting stays.
      run(store, "abandoned", null, daysAgo(200));
      run(store, "still-running", null, daysAgo(0));
      claim(store, "old-completed", 1, daysAgo(200));
      claim(store, "recent-completed", 2, daysAgo(10));
      execute(store, "INSERT INTO build_numbers (job, next_number, updated_at) VALUES ('team/app/main', 3, ?)",
          daysAgo(200));
      activity(store, "old", daysAgo(91));
      activity(store, "recent", daysAgo(89));
      pipelineRequest(store, "old", daysAgo(200));
      pipelineRequest(store, "recent", daysAgo(10));
      CutoffRecordingLogStore logs = new CutoffRecordingLogStore();

      RetentionSweeper.Swept swept = new RetentionSweeper(store.dataSource(), RetentionRules.defaults(),
          Optional.of(logs), CLOCK).sweep();

      assertThat(strings(store, "SELECT run_id FROM runs ORDER BY run_id"))
          .containsExactly("recent-completed", "still-running");
      assertThat(strings(store, "SELECT DISTINCT run_id FROM run_events ORDER BY run_id"))
          .containsExactly("recent-completed", "still-running");
      assertThat(strings(store, "SELECT run_id FROM stages ORDER BY run_id"))
          .containsExactly("recent-completed", "still-running");
      assertThat(strings(store, "SELECT run_id FROM test_summaries ORDER BY run_id"))
          .containsExactly("recent-completed", "still-running");
      assertThat(strings(store, "SELECT run_id FROM claims")).containsExactly("recent-completed");
      assertThat(strings(store, "SELECT job || ':' || next_number FROM build_numbers"))
          .containsExactly("team/app/main:3");
      assertThat(strings(store, "SELECT summary FROM activity")).containsExactly("recent");
      assertThat(logs.cutoffs).containsExactly(NOW.minus(Duration.ofDays(30)));
      assertThat(strings(store, "SELECT pipeline FROM pipeline_requests")).containsExactly("recent");
      assertThat(swept).isEqualTo(new RetentionSweeper.Swept(2, 4, 0, 0, 1, 1, 1, 3));
    }
  }

  @Test
  void shorterStageAndTestAgesTakeThoseAloneAndZeroKeepsForever() throws Exception {
    try (RecordStore store = store("retention_children")) {
      run(store, "forty-days", daysAgo(40), daysAgo(40));
      run(store, "five-days", daysAgo(5), daysAgo(5));
      activity(store, "ancient", daysAgo(3000));
      RetentionRules rules = new RetentionRules(Duration.ZERO, Duration.ofDays(30), Duration.ofDays(7), Duration.ZERO,
          Duration.ZERO, Duration.ofHours(1));
      CutoffRecordingLogStore logs = new CutoffRecordingLogStore();

      RetentionSweeper.Swept swept = new RetentionSweeper(store.dataSource(), rules, Optional.of(logs), CLOCK).sweep();

      assertThat(strings(store, "SELECT run_id FROM runs ORDER BY run_id")).containsExactly("five-days", "forty-days");
      assertThat(strings(store, "SELECT run_id FROM stages")).containsExactly("five-days");
      assertThat(strings(store, "SELECT run_id FROM test_summaries")).containsExactly("five-days");
      assertThat(strings(store, "SELECT summary FROM activity")).containsExactly("ancient");
      assertThat(logs.cutoffs).isEmpty();
      assertThat(swept).isEqualTo(new RetentionSweeper.Swept(0, 0, 1, 1, 0, 0, 0, -1));
    }
  }

  @Test
  void deletesInBoundedBatchesUntilNothingOldIsLeft() throws Exception {
    try (RecordStore store = store("retention_batches")) {
      execute(store, """
          INSERT INTO activity (id, cluster, kind, occurred_at)
          SELECT gen_random_uuid(), 'core', 'mite.connected', ? FROM generate_series(1, 25)""", daysAgo(100));
      activity(store, "recent", daysAgo(1));

      RetentionSweeper.Swept swept = new RetentionSweeper(store.dataSource(), RetentionRules.defaults(),
          Optional.empty(), CLOCK, 10).sweep();

      assertThat(swept.activity()).isEqualTo(25);
      assertThat(swept.logs()).isEqualTo(-1);
      assertThat(strings(store, "SELECT summary FROM activity")).containsExactly("recent");
    }
  }
}

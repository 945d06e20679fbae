package dev.varroa.dashboard.records;

import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.logs.ConsoleLogTail;
import dev.varroa.dashboard.logs.ConsoleLogs;
import dev.varroa.dashboard.reads.StoredRecordReads;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.postgres.PostgresServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;

/**
 * A real build record store (PostgreSQL, migrated by the recorder, read as varroa_dashboard) holding two runs
 * (team-a/orders, team-b/search), their activity and one console log in the postgres log tier.
 */
public final class RecordedRuns implements AutoCloseable {

  public static final String ORDERS_RUN = "6f1c2a9e-orders-deploy-7";
  public static final String SEARCH_RUN = "9a0d4e11-search-index-3";
  public static final String LOG = "Started by user alice\n[Pipeline] stage Build\nFinished: OK";
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private final DashboardDatabase database;
  public final ConsoleLogs logs;
  public final StoredRecordReads reads;
  public final ConsoleLogTail tail;

  private RecordedRuns(DashboardDatabase database, ConsoleLogs logs, StoredRecordReads reads) {
    this.database = database;
    this.logs = logs;
    this.reads = reads;
    this.tail = new ConsoleLogTail(logs);
  }

  public static RecordedRuns seed(PostgresServer postgres, Path folder) throws Exception {
    DashboardDatabase database = DashboardDatabase.create(postgres, "mcp", folder);
    run(database, "uid-orders", ORDERS_RUN, "team-a", "orders", "deploy", 7, T0.plusSeconds(2));
    run(database, "uid-search", SEARCH_RUN, "team-b", "search", "index", 3, T0.plusSeconds(60));
    database.execute("INSERT INTO stages (controller_uid, run_id, stage_id, name, parallel_branch, name_sequence, "
        + "started_at, status, duration_millis, ended_at) VALUES ('uid-orders', ?, '6', 'Build', '', 2, ?, "
        + "'SUCCESS', 60000, ?)", ORDERS_RUN, Timestamp.from(T0.plusSeconds(5)), Timestamp.from(T0.plusSeconds(65)));
    database.execute("INSERT INTO test_summaries (controller_uid, run_id, total, failed, skipped, summary_sequence) "
        + "VALUES ('uid-orders', ?, 12, 0, 1, 4)", ORDERS_RUN);
    event(database, "team-a", "orders", T0.plusSeconds(60));
    event(database, "team-b", "search", T0.plusSeconds(120));
    try (LogStore writer = LogStores.open(BlobStoreSettings.postgresWithPassword(database.url(), postgres.user(),
        postgres.password())).orElseThrow()) {
      writer.write(new LogKey(BffStack.CLUSTER, "team-a", "orders", ORDERS_RUN), 0,
          LOG.getBytes(StandardCharsets.UTF_8), true);
    }
    RunRecords runs = new RunRecords(database.pool().dataSource());
    ConsoleLogs logs = ConsoleLogs.open(BlobStoreSettings.postgres(database.url(), RecordStore.READER_ROLE,
        folder.resolve("bff-db-password")), runs, null).orElseThrow();
    return new RecordedRuns(database, logs,
        new StoredRecordReads(runs, new Backfill(database.pool().dataSource())));
  }

  private static void run(DashboardDatabase database, String uid, String runId, String namespace, String controller,
      String job, long build, Instant started) throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, cause, started_at, result, duration_millis, last_sequence) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, 'user alice', ?, 'SUCCESS', 68000, 1)", uid, runId, BffStack.CLUSTER,
        namespace, controller, job, build, Timestamp.from(started));
  }

  private static void event(DashboardDatabase database, String namespace, String controller, Instant at)
      throws Exception {
    database.execute("INSERT INTO activity (id, cluster, namespace, controller, kind, actor, summary, occurred_at) "
        + "VALUES (?, ?, ?, ?, 'controller.phase_changed', 'operator', ?, ?)", UUID.randomUUID(), BffStack.CLUSTER,
        namespace, controller, namespace + "/" + controller + " is Connected", Timestamp.from(at));
  }

  @Override
  public void close() {
    logs.close();
    database.close();
  }
}

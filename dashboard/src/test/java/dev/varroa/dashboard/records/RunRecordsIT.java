package dev.varroa.dashboard.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** GET /runs, /runs/{runId} and the runs of /search over the recorder's tables, as the varroa_dashboard role. */
class RunRecordsIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final Predicate<ControllerScope> EVERYTHING = scope -> true;

  @TempDir
  static Path folder;
  private static DashboardDatabase database;

  @BeforeAll
  static void database() throws Exception {
    database = DashboardDatabase.create(POSTGRES.server(), "runs", folder);
  }

  @AfterAll
  static void close() {
    database.close();
  }

  private static RunRecords records() {
    return new RunRecords(database.pool().dataSource());
  }

  /** A run as the recorder writes it; started null means still queued. */
  private static void run(String cluster, String namespace, String controller, String runId, String job, Long build,
      Instant queued, Instant started, String result) throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, build_number, "
        + "queued_at, started_at, result, cause, node, duration_millis, queued_millis, completed_at, last_sequence) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Started by user admin', 'built-in', ?, 1500, ?, 5)",
        "uid-" + namespace + "-" + controller, runId, cluster, namespace, controller, job, build,
        queued == null ? null : Timestamp.from(queued), started == null ? null : Timestamp.from(started), result,
        result == null ? null : 42_000L, result == null || started == null ? null : Timestamp.from(started.plusSeconds(42)));
  }

  @Test
  void listsNewestFirstByStartOrQueueTimeWithFiltersAndBefore() throws Exception {
    String cluster = "list-" + UUID.randomUUID().toString().substring(0, 6);
    run(cluster, "ci", "app", cluster + "-r1", "team/app/main", 1L, T0, T0.plusSeconds(10), "SUCCESS");
    run(cluster, "ci", "app", cluster + "-r2", "team/app/main", 2L, T0.plusSeconds(100), T0.plusSeconds(110), "FAILURE");
    run(cluster, "ci", "app", cluster + "-r3", "team/app/pr-1", 1L, T0.plusSeconds(200), T0.plusSeconds(210), null);
    run(cluster, "ci", "web", cluster + "-r4", "web/deploy", 7L, T0.plusSeconds(300), null, null);
    run(cluster, "qa", "app", cluster + "-r5", "team/app/main", 3L, T0.plusSeconds(150), T0.plusSeconds(160), "SUCCESS");

    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, null, 50), EVERYTHING))
        .extracting(RunItem::runId).containsExactly(cluster + "-r4", cluster + "-r3", cluster + "-r5",
            cluster + "-r2", cluster + "-r1");
    assertThat(records().runs(new RunQuery(cluster, "ci", "app", "team/app/main", null, null, 50), EVERYTHING))
        .extracting(RunItem::runId).containsExactly(cluster + "-r2", cluster + "-r1");
    assertThat(records().runs(new RunQuery(cluster, null, null, "team/app/main", 2L, null, 50), EVERYTHING))
        .extracting(RunItem::runId).containsExactly(cluster + "-r2");
    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, T0.plusSeconds(160), 50), EVERYTHING))
        .extracting(RunItem::runId).containsExactly(cluster + "-r2", cluster + "-r1");
    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, null, 2), EVERYTHING))
        .extracting(RunItem::runId).containsExactly(cluster + "-r4", cluster + "-r3");

    RunItem failed = records().runs(new RunQuery(cluster, null, null, null, 2L, null, 1), EVERYTHING).get(0);
    assertThat(failed).isEqualTo(new RunItem(cluster + "-r2", cluster, "ci", "app", "team/app/main", 2L, "FAILURE",
        "Started by user admin", "built-in", T0.plusSeconds(100), T0.plusSeconds(110), T0.plusSeconds(152), 42_000L,
        1500L));
    RunItem queued = records().runs(new RunQuery(cluster, null, "web", null, null, null, 1), EVERYTHING).get(0);
    assertThat(queued.startedAt()).isNull();
    assertThat(queued.result()).isNull();
    assertThat(queued.durationMillis()).isNull();
  }

  @Test
  void fillsThePagePastDeniedRuns() throws Exception {
    String cluster = "paging-" + UUID.randomUUID().toString().substring(0, 6);
    List<String> allowedNewestFirst = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      boolean allowed = i < 200 && i % 10 == 0;
      String runId = cluster + "-" + i;
      run(cluster, allowed ? "ci" : "secret", "app", runId, "job-" + i, (long) i + 1, T0.plusSeconds(i),
          T0.plusSeconds(i), "SUCCESS");
      if (allowed) {
        allowedNewestFirst.add(0, runId);
      }
    }
    Predicate<ControllerScope> onlyCi = scope -> scope.namespace().equals("ci");
    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, null, 12), onlyCi))
        .extracting(RunItem::runId).containsExactlyElementsOf(allowedNewestFirst.subList(0, 12));
    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, null, 500), onlyCi))
        .extracting(RunItem::runId).containsExactlyElementsOf(allowedNewestFirst);
    assertThat(records().runs(new RunQuery(cluster, null, null, null, null, null, 500), EVERYTHING)).hasSize(500);
  }

  @Test
  void oneRunHasItsStagesAndTestsAndIsDeniedOrMissingOtherwise() throws Exception {
    String cluster = "detail-" + UUID.randomUUID().toString().substring(0, 6);
    String runId = cluster + "-run";
    run(cluster, "ci", "app", runId, "team/app/main", 9L, T0, T0.plusSeconds(5), "UNSTABLE");
    String uid = "uid-ci-app";
    database.execute("INSERT INTO stages (controller_uid, run_id, stage_id, name, parallel_branch, name_sequence, "
        + "started_at, status, duration_millis, ended_at) VALUES (?, ?, '7', 'Build', '', 2, ?, 'SUCCESS', 3000, ?)",
        uid, runId, Timestamp.from(T0.plusSeconds(6)), Timestamp.from(T0.plusSeconds(9)));
    database.execute("INSERT INTO stages (controller_uid, run_id, stage_id, name, parallel_branch, name_sequence, "
        + "started_at) VALUES (?, ?, '12', 'Test', 'linux', 3, ?)", uid, runId, Timestamp.from(T0.plusSeconds(10)));
    database.execute("INSERT INTO test_summaries (controller_uid, run_id, total, failed, skipped, summary_sequence) "
        + "VALUES (?, ?, 120, 2, 5, 4)", uid, runId);

    RecordLookup<RunDetail> lookup = records().run(runId, EVERYTHING);
    assertThat(lookup).isInstanceOf(RecordLookup.Found.class);
    RunDetail detail = ((RecordLookup.Found<RunDetail>) lookup).value();
    assertThat(detail.run().build()).isEqualTo(9L);
    assertThat(detail.run().result()).isEqualTo("UNSTABLE");
    assertThat(detail.stages()).containsExactly(
        new RunDetail.Stage("7", "Build", "", "SUCCESS", T0.plusSeconds(6), T0.plusSeconds(9), 3000L),
        new RunDetail.Stage("12", "Test", "linux", null, T0.plusSeconds(10), null, null));
    assertThat(detail.tests()).isEqualTo(new RunDetail.TestTotals(120, 2, 5));

    run(cluster, "ci", "bare", cluster + "-bare", "bare", 1L, T0, null, null);
    RunDetail bare = ((RecordLookup.Found<RunDetail>) records().run(cluster + "-bare", EVERYTHING)).value();
    assertThat(bare.stages()).isEmpty();
    assertThat(bare.tests()).isNull();

    assertThat(records().run(runId, scope -> !scope.controller().equals("app")))
        .isEqualTo(new RecordLookup.Denied<>(new ControllerScope(cluster, "ci", "app", "team/app/main")));
    assertThat(records().run("no-such-run", EVERYTHING)).isEqualTo(new RecordLookup.Missing<>());
    assertThat(records().locate(runId, EVERYTHING)).isEqualTo(new RecordLookup.Found<>(detail.run()));
  }

  @Test
  void searchFindsJobNamesByCaseInsensitiveSubstringLiterally() throws Exception {
    String cluster = "search-" + UUID.randomUUID().toString().substring(0, 6);
    run(cluster, "ci", "app", cluster + "-a", "Team/Payments-API/main", 1L, T0, T0, "SUCCESS");
    run(cluster, "ci", "app", cluster + "-b", "team/payments_api/release", 1L, T0.plusSeconds(1), T0.plusSeconds(1),
        "SUCCESS");
    run(cluster, "secret", "app", cluster + "-c", "hidden/payments-api", 1L, T0.plusSeconds(2), T0.plusSeconds(2),
        "SUCCESS");
    run(cluster, "ci", "app", cluster + "-d", "team/checkout", 1L, T0.plusSeconds(3), T0.plusSeconds(3), "SUCCESS");
    Predicate<ControllerScope> onlyCi = scope -> scope.namespace().equals("ci");

    assertThat(records().searchByJob("PAYMENTS", 50, onlyCi)).extracting(RunItem::runId)
        .containsExactly(cluster + "-b", cluster + "-a");
    assertThat(records().searchByJob("payments-api", 50, EVERYTHING)).extracting(RunItem::runId)
        .containsExactly(cluster + "-c", cluster + "-a");
    // _ and % are the text itself, not wildcards.
    assertThat(records().searchByJob("payments_api", 50, EVERYTHING)).extracting(RunItem::runId)
        .containsExactly(cluster + "-b");
    assertThat(records().searchByJob("%", 50, EVERYTHING)).isEmpty();
    assertThat(records().searchByJob("payments", 1, onlyCi)).extracting(RunItem::runId)
        .containsExactly(cluster + "-b");
    assertThatThrownBy(() -> records().searchByJob(" ", 50, EVERYTHING)).isInstanceOf(InvalidParameterException.class)
        .satisfies(e -> assertThat(((InvalidParameterException) e).parameter()).isEqualTo("q"));
  }

  @Test
  void aLimitOutsideOneToFiveHundredNamesTheParameter() {
    assertThatThrownBy(() -> new RunQuery(null, null, null, null, null, null, 501))
        .isInstanceOf(InvalidParameterException.class).hasMessageContaining("between 1 and 500");
    assertThatThrownBy(() -> new RunQuery(null, null, null, null, 0L, null, 50))
        .isInstanceOf(InvalidParameterException.class)
        .satisfies(e -> assertThat(((InvalidParameterException) e).parameter()).isEqualTo("build"));
  }
}

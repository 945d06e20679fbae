package dev.varroa.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.protocol.mite.v1.ControllerRef;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A record store at schema version 3 (the ledger keyed by job alone) with grants, counters and holds in it, migrated
 * to the latest version: every row is kept, each controller carries on from its job's number, and the ledger then
 * counts and holds per controller.
 */
class LedgerMigrationIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  /** The last version whose ledger keyed build_numbers and job_holds by the job alone. */
  private static final String JOB_KEYED_VERSION = "3";

  @Test
  void aVersion3LedgerMigratesKeepingItsRowsAndThenCountsPerController() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    String url = postgres.createDatabase("ledger_migration");
    Flyway.configure().dataSource(url, postgres.user(), postgres.password()).locations("classpath:db/migration")
        .target(JOB_KEYED_VERSION).load().migrate();
    execute(url, """
        INSERT INTO claims (controller_uid, run_id, job, build_number, cluster, namespace, controller_name)
        VALUES ('uid-a', 'run-1', 'team/app/main', 1, 'eu-1', 'tenant-a', 'ci'),
               ('uid-b', 'run-1', 'team/app/main', 2, 'eu-1', 'tenant-b', 'ci')""");
    // A controller that ran the job with the gate off: known from its runs alone.
    execute(url, """
        INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, build_number,
            last_sequence)
        VALUES ('uid-c', 'run-9', 'eu-1', 'tenant-c', 'ci', 'team/app/main', 7, 1)""");
    execute(url, """
        INSERT INTO build_numbers (job, next_number)
        VALUES ('team/app/main', 3), ('team/app/new', 100)""");
    execute(url, "INSERT INTO job_holds (job, reason, held_by) VALUES ('team/app/frozen', 'freeze', 'admin')");

    try (RecordStore store = RecordStore.open(RecorderSettings.of(url, postgres.user(), postgres.password(),
        "nats://127.0.0.1:4222"))) {
      store.migrate();

      assertThat(strings(url, """
          SELECT cluster || '/' || namespace || '/' || controller_name || ' ' || job || ':' || next_number
          FROM build_numbers""")).containsExactlyInAnyOrder(
          "// team/app/new:100",
          "eu-1/tenant-a/ci team/app/main:3",
          "eu-1/tenant-b/ci team/app/main:3",
          "eu-1/tenant-c/ci team/app/main:3");
      assertThat(strings(url, "SELECT controller_uid || ':' || build_number FROM claims ORDER BY 1"))
          .containsExactly("uid-a:1", "uid-b:2");
      assertThat(strings(url, "SELECT run_id FROM runs")).containsExactly("run-9");
      assertThat(strings(url, """
          SELECT cluster || '/' || namespace || '/' || controller_name || ' ' || job || ':' || reason || ':' || held_by
          FROM job_holds""")).containsExactly("// team/app/frozen:freeze:admin");

      ClaimLedger ledger = new ClaimLedger(store.dataSource(), "eu-1");
      assertThat(ledger.decide(claim("tenant-a", "uid-a", "run-2", "team/app/main")).getBuildNumber()).isEqualTo(3);
      assertThat(ledger.decide(claim("tenant-b", "uid-b", "run-2", "team/app/main")).getBuildNumber()).isEqualTo(3);
      assertThat(ledger.decide(claim("tenant-a", "uid-a", "run-1", "team/app/main")).getBuildNumber())
          .as("a grant from before the migration is kept").isEqualTo(1);
      assertThat(ledger.decide(claim("tenant-d", "uid-d", "run-1", "team/app/main")).getBuildNumber())
          .as("a controller new to the job starts at 1").isEqualTo(1);
      assertThat(ledger.decide(claim("tenant-a", "uid-a", "run-3", "team/app/new")).getBuildNumber())
          .as("a start number no controller used is every controller's floor").isEqualTo(100);
      ClaimDecision held = ledger.decide(claim("tenant-b", "uid-b", "run-3", "team/app/frozen"));
      assertThat(held.getDecision()).isEqualTo(ClaimLedger.REFUSED);
      assertThat(held.getReason()).as("a hold from before still holds everywhere").isEqualTo("freeze");
    }
  }

  @Test
  void refusesAHoldOrCounterThatNamesOnlyPartOfAController() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    String url = postgres.createDatabase("ledger_partial_key");
    Flyway.configure().dataSource(url, postgres.user(), postgres.password()).locations("classpath:db/migration")
        .load().migrate();

    assertThatThrownBy(() -> execute(url,
        "INSERT INTO job_holds (namespace, job, reason) VALUES ('tenant-a', 'team/app/main', 'freeze')"))
        .isInstanceOf(SQLException.class).hasMessageContaining("job_holds_controller_complete");
    assertThatThrownBy(() -> execute(url,
        "INSERT INTO build_numbers (cluster, job, next_number) VALUES ('eu-1', 'team/app/main', 5)"))
        .isInstanceOf(SQLException.class).hasMessageContaining("build_numbers_controller_complete");
  }

  private static LedgerClaim claim(String namespace, String uid, String runId, String job) {
    return LedgerClaim.newBuilder()
        .setController(ControllerRef.newBuilder().setNamespace(namespace).setName("ci").setUid(uid))
        .setClaim(ClaimRequest.newBuilder().setRunId(runId).setJob(job).setQueueId(1)).build();
  }

  private static void execute(String url, String sql) throws SQLException {
    PostgresServer postgres = POSTGRES.server();
    try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  private static List<String> strings(String url, String sql) throws SQLException {
    PostgresServer postgres = POSTGRES.server();
    try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
        Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
      List<String> values = new ArrayList<>();
      while (rows.next()) {
        values.add(rows.getString(1));
      }
      return values;
    }
  }
}

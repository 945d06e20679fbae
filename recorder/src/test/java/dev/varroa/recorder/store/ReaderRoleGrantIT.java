package dev.varroa.recorder.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The BFF's varroa_dashboard role gets SELECT on what it reads, and nothing more, whenever it comes to exist. */
// Roles belong to the whole PostgreSQL cluster (one per class): the first test makes the role, the second uses it.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReaderRoleGrantIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String READER_PASSWORD = "reader-secret-1";
  private static final List<String> READ_TABLES = List.of("runs", "stages", "test_summaries", "activity", "run_logs",
      "log_chunks", "job_schedules", "team_placements", "pipeline_requests");

  private static RecorderSettings settings(String url) {
    PostgresServer postgres = POSTGRES.server();
    return RecorderSettings.of(url, postgres.user(), postgres.password(), NATS.server().url()).withHealthPort(0);
  }

  private static Connection asReader(String url) throws SQLException {
    return DriverManager.getConnection(url, RecordStore.READER_ROLE, READER_PASSWORD);
  }

  private static boolean readerCanSelectRuns(String url) {
    try (Connection connection = asReader(url); var statement = connection.createStatement()) {
      statement.executeQuery("SELECT count(*) FROM runs").close();
      return true;
    } catch (SQLException e) {
      return false;
    }
  }

  @Test
  @Order(1)
  void grantsSelectOnTheReadTablesOnlyOnceTheRoleExists() throws Exception {
    String url = POSTGRES.server().createDatabase("reader_grant");
    try (RecordStore store = RecordStore.open(settings(url))) {
      store.migrate();
      assertThat(store.grantReaderRole()).as("no role yet").isFalse();

      POSTGRES.server().createLoginRole(RecordStore.READER_ROLE, READER_PASSWORD);
      assertThat(store.grantReaderRole()).isTrue();
      // Granting again (every minute) changes nothing and still succeeds.
      assertThat(store.grantReaderRole()).isTrue();
    }
    try (Connection reader = asReader(url); var statement = reader.createStatement()) {
      for (String table : READ_TABLES) {
        statement.executeQuery("SELECT count(*) FROM " + table).close();
      }
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO activity (id, cluster, kind, occurred_at) "
          + "VALUES (gen_random_uuid(), 'c', 'k', now())"))
          .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
      assertThatThrownBy(() -> statement.executeQuery("SELECT count(*) FROM claims"))
          .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
      assertThatThrownBy(() -> statement.executeUpdate("DELETE FROM runs"))
          .isInstanceOf(SQLException.class).hasMessageContaining("permission denied");
    }
  }

  @Test
  @Order(2)
  void theRecorderGrantsTheReaderRoleWhenItStarts() throws Exception {
    String url = POSTGRES.server().createDatabase("reader_grant_recorder");
    // The role exists since the first test, but holds nothing in this new database yet.
    assertThat(readerCanSelectRuns(url)).isFalse();
    try (Recorder recorder = Recorder.start(settings(url))) {
      await().atMost(Duration.ofSeconds(30)).until(() -> readerCanSelectRuns(url));
    }
  }
}

package dev.varroa.recorder.logs;

import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresLogStoreIT extends LogStoreContract {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  @BeforeAll
  static void migrate() {
    migrate(POSTGRES.server());
  }

  static void migrate(PostgresServer postgres) {
    Flyway.configure().dataSource(postgres.jdbcUrl(), postgres.user(), postgres.password())
        .locations("classpath:db/migration").load().migrate();
  }

  static BlobStoreSettings settings(PostgresServer postgres) {
    return BlobStoreSettings.postgresWithPassword(postgres.jdbcUrl(), postgres.user(), postgres.password());
  }

  @Override
  LogStore open() {
    return LogStores.open(settings(POSTGRES.server())).orElseThrow();
  }

  @Override
  void age(LogKey key, Duration age) throws Exception {
    PostgresServer postgres = POSTGRES.server();
    try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
        PreparedStatement update = connection.prepareStatement("UPDATE run_logs SET last_written_at = now() - ? * "
            + "interval '1 second' WHERE cluster = ? AND namespace = ? AND controller = ? AND run_id = ?")) {
      update.setLong(1, age.toSeconds());
      update.setString(2, key.cluster());
      update.setString(3, key.namespace());
      update.setString(4, key.controller());
      update.setString(5, key.runId());
      update.executeUpdate();
    }
  }
}

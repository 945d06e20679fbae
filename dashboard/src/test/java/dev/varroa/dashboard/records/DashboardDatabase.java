package dev.varroa.dashboard.records;

import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.testfixtures.postgres.PostgresServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A record store as an installation has it: a database migrated by the recorder's own Flyway migrations, the
 * varroa_dashboard role granted by the recorder, and the BFF's read pool logging in as that role with its password
 * in a file (VARROA_BFF_* from an environment map).
 */
public record DashboardDatabase(PostgresServer postgres, String url, RecordStoreReadPool pool)
    implements AutoCloseable {

  static final String READER_PASSWORD = "dashboard-reader-1";
  // Roles belong to the whole PostgreSQL cluster; each test class has its own cluster.
  private static final Set<PostgresServer> ROLE_MADE = Collections.newSetFromMap(new IdentityHashMap<>());

  public static DashboardDatabase create(PostgresServer postgres, String name, Path folder) throws Exception {
    String url = postgres.createDatabase(name);
    synchronized (ROLE_MADE) {
      if (ROLE_MADE.add(postgres)) {
        postgres.createLoginRole(RecordStore.READER_ROLE, READER_PASSWORD);
      }
    }
    try (RecordStore store = RecordStore.open(RecorderSettings.of(url, postgres.user(), postgres.password(),
        "nats://127.0.0.1:4222"))) {
      store.migrate();
      if (!store.grantReaderRole()) {
        throw new IllegalStateException("the recorder could not grant " + RecordStore.READER_ROLE);
      }
    }
    Path passwordFile = Files.writeString(folder.resolve("bff-db-password"), READER_PASSWORD + "\n");
    RecordStoreSettings settings = RecordStoreSettings.fromEnv(Map.of(
        RecordStoreSettings.ENABLED, "true",
        RecordStoreSettings.DSN, url,
        RecordStoreSettings.DB_USER, RecordStore.READER_ROLE,
        RecordStoreSettings.DB_PASSWORD_FILE, passwordFile.toString()));
    return new DashboardDatabase(postgres, url, RecordStoreReadPool.open(settings));
  }

  /** Writes as the recorder would (the schema owner), for rows the test sets up. */
  public void execute(String sql, Object... parameters) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url, postgres.user(), postgres.password());
        PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setObject(i + 1, parameters[i]);
      }
      statement.execute();
    }
  }

  /** The schema owner's connections as the recorder's writers expect them (they commit themselves). */
  public DataSource ownerDataSource() {
    PGSimpleDataSource source = new PGSimpleDataSource() {
      private static final long serialVersionUID = 1L;

      @Override
      public Connection getConnection() throws SQLException {
        Connection connection = super.getConnection();
        connection.setAutoCommit(false);
        return connection;
      }
    };
    source.setURL(url);
    source.setUser(postgres.user());
    source.setPassword(postgres.password());
    return source;
  }

  @Override
  public void close() {
    pool.close();
  }
}

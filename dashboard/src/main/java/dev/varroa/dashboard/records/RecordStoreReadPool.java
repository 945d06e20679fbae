package dev.varroa.dashboard.records;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.varroa.recorder.store.PasswordFileDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * The BFF's connections to the record store: a small HikariCP pool of read-only connections as the
 * {@code varroa_dashboard} role, the password re-read from its file for every new connection (a rotated Secret is
 * picked up without a restart). The recorder owns the schema; the BFF never migrates it.
 */
public final class RecordStoreReadPool implements AutoCloseable {

  /** A request waits at most this for a connection, then answers with an error rather than hanging. */
  static final Duration CONNECTION_WAIT = Duration.ofSeconds(2);
  static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);
  /** A database that stops answering fails the read instead of holding the request forever. */
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);
  static final int POOL_SIZE = 4;
  static final String APPLICATION_NAME = "varroa-dashboard";

  private final HikariDataSource pool;

  private RecordStoreReadPool(HikariDataSource pool) {
    this.pool = pool;
  }

  /** Makes the pool without connecting: the database may come up after the BFF. */
  public static RecordStoreReadPool open(RecordStoreSettings settings) {
    if (!settings.enabled()) {
      throw new IllegalStateException("the record store is disabled (" + RecordStoreSettings.ENABLED
          + "=false): there is nothing to open");
    }
    HikariConfig config = new HikariConfig();
    if (settings.passwordFile() != null) {
      PasswordFileDataSource source = new PasswordFileDataSource(settings.passwordFile(),
          RecordStoreSettings.DB_PASSWORD_FILE);
      source.setURL(settings.dsn());
      if (settings.user() != null) {
        source.setUser(settings.user());
      }
      source.setSocketTimeout((int) SOCKET_TIMEOUT.toSeconds());
      source.setApplicationName(APPLICATION_NAME);
      source.setReadOnly(true);
      config.setDataSource(source);
    } else {
      config.setJdbcUrl(settings.dsn());
      if (settings.user() != null) {
        config.setUsername(settings.user());
      }
      config.addDataSourceProperty("socketTimeout", Long.toString(SOCKET_TIMEOUT.toSeconds()));
      config.addDataSourceProperty("ApplicationName", APPLICATION_NAME);
    }
    config.setPoolName(APPLICATION_NAME);
    config.setMaximumPoolSize(POOL_SIZE);
    config.setConnectionTimeout(CONNECTION_WAIT.toMillis());
    config.setValidationTimeout(VALIDATION_TIMEOUT.toMillis());
    config.setReadOnly(true);
    // Negative: no connection is attempted while the pool is built; the first read reports the failure.
    config.setInitializationFailTimeout(-1);
    return new RecordStoreReadPool(new HikariDataSource(config));
  }

  public DataSource dataSource() {
    return pool;
  }

  /** One round trip to the database within the validation timeout. */
  public boolean reachable() {
    try (Connection connection = pool.getConnection()) {
      return connection.isValid((int) VALIDATION_TIMEOUT.toSeconds());
    } catch (SQLException e) {
      return false;
    }
  }

  @Override
  public void close() {
    pool.close();
  }
}

package dev.varroa.recorder.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.varroa.recorder.RecorderSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recorder's PostgreSQL: a HikariCP pool (it replaces connections broken by a database restart) and the
 * schema, brought up to date by the Flyway migrations in {@code db/migration} before anything is written.
 */
public final class RecordStore implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RecordStore.class);

  /** A claim must be answered within the gateway's 4 s budget, so waiting for a connection stays well below it. */
  static final Duration CONNECTION_WAIT = Duration.ofMillis(1500);
  static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);
  /** A database that stops answering mid-query fails the query instead of holding the consumer forever. */
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);
  static final int POOL_SIZE = 6;

  private final HikariDataSource pool;

  private RecordStore(HikariDataSource pool) {
    this.pool = pool;
  }

  /** Makes the pool without connecting: the database may come up after the recorder. */
  /** The role the chart's CloudNativePG Cluster gives the gateway for the postgres log tier. */
  public static final String LOG_WRITER_ROLE = "varroa_gateway";
  /** The BFF's read-only role (VARROA_BFF_DB_USER in the chart). */
  public static final String READER_ROLE = "varroa_dashboard";
  /**
   * Everything the BFF reads: runs and their stages and tests, activity, the postgres tier's console logs, job
   * schedules, team placements and requested pipeline runs.
   */
  static final String READER_TABLES = "runs, stages, test_summaries, activity, run_logs, log_chunks, job_schedules,"
      + " team_placements, pipeline_requests";

  public static RecordStore open(RecorderSettings settings) {
    HikariConfig config = new HikariConfig();
    if (settings.dbPasswordFile() != null) {
      PasswordFileDataSource source = new PasswordFileDataSource(settings.dbPasswordFile(), "VARROA_RECORDER_DB_PASSWORD_FILE");
      source.setURL(settings.dsn());
      if (settings.dbUser() != null) {
        source.setUser(settings.dbUser());
      }
      source.setSocketTimeout((int) SOCKET_TIMEOUT.toSeconds());
      source.setApplicationName("varroa-recorder");
      config.setDataSource(source);
    } else {
      config.setJdbcUrl(settings.dsn());
      if (settings.dbUser() != null) {
        config.setUsername(settings.dbUser());
      }
      if (settings.dbPassword() != null) {
        config.setPassword(settings.dbPassword());
      }
      config.addDataSourceProperty("socketTimeout", Long.toString(SOCKET_TIMEOUT.toSeconds()));
      config.addDataSourceProperty("ApplicationName", "varroa-recorder");
    }
    config.setPoolName("varroa-recorder");
    config.setMaximumPoolSize(POOL_SIZE);
    config.setConnectionTimeout(CONNECTION_WAIT.toMillis());
    config.setValidationTimeout(VALIDATION_TIMEOUT.toMillis());
    config.setAutoCommit(false);
    // Negative: no connection is attempted while the pool is built; the first use reports the failure.
    config.setInitializationFailTimeout(-1);
    return new RecordStore(new HikariDataSource(config));
  }

  /** Applies the pending migrations; throws when the database cannot be reached or a migration fails. */
  public void migrate() {
    var result = Flyway.configure()
        .dataSource(pool)
        .locations("classpath:db/migration")
        .load()
        .migrate();
    LOG.info("event=schema_migrated applied={} version={}", result.migrationsExecuted, result.targetSchemaVersion);
  }

  /**
   * Grants the gateway's role (the chart's varroa-recordstore-gateway, created by CloudNativePG whenever it gets to
   * it, possibly after the migrations ran) its console log tables; true once the role exists and holds them.
   */
  public boolean grantLogWriterRole() {
    try (Connection connection = pool.getConnection(); var statement = connection.createStatement()) {
      var exists = statement.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + LOG_WRITER_ROLE + "'");
      if (!exists.next()) {
        connection.rollback();
        return false;
      }
      statement.execute("GRANT SELECT, INSERT, UPDATE ON log_chunks, run_logs TO " + LOG_WRITER_ROLE);
      connection.commit();
      return true;
    } catch (SQLException e) {
      LOG.debug("event=log_writer_grant_failed role={} error=\"{}\"", LOG_WRITER_ROLE, e.getMessage());
      return false;
    }
  }

  /**
   * Grants the BFF's role SELECT on what it reads (and nothing else), like {@link #grantLogWriterRole()}: the role may
   * be created after the migrations ran, so this runs again until it holds; true once the role exists and holds them.
   */
  public boolean grantReaderRole() {
    try (Connection connection = pool.getConnection(); var statement = connection.createStatement()) {
      var exists = statement.executeQuery("SELECT 1 FROM pg_roles WHERE rolname = '" + READER_ROLE + "'");
      if (!exists.next()) {
        connection.rollback();
        return false;
      }
      statement.execute("GRANT SELECT ON " + READER_TABLES + " TO " + READER_ROLE);
      connection.commit();
      return true;
    } catch (SQLException e) {
      LOG.debug("event=reader_grant_failed role={} error=\"{}\"", READER_ROLE, e.getMessage());
      return false;
    }
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

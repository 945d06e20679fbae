package dev.varroa.recorder.logs;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.varroa.recorder.store.PasswordFileDataSource;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The postgres tier: pieces in {@code log_chunks}, each run's extent in {@code run_logs} (Flyway migration
 * V2__console_logs.sql, applied by the recorder; the gateway only reads and writes the rows). A write is one
 * transaction, so a piece exists exactly when run_logs counts it.
 */
public final class PostgresLogStore implements LogStore {

  static final Duration CONNECTION_WAIT = Duration.ofSeconds(5);
  static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(30);
  static final int POOL_SIZE = 8;

  private static final String KEY = "cluster = ? AND namespace = ? AND controller = ? AND run_id = ?";

  private final DataSource dataSource;
  private final AutoCloseable pool;
  private final String where;

  PostgresLogStore(DataSource dataSource, AutoCloseable pool, String where) {
    this.dataSource = dataSource;
    this.pool = pool;
    this.where = where;
  }

  /** Makes the pool without connecting: the database may come up after the caller. */
  public static PostgresLogStore open(BlobStoreSettings settings, String applicationName) {
    if (settings.mode() != BlobStoreSettings.Mode.POSTGRES) {
      throw new IllegalArgumentException("PostgresLogStore needs " + BlobStoreSettings.MODE + "=postgres, got "
          + settings.describe());
    }
    HikariConfig config = new HikariConfig();
    if (settings.postgresPasswordFile() != null) {
      PasswordFileDataSource source = new PasswordFileDataSource(settings.postgresPasswordFile(),
          BlobStoreSettings.POSTGRES_PASSWORD_FILE);
      source.setURL(settings.postgresDsn());
      if (settings.postgresUser() != null) {
        source.setUser(settings.postgresUser());
      }
      source.setSocketTimeout((int) SOCKET_TIMEOUT.toSeconds());
      source.setApplicationName(applicationName);
      config.setDataSource(source);
    } else {
      config.setJdbcUrl(settings.postgresDsn());
      if (settings.postgresUser() != null) {
        config.setUsername(settings.postgresUser());
      }
      if (settings.postgresPassword() != null) {
        config.setPassword(settings.postgresPassword());
      }
      config.addDataSourceProperty("socketTimeout", Long.toString(SOCKET_TIMEOUT.toSeconds()));
      config.addDataSourceProperty("ApplicationName", applicationName);
    }
    config.setPoolName(applicationName + "-logs");
    config.setMaximumPoolSize(POOL_SIZE);
    config.setMinimumIdle(1);
    config.setConnectionTimeout(CONNECTION_WAIT.toMillis());
    config.setAutoCommit(false);
    // Negative: no connection is attempted while the pool is built; the first use reports the failure.
    config.setInitializationFailTimeout(-1);
    HikariDataSource pool = new HikariDataSource(config);
    return new PostgresLogStore(pool, pool, "postgres " + BlobStoreSettings.withoutQuery(settings.postgresDsn()));
  }

  @Override
  public String tier() {
    return BlobStoreSettings.Mode.POSTGRES.value();
  }

  @Override
  public LogExtent extent(LogKey key) throws LogStoreException {
    try (Connection connection = dataSource.getConnection()) {
      try {
        LogExtent extent = extent(connection, key, false);
        connection.commit();
        return extent;
      } catch (SQLException e) {
        connection.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failure("read the extent of " + key, e);
    }
  }

  @Override
  public LogExtent write(LogKey key, long offset, byte[] data, boolean last) throws LogStoreException {
    try (Connection connection = dataSource.getConnection()) {
      try {
        LogExtent before = extent(connection, key, true);
        if (offset != before.storedThrough()) {
          // Another writer moved the log on (a stream that moved gateways): the caller re-reads and answers again.
          connection.rollback();
          throw new LogStoreException(where + ": " + key + " holds " + before.storedThrough() + " bytes, not "
              + offset + ": another writer appended; read the extent again");
        }
        if (data.length > 0) {
          try (PreparedStatement insert = connection.prepareStatement("INSERT INTO log_chunks "
              + "(cluster, namespace, controller, run_id, start_offset, data) VALUES (?, ?, ?, ?, ?, ?) "
              + "ON CONFLICT DO NOTHING")) {
            bindKey(insert, key);
            insert.setLong(5, offset);
            insert.setBytes(6, data);
            insert.executeUpdate();
          }
        }
        LogExtent after;
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO run_logs "
            + "(cluster, namespace, controller, run_id, stored_through, complete, last_written_at) "
            + "VALUES (?, ?, ?, ?, ?, ?, now()) ON CONFLICT (cluster, namespace, controller, run_id) DO UPDATE SET "
            + "stored_through = GREATEST(run_logs.stored_through, EXCLUDED.stored_through), "
            + "complete = run_logs.complete OR EXCLUDED.complete, last_written_at = now() "
            + "RETURNING stored_through, complete")) {
          bindKey(upsert, key);
          upsert.setLong(5, offset + data.length);
          upsert.setBoolean(6, last);
          try (ResultSet row = upsert.executeQuery()) {
            row.next();
            after = new LogExtent(row.getLong(1), row.getBoolean(2));
          }
        }
        connection.commit();
        return after;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failure("write " + data.length + " bytes at " + offset + " of " + key, e);
    }
  }

  @Override
  public byte[] read(LogKey key, long from, int maxBytes) throws LogStoreException {
    if (from < 0 || maxBytes < 0) {
      throw new IllegalArgumentException("read needs from >= 0 and maxBytes >= 0, got " + from + ", " + maxBytes);
    }
    if (maxBytes == 0) {
      return new byte[0];
    }
    long until = from + maxBytes;
    // The piece holding `from` is the last one starting at or before it; substring() takes only the needed slice.
    String sql = "SELECT start_offset, substring(data FROM (GREATEST(?::bigint - start_offset, 0) + 1)::int "
        + "FOR GREATEST(LEAST(start_offset + length(data), ?::bigint) - GREATEST(start_offset, ?::bigint), 0)::int) "
        + "FROM log_chunks WHERE " + KEY + " AND start_offset < ? AND start_offset >= COALESCE(("
        + "SELECT max(start_offset) FROM log_chunks WHERE " + KEY + " AND start_offset <= ?), 0) "
        + "ORDER BY start_offset";
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement select = connection.prepareStatement(sql)) {
        select.setLong(1, from);
        select.setLong(2, until);
        select.setLong(3, from);
        bindKey(select, key, 4);
        select.setLong(8, until);
        bindKey(select, key, 9);
        select.setLong(13, from);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long position = from;
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            long start = rows.getLong(1);
            byte[] slice = rows.getBytes(2);
            if (Math.max(start, from) != position || slice == null) {
              break;
            }
            out.write(slice, 0, slice.length);
            position += slice.length;
          }
        }
        connection.commit();
        return out.toByteArray();
      } catch (SQLException e) {
        connection.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failure("read " + maxBytes + " bytes at " + from + " of " + key, e);
    }
  }

  @Override
  public long deleteWrittenBefore(Instant cutoff) throws LogStoreException {
    String sql = "WITH gone AS (DELETE FROM run_logs WHERE last_written_at < ? "
        + "RETURNING cluster, namespace, controller, run_id), "
        + "pieces AS (DELETE FROM log_chunks c USING gone g WHERE c.cluster = g.cluster AND c.namespace = g.namespace "
        + "AND c.controller = g.controller AND c.run_id = g.run_id) "
        + "SELECT count(*) FROM gone";
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement delete = connection.prepareStatement(sql)) {
        delete.setTimestamp(1, Timestamp.from(cutoff));
        long runs;
        try (ResultSet row = delete.executeQuery()) {
          row.next();
          runs = row.getLong(1);
        }
        connection.commit();
        return runs;
      } catch (SQLException e) {
        connection.rollback();
        throw e;
      }
    } catch (SQLException e) {
      throw failure("remove logs written before " + cutoff, e);
    }
  }

  @Override
  public void close() {
    try {
      pool.close();
    } catch (Exception e) {
      throw new IllegalStateException(where + ": cannot close the pool: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "PostgresLogStore[" + where + "]";
  }

  private static LogExtent extent(Connection connection, LogKey key, boolean forUpdate) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement("SELECT stored_through, complete FROM run_logs WHERE "
        + KEY + (forUpdate ? " FOR UPDATE" : ""))) {
      bindKey(select, key);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? new LogExtent(row.getLong(1), row.getBoolean(2)) : LogExtent.EMPTY;
      }
    }
  }

  private static void bindKey(PreparedStatement statement, LogKey key) throws SQLException {
    bindKey(statement, key, 1);
  }

  private static void bindKey(PreparedStatement statement, LogKey key, int first) throws SQLException {
    statement.setString(first, key.cluster());
    statement.setString(first + 1, key.namespace());
    statement.setString(first + 2, key.controller());
    statement.setString(first + 3, key.runId());
  }

  private LogStoreException failure(String what, SQLException e) {
    return new LogStoreException(where + ": cannot " + what + ": " + e.getMessage() + " (SQLState " + e.getSQLState()
        + ")", e);
  }
}

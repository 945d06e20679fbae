package dev.varroa.operator.demo;

import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogReader;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStoreException;
import dev.varroa.testfixtures.postgres.PostgresServer;
import java.io.ByteArrayOutputStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * What the demo waits for once it played its builds: per build a finalized run row, two stages, a test summary and
 * the whole console log, byte-identical, in the blob store; per controller at least one activity row. Reads
 * PostgreSQL and the blob store as anyone with the endpoints file could.
 */
public final class BuildRecordsCheck {

  private static final Duration POLL = Duration.ofMillis(500);

  private final PostgresServer postgres;
  private final LogStore logs;
  private final String cluster;

  /** @param cluster the cluster the played Controllers run in: their runs and console logs are kept under it */
  public BuildRecordsCheck(PostgresServer postgres, LogStore logs, String cluster) {
    this.postgres = postgres;
    this.logs = logs;
    this.cluster = cluster;
  }

  /** Null once everything is there; otherwise, after the deadline, what is still missing. */
  public String await(List<String> controllers, List<PlayedBuild.Played> builds, Duration deadline)
      throws InterruptedException {
    Instant until = Instant.now().plus(deadline);
    String missing;
    do {
      missing = missing(controllers, builds);
      if (missing == null) {
        return null;
      }
      Thread.sleep(POLL.toMillis());
    } while (Instant.now().isBefore(until));
    return missing + " (after " + deadline.toMinutes() + " minutes)";
  }

  private String missing(List<String> controllers, List<PlayedBuild.Played> builds) {
    try (Connection db = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password())) {
      for (int i = 0; i < builds.size(); i++) {
        PlayedBuild.Played build = builds.get(i);
        String[] controller = controllers.get(i).split("/");
        if (count(db, "SELECT count(*) FROM runs WHERE run_id = ? AND result = 'SUCCESS' AND finalized_at IS NOT NULL"
            + " AND cluster = ?", build.runId(), cluster) != 1) {
          return "no finalized SUCCESS row of cluster " + cluster + " in runs for " + build.job() + " #"
              + build.buildNumber();
        }
        if (count(db, "SELECT count(*) FROM stages WHERE run_id = ? AND status = 'SUCCESS'", build.runId())
            != PlayedBuild.STAGES.length) {
          return "not every stage of " + build.job() + " #" + build.buildNumber() + " is in stages";
        }
        if (count(db, "SELECT count(*) FROM test_summaries WHERE run_id = ? AND total = " + PlayedBuild.TESTS,
            build.runId()) != 1) {
          return "no test summary for " + build.job() + " #" + build.buildNumber();
        }
        if (count(db, "SELECT count(*) FROM activity WHERE namespace = ? AND controller = ?", controller[0],
            controller[1]) == 0) {
          return "no activity row for " + controllers.get(i);
        }
        String log = logMismatch(new LogKey(cluster, controller[0], controller[1], build.runId()),
            build.log());
        if (log != null) {
          return log;
        }
      }
      return null;
    } catch (SQLException e) {
      return "the record store could not be read: " + e.getMessage();
    }
  }

  private String logMismatch(LogKey key, byte[] expected) {
    try {
      LogExtent extent = logs.extent(key);
      if (!extent.complete()) {
        return "the console log of " + key + " is not complete in the blob store (" + extent.storedThrough() + " of "
            + expected.length + " bytes)";
      }
      ByteArrayOutputStream stored = new ByteArrayOutputStream();
      while (stored.size() < extent.storedThrough()) {
        byte[] range = logs.read(key, stored.size(), LogReader.MAX_READ_BYTES);
        if (range.length == 0) {
          break;
        }
        stored.write(range, 0, range.length);
      }
      return Arrays.equals(stored.toByteArray(), expected) ? null
          : "the console log of " + key + " in the blob store differs from what the build wrote";
    } catch (LogStoreException e) {
      return "the blob store could not be read: " + e.getMessage();
    }
  }

  private static long count(Connection db, String sql, String... parameters) throws SQLException {
    try (PreparedStatement statement = db.prepareStatement(sql)) {
      for (int i = 0; i < parameters.length; i++) {
        statement.setString(i + 1, parameters[i]);
      }
      try (ResultSet rows = statement.executeQuery()) {
        rows.next();
        return rows.getLong(1);
      }
    }
  }
}

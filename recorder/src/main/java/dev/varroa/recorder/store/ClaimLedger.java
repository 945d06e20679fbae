package dev.varroa.recorder.store;

import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.protocol.mite.v1.ControllerRef;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The build-number ledger: decides a claim in one transaction. A job's next number on one controller (cluster,
 * namespace, controller name) sits in one row of build_numbers, taken with UPDATE ... RETURNING (the row lock orders
 * concurrent claims for the job on that controller); every grant is kept in claims, so the same run asking again gets
 * the same number. Two controllers' jobs of the same name count and are held independently.
 */
public final class ClaimLedger {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimLedger.class);

  public static final String GRANTED = "granted";
  public static final String REFUSED = "refused";
  public static final String RETRY = "retry";
  public static final String CODE_OK = "OK";
  public static final String CODE_INVALID_ARGUMENT = "INVALID_ARGUMENT";
  /** DATAPLANE: a database error answers "retry" after 2 s. */
  public static final Duration DATABASE_ERROR_RETRY_AFTER = Duration.ofMillis(2000);
  /** The gateway waits 4 s for the answer; a query still running after this is cut short. */
  static final int QUERY_TIMEOUT_SECONDS = 2;

  private final DataSource database;
  private final String defaultCluster;

  public ClaimLedger(DataSource database, String defaultCluster) {
    this.database = database;
    this.defaultCluster = defaultCluster;
  }

  /** Never throws: a bad claim gets INVALID_ARGUMENT, a database failure "retry". */
  public ClaimDecision decide(LedgerClaim claim) {
    String invalid = invalidField(claim);
    if (invalid != null) {
      return ClaimDecision.newBuilder().setDecision("").setCode(CODE_INVALID_ARGUMENT).setReason(invalid).build();
    }
    try {
      return decideInDatabase(claim);
    } catch (SQLException e) {
      LOG.warn("event=claim_database_error controller={}/{} job=\"{}\" runId=\"{}\" sqlState={} error=\"{}\"",
          claim.getController().getNamespace(), claim.getController().getName(), claim.getClaim().getJob(),
          claim.getClaim().getRunId(), e.getSQLState(), DatabaseErrors.describe(e));
      return ClaimDecision.newBuilder().setDecision(RETRY).setCode(CODE_OK)
          .setRetryAfterMillis(DATABASE_ERROR_RETRY_AFTER.toMillis())
          .setReason("the build record store cannot be reached; ask again").build();
    }
  }

  private static String invalidField(LedgerClaim claim) {
    ControllerRef controller = claim.getController();
    if (controller.getUid().isEmpty() || controller.getNamespace().isEmpty() || controller.getName().isEmpty()) {
      return "controller is incomplete (namespace, name and uid are required; the gateway sets them from the mite's "
          + "certificate)";
    }
    if (claim.getClaim().getRunId().isEmpty()) {
      return "run_id is empty: the plugin sends the run's id, given when it entered the queue";
    }
    if (claim.getClaim().getJob().isEmpty()) {
      return "job is empty: the plugin sends the job's full name, e.g. team/app/main";
    }
    return null;
  }

  private ClaimDecision decideInDatabase(LedgerClaim claim) throws SQLException {
    ControllerRef controller = claim.getController();
    ClaimRequest request = claim.getClaim();
    JobKey key = new JobKey(claim.getCluster().isEmpty() ? defaultCluster : claim.getCluster(),
        controller.getNamespace(), controller.getName(), request.getJob());
    try (Connection connection = database.getConnection()) {
      try {
        Optional<Long> granted = grantedBefore(connection, controller.getUid(), request.getRunId());
        if (granted.isPresent()) {
          connection.commit();
          return granted(granted.get());
        }
        Optional<String> hold = hold(connection, key);
        if (hold.isPresent()) {
          connection.commit();
          return ClaimDecision.newBuilder().setDecision(REFUSED).setCode(CODE_OK).setReason(hold.get()).build();
        }
        long number = takeNumber(connection, key);
        if (!recordGrant(connection, claim, key, number)) {
          // The same run asked twice at once and the other answer committed first: that number is the run's.
          connection.rollback();
          long theirs = grantedBefore(connection, controller.getUid(), request.getRunId())
              .orElseThrow(() -> new SQLException("claim for run " + request.getRunId() + " vanished after a conflict"));
          connection.commit();
          return granted(theirs);
        }
        connection.commit();
        LOG.info("event=claim_granted controller={}/{} job=\"{}\" runId=\"{}\" buildNumber={}",
            controller.getNamespace(), controller.getName(), request.getJob(), request.getRunId(), number);
        return granted(number);
      } catch (SQLException | RuntimeException e) {
        try {
          connection.rollback();
        } catch (SQLException rollbackFailed) {
          e.addSuppressed(rollbackFailed);
        }
        throw e;
      }
    }
  }

  private static ClaimDecision granted(long number) {
    return ClaimDecision.newBuilder().setDecision(GRANTED).setCode(CODE_OK).setBuildNumber(number).build();
  }

  private static Optional<Long> grantedBefore(Connection connection, String uid, String runId) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(
        "SELECT build_number FROM claims WHERE controller_uid = ? AND run_id = ?")) {
      select.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      select.setString(1, uid);
      select.setString(2, runId);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? Optional.of(row.getLong(1)) : Optional.empty();
      }
    }
  }

  /** Where a job's numbers and holds live: the controller (cluster, namespace, name) and the job's full name. */
  private record JobKey(String cluster, String namespace, String controllerName, String job) {
    void bind(PreparedStatement statement, int first) throws SQLException {
      statement.setString(first, cluster);
      statement.setString(first + 1, namespace);
      statement.setString(first + 2, controllerName);
      statement.setString(first + 3, job);
    }
  }

  // The controller's own hold, else an installation-wide one (empty cluster, namespace and controller_name).
  private static Optional<String> hold(Connection connection, JobKey key) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement("""
        SELECT reason FROM job_holds
        WHERE ((cluster = ? AND namespace = ? AND controller_name = ?) OR cluster = '') AND job = ?
        ORDER BY cluster DESC LIMIT 1""")) {
      select.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      key.bind(select, 1);
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
      }
    }
  }

  // An installation-wide row (empty controller) is the job's floor on every controller: an admin's start number.
  private static long takeNumber(Connection connection, JobKey key) throws SQLException {
    try (PreparedStatement seed = connection.prepareStatement("""
        INSERT INTO build_numbers (cluster, namespace, controller_name, job, next_number) VALUES (?, ?, ?, ?, 1)
        ON CONFLICT DO NOTHING""")) {
      seed.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      key.bind(seed, 1);
      seed.executeUpdate();
    }
    try (PreparedStatement take = connection.prepareStatement("""
        UPDATE build_numbers own SET next_number = GREATEST(own.next_number, COALESCE((SELECT everywhere.next_number
                FROM build_numbers everywhere
                WHERE everywhere.cluster = '' AND everywhere.namespace = '' AND everywhere.controller_name = ''
                  AND everywhere.job = own.job), 1)) + 1,
            updated_at = now()
        WHERE own.cluster = ? AND own.namespace = ? AND own.controller_name = ? AND own.job = ?
        RETURNING own.next_number - 1""")) {
      take.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      key.bind(take, 1);
      try (ResultSet row = take.executeQuery()) {
        if (!row.next()) {
          throw new SQLException("build_numbers has no row for job " + key.job() + " on controller " + key.cluster()
              + "/" + key.namespace() + "/" + key.controllerName() + " right after it was made");
        }
        return row.getLong(1);
      }
    }
  }

  private static boolean recordGrant(Connection connection, LedgerClaim claim, JobKey key, long number)
      throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement("""
        INSERT INTO claims (controller_uid, run_id, job, build_number, cluster, namespace, controller_name, queue_id)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (controller_uid, run_id) DO NOTHING""")) {
      insert.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      insert.setString(1, claim.getController().getUid());
      insert.setString(2, claim.getClaim().getRunId());
      insert.setString(3, key.job());
      insert.setLong(4, number);
      insert.setString(5, key.cluster());
      insert.setString(6, key.namespace());
      insert.setString(7, key.controllerName());
      if (claim.getClaim().getQueueId() != 0) {
        insert.setLong(8, claim.getClaim().getQueueId());
      } else {
        insert.setNull(8, Types.BIGINT);
      }
      return insert.executeUpdate() == 1;
    }
  }
}

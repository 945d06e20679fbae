package dev.varroa.recorder.store;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The pipeline_requests table: each pipeline run requested from the core, kept by its request id, and where the run
 * is now (joined with runs on the cell, the job and Jenkins' queue item).
 */
public final class PipelineRequests {

  /** What the recorder should do with a request id it was sent. */
  public sealed interface Claim {
    /** First time seen (or taken over from a recorder that stopped before answering): handle it now. */
    record Fresh() implements Claim {}

    /** Answered before: answer the same again. */
    record Answered(ActionResult first) implements Claim {}

    /** Another recorder is handling it right now. */
    record UnderWay() implements Claim {}
  }

  /** A request that reached a replica which then stopped before answering; past this another replica takes it over. */
  public static final Duration ABANDONED_AFTER = Duration.ofSeconds(30);

  private static final String INSERT = """
      INSERT INTO pipeline_requests (request_id, cluster, namespace, team, pipeline, parameters, requested_by, state,
          caller_team, caller_cluster, caller_controller)
      VALUES (?, ?, ?, ?, ?, jsonb_object(?::text[], ?::text[]), ?, 'requested', ?, ?, ?)
      ON CONFLICT (request_id) DO NOTHING""";
  private static final String TAKE_OVER = """
      UPDATE pipeline_requests SET updated_at = now()
      WHERE request_id = ? AND answer IS NULL AND updated_at < now() - make_interval(secs => ?)""";
  private static final String ANSWER_OF = "SELECT answer FROM pipeline_requests WHERE request_id = ?";
  private static final String CALLER_OF = """
      SELECT caller_team, caller_cluster, caller_controller, answer FROM pipeline_requests WHERE request_id = ?""";
  // A PipelineRunQueued that came first (a fast cell) keeps its state and cell; a refusal only fails a request that
  // Jenkins did not take.
  private static final String STORE_ANSWER = """
      UPDATE pipeline_requests SET
          answer = ?, wake = ?,
          state = CASE WHEN ? AND state = 'requested' THEN 'failed' ELSE state END,
          message = CASE WHEN ? AND state = 'requested' THEN ? ELSE message END,
          cell_namespace = COALESCE(cell_namespace, NULLIF(?, '')),
          cell = COALESCE(cell, NULLIF(?, '')),
          job = COALESCE(job, NULLIF(?, '')),
          updated_at = now()
      WHERE request_id = ?""";
  private static final String STORE_QUEUED = """
      UPDATE pipeline_requests SET
          state = ?, message = ?, queue_id = ?, queued_at = ?,
          cell_namespace = COALESCE(NULLIF(?, ''), cell_namespace),
          cell = COALESCE(NULLIF(?, ''), cell),
          job = COALESCE(NULLIF(?, ''), job),
          updated_at = now()
      WHERE request_id = ? AND cluster = ?""";
  private static final String CLUSTER_OF = "SELECT cluster FROM pipeline_requests WHERE request_id = ?";
  // The run recorded after the request, on the cell, of the job, from the queue item: Jenkins' queue ids restart
  // with a new JENKINS_HOME, so an older run with the same id is never this request's.
  private static final String STATUS = """
      SELECT p.request_id, p.cluster, p.namespace, p.team, p.pipeline, p.requested_by, p.requested_at, p.wake,
          p.state, p.message, p.cell_namespace, p.cell, p.job, p.queue_id,
          r.run_id, r.build_number, r.started_at, r.result, r.duration_millis,
          COALESCE(r.completed_at, r.finalized_at) AS finished_at
      FROM pipeline_requests p
      LEFT JOIN LATERAL (
          SELECT run_id, build_number, started_at, result, duration_millis, completed_at, finalized_at
          FROM runs
          WHERE runs.cluster = p.cluster AND runs.namespace = p.cell_namespace AND runs.controller_name = p.cell
            AND runs.job = p.job AND runs.queue_id = p.queue_id AND runs.first_recorded_at >= p.requested_at
          ORDER BY runs.first_recorded_at DESC
          LIMIT 1) r ON p.queue_id IS NOT NULL
      WHERE p.request_id = ?""";

  private final DataSource dataSource;

  public PipelineRequests(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  /**
   * Who asked for a recorded request: for a cross-tenant call the calling Team and cell, all '' for a run requested
   * from the core; outcome is the operator's answer ("" while it is handled).
   */
  public record Caller(String team, String cluster, String controller, String outcome) {}

  /** Records the request unless its id is known; request_id must be a UUID (checked by the caller). */
  public Claim claim(ActionRequest request) throws SQLException {
    return claim(request, "");
  }

  /**
   * As {@link #claim(ActionRequest)}, for a cross-tenant call also recording the calling Team and cluster (from the
   * request) and the calling cell's Controller, "namespace/name".
   */
  public Claim claim(ActionRequest request, String callerController) throws SQLException {
    UUID id = UUID.fromString(request.getRequestId());
    Map<String, String> parameters = new TreeMap<>(request.getParametersMap());
    try (Connection connection = dataSource.getConnection()) {
      try {
        int inserted;
        try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
          insert.setObject(1, id);
          insert.setString(2, request.getCluster());
          insert.setString(3, request.getNamespace());
          insert.setString(4, request.getName());
          insert.setString(5, request.getPipeline());
          insert.setArray(6, connection.createArrayOf("text", parameters.keySet().toArray(String[]::new)));
          insert.setArray(7, connection.createArrayOf("text", parameters.values().toArray(String[]::new)));
          insert.setString(8, request.getUser());
          insert.setString(9, request.getCallerTeam());
          insert.setString(10, request.getCallerCluster());
          insert.setString(11, callerController);
          inserted = insert.executeUpdate();
        }
        Claim claim = inserted == 1 ? new Claim.Fresh() : known(connection, id);
        connection.commit();
        return claim;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    }
  }

  private static Claim known(Connection connection, UUID id) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(ANSWER_OF)) {
      select.setObject(1, id);
      try (ResultSet row = select.executeQuery()) {
        if (row.next() && row.getBytes(1) != null) {
          return new Claim.Answered(parse(row.getBytes(1), id));
        }
      }
    }
    try (PreparedStatement takeOver = connection.prepareStatement(TAKE_OVER)) {
      takeOver.setObject(1, id);
      takeOver.setLong(2, ABANDONED_AFTER.toSeconds());
      return takeOver.executeUpdate() == 1 ? new Claim.Fresh() : new Claim.UnderWay();
    }
  }

  private static ActionResult parse(byte[] answer, UUID id) throws SQLException {
    try {
      return ActionResult.parseFrom(answer);
    } catch (InvalidProtocolBufferException e) {
      throw new SQLException("pipeline_requests.answer of request " + id + " is not a varroa.bus.v1.ActionResult: "
          + e.getMessage(), e);
    }
  }

  /**
   * Stores the answer given for the request, with what the operator said: where it sent the run, or (refused,
   * failed) why it will never run.
   */
  public void answered(ActionResult answer) throws SQLException {
    boolean failed = !"accepted".equals(answer.getOutcome()) && !"done".equals(answer.getOutcome());
    try (Connection connection = dataSource.getConnection()) {
      try (PreparedStatement update = connection.prepareStatement(STORE_ANSWER)) {
        update.setBytes(1, answer.toByteArray());
        update.setString(2, answer.getWake());
        update.setBoolean(3, failed);
        update.setBoolean(4, failed);
        update.setString(5, answer.getMessage());
        update.setString(6, answer.getCellNamespace());
        update.setString(7, answer.getCell());
        update.setString(8, answer.getJob());
        update.setObject(9, UUID.fromString(answer.getRequestId()));
        update.executeUpdate();
        connection.commit();
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    }
  }

  /** What is wrong with a PipelineRunQueued, naming the field and the fix; empty when it can be stored. */
  public static Optional<String> problem(PipelineRunQueued queued) {
    if (!isUuid(queued.getRequestId())) {
      return Optional.of("PipelineRunQueued.request_id '" + queued.getRequestId()
          + "' is not a UUID: send the ActionRequest.request_id of the pipeline-run");
    }
    if (queued.getCluster().isEmpty()) {
      return Optional.of("PipelineRunQueued.cluster of request " + queued.getRequestId()
          + " is empty: set it to the operator's VARROA_CLUSTER_NAME");
    }
    if ("queued".equals(queued.getOutcome())) {
      if (queued.getQueueId() <= 0) {
        return Optional.of("PipelineRunQueued of request " + queued.getRequestId()
            + " says queued without a queue_id: send Jenkins' queue item id");
      }
      return Optional.empty();
    }
    if (!"failed".equals(queued.getOutcome())) {
      return Optional.of("PipelineRunQueued.outcome '" + queued.getOutcome() + "' of request "
          + queued.getRequestId() + " is unknown: send queued or failed");
    }
    return Optional.empty();
  }

  /**
   * Stores where Jenkins queued the run (or why it did not); call {@link #problem} first. Refuses, naming both,
   * a report from another cluster than the request's.
   */
  public Optional<String> queued(PipelineRunQueued queued) throws SQLException {
    UUID id = UUID.fromString(queued.getRequestId());
    boolean taken = "queued".equals(queued.getOutcome());
    Instant at = queued.getAtEpochMillis() > 0 ? Instant.ofEpochMilli(queued.getAtEpochMillis()) : Instant.now();
    try (Connection connection = dataSource.getConnection()) {
      try {
        int updated;
        try (PreparedStatement update = connection.prepareStatement(STORE_QUEUED)) {
          update.setString(1, taken ? "queued" : "failed");
          update.setString(2, queued.getMessage());
          if (taken) {
            update.setLong(3, queued.getQueueId());
            update.setObject(4, OffsetDateTime.ofInstant(at, ZoneOffset.UTC));
          } else {
            update.setNull(3, java.sql.Types.BIGINT);
            update.setNull(4, java.sql.Types.TIMESTAMP_WITH_TIMEZONE);
          }
          update.setString(5, queued.getCellNamespace());
          update.setString(6, queued.getCell());
          update.setString(7, queued.getJob());
          update.setObject(8, id);
          update.setString(9, queued.getCluster());
          updated = update.executeUpdate();
        }
        Optional<String> problem = updated == 1 ? Optional.empty() : Optional.of(whyNot(connection, queued));
        connection.commit();
        return problem;
      } catch (SQLException | RuntimeException e) {
        connection.rollback();
        throw e;
      }
    }
  }

  private static String whyNot(Connection connection, PipelineRunQueued queued) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(CLUSTER_OF)) {
      select.setObject(1, UUID.fromString(queued.getRequestId()));
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return "no pipeline run request " + queued.getRequestId() + " is recorded: send the request_id the"
              + " recorder forwarded";
        }
        return "pipeline run request " + queued.getRequestId() + " is for cluster " + row.getString(1)
            + ", not cluster " + queued.getCluster() + ": only its own cluster's operator reports it queued";
      }
    }
  }

  /** Who asked for the request and what the operator answered; empty when no request has this id. */
  public Optional<Caller> caller(UUID id) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(CALLER_OF)) {
      select.setObject(1, id);
      try (ResultSet row = select.executeQuery()) {
        Optional<Caller> caller = Optional.empty();
        if (row.next()) {
          byte[] answer = row.getBytes("answer");
          caller = Optional.of(new Caller(row.getString("caller_team"), row.getString("caller_cluster"),
              row.getString("caller_controller"), answer == null ? "" : parse(answer, id).getOutcome()));
        }
        connection.commit();
        return caller;
      }
    }
  }

  /** Where the requested run is now; empty when no request has this id. */
  public Optional<PipelineRunStatus> status(UUID id) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(STATUS)) {
      select.setObject(1, id);
      try (ResultSet row = select.executeQuery()) {
        Optional<PipelineRunStatus> status = row.next() ? Optional.of(status(row)) : Optional.empty();
        connection.commit();
        return status;
      }
    }
  }

  private static PipelineRunStatus status(ResultSet row) throws SQLException {
    PipelineRunStatus.Builder status = PipelineRunStatus.newBuilder()
        .setRequestId(row.getObject("request_id").toString())
        .setCluster(row.getString("cluster"))
        .setNamespace(row.getString("namespace"))
        .setTeam(row.getString("team"))
        .setPipeline(row.getString("pipeline"))
        .setRequestedBy(row.getString("requested_by"))
        .setRequestedAtEpochMillis(millis(row, "requested_at"))
        .setWake(row.getString("wake"))
        .setMessage(row.getString("message"))
        .setCellNamespace(orEmpty(row.getString("cell_namespace")))
        .setCell(orEmpty(row.getString("cell")))
        .setJob(orEmpty(row.getString("job")))
        .setQueueId(row.getLong("queue_id"));
    String stored = row.getString("state");
    String runId = row.getString("run_id");
    if (runId == null || "failed".equals(stored)) {
      return status.setState(stored).build();
    }
    String result = row.getString("result");
    long buildNumber = row.getLong("build_number");
    long startedAt = millis(row, "started_at");
    status.setRunId(runId).setBuildNumber(buildNumber).setStartedAtEpochMillis(startedAt);
    if (result != null) {
      return status.setState("finished").setResult(result).setFinishedAtEpochMillis(millis(row, "finished_at"))
          .setDurationMillis(row.getLong("duration_millis")).build();
    }
    return status.setState(startedAt > 0 || buildNumber > 0 ? "running" : "queued").build();
  }

  private static long millis(ResultSet row, String column) throws SQLException {
    OffsetDateTime at = row.getObject(column, OffsetDateTime.class);
    return at == null ? 0 : at.toInstant().toEpochMilli();
  }

  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  /** True when the text is a UUID as the request ids are (the operator refuses any other). */
  public static boolean isUuid(String text) {
    try {
      return UUID.fromString(text).toString().equalsIgnoreCase(text);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}

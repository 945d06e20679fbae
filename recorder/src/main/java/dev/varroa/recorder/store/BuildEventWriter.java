package dev.varroa.recorder.store;

import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.mite.v1.ControllerRef;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one BuildEventGroup in one transaction. Each event is first inserted into run_events by its identity
 * (controller uid, run id, sequence); only the events that were not there yet are applied to runs, stages and
 * test_summaries, so a redelivered or re-published group changes nothing.
 */
public final class BuildEventWriter {

  private static final Logger LOG = LoggerFactory.getLogger(BuildEventWriter.class);

  /** What a group did: events applied, events seen before, events refused as malformed (logged). */
  public record Outcome(int applied, int alreadyRecorded, int malformed, boolean schedulesReplaced) {
  }

  private static final String INSERT_EVENT = """
      INSERT INTO run_events (controller_uid, run_id, sequence, job, kind, emitted_at, payload)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT DO NOTHING""";

  private static final String UPSERT_RUN = """
      INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job,
          build_number, build_number_sequence, queue_id, queued_at, queued_sequence, cause, cause_sequence,
          node, queued_millis, started_at, started_sequence, result, duration_millis, result_sequence,
          completed_at, completed_sequence, finalized_at, finalized_sequence, last_sequence)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (controller_uid, run_id) DO UPDATE SET
          build_number = CASE WHEN EXCLUDED.build_number_sequence > COALESCE(runs.build_number_sequence, 0)
              THEN EXCLUDED.build_number ELSE runs.build_number END,
          build_number_sequence = GREATEST(runs.build_number_sequence, EXCLUDED.build_number_sequence),
          queue_id = CASE WHEN EXCLUDED.queued_sequence > COALESCE(runs.queued_sequence, 0)
              THEN EXCLUDED.queue_id ELSE runs.queue_id END,
          queued_at = CASE WHEN EXCLUDED.queued_sequence > COALESCE(runs.queued_sequence, 0)
              THEN EXCLUDED.queued_at ELSE runs.queued_at END,
          queued_sequence = GREATEST(runs.queued_sequence, EXCLUDED.queued_sequence),
          cause = CASE WHEN EXCLUDED.cause_sequence > COALESCE(runs.cause_sequence, 0)
              THEN EXCLUDED.cause ELSE runs.cause END,
          cause_sequence = GREATEST(runs.cause_sequence, EXCLUDED.cause_sequence),
          node = CASE WHEN EXCLUDED.started_sequence > COALESCE(runs.started_sequence, 0)
              THEN EXCLUDED.node ELSE runs.node END,
          queued_millis = CASE WHEN EXCLUDED.started_sequence > COALESCE(runs.started_sequence, 0)
              THEN EXCLUDED.queued_millis ELSE runs.queued_millis END,
          started_at = CASE WHEN EXCLUDED.started_sequence > COALESCE(runs.started_sequence, 0)
              THEN EXCLUDED.started_at ELSE runs.started_at END,
          started_sequence = GREATEST(runs.started_sequence, EXCLUDED.started_sequence),
          result = CASE WHEN EXCLUDED.result_sequence > COALESCE(runs.result_sequence, 0)
              THEN EXCLUDED.result ELSE runs.result END,
          duration_millis = CASE WHEN EXCLUDED.result_sequence > COALESCE(runs.result_sequence, 0)
              THEN EXCLUDED.duration_millis ELSE runs.duration_millis END,
          result_sequence = GREATEST(runs.result_sequence, EXCLUDED.result_sequence),
          completed_at = CASE WHEN EXCLUDED.completed_sequence > COALESCE(runs.completed_sequence, 0)
              THEN EXCLUDED.completed_at ELSE runs.completed_at END,
          completed_sequence = GREATEST(runs.completed_sequence, EXCLUDED.completed_sequence),
          finalized_at = CASE WHEN EXCLUDED.finalized_sequence > COALESCE(runs.finalized_sequence, 0)
              THEN EXCLUDED.finalized_at ELSE runs.finalized_at END,
          finalized_sequence = GREATEST(runs.finalized_sequence, EXCLUDED.finalized_sequence),
          last_sequence = GREATEST(runs.last_sequence, EXCLUDED.last_sequence),
          updated_at = now()""";

  private static final String UPSERT_STAGE = """
      INSERT INTO stages (controller_uid, run_id, stage_id, name, parallel_branch, name_sequence,
          started_at, started_sequence, status, duration_millis, ended_at, ended_sequence)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (controller_uid, run_id, stage_id) DO UPDATE SET
          name = CASE WHEN EXCLUDED.name_sequence > stages.name_sequence THEN EXCLUDED.name ELSE stages.name END,
          parallel_branch = CASE WHEN EXCLUDED.name_sequence > stages.name_sequence
              THEN EXCLUDED.parallel_branch ELSE stages.parallel_branch END,
          name_sequence = GREATEST(stages.name_sequence, EXCLUDED.name_sequence),
          started_at = CASE WHEN EXCLUDED.started_sequence > COALESCE(stages.started_sequence, 0)
              THEN EXCLUDED.started_at ELSE stages.started_at END,
          started_sequence = GREATEST(stages.started_sequence, EXCLUDED.started_sequence),
          status = CASE WHEN EXCLUDED.ended_sequence > COALESCE(stages.ended_sequence, 0)
              THEN EXCLUDED.status ELSE stages.status END,
          duration_millis = CASE WHEN EXCLUDED.ended_sequence > COALESCE(stages.ended_sequence, 0)
              THEN EXCLUDED.duration_millis ELSE stages.duration_millis END,
          ended_at = CASE WHEN EXCLUDED.ended_sequence > COALESCE(stages.ended_sequence, 0)
              THEN EXCLUDED.ended_at ELSE stages.ended_at END,
          ended_sequence = GREATEST(stages.ended_sequence, EXCLUDED.ended_sequence)""";

  private static final String UPSERT_TEST_SUMMARY = """
      INSERT INTO test_summaries (controller_uid, run_id, total, failed, skipped, summary_sequence, reported_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (controller_uid, run_id) DO UPDATE SET
          total = EXCLUDED.total, failed = EXCLUDED.failed, skipped = EXCLUDED.skipped,
          summary_sequence = EXCLUDED.summary_sequence, reported_at = EXCLUDED.reported_at
      WHERE EXCLUDED.summary_sequence > test_summaries.summary_sequence""";

  private static final String UPSERT_INVENTORY = """
      INSERT INTO job_schedule_inventories (controller_uid, cluster, namespace, controller_name, observed_at)
      VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (controller_uid) DO UPDATE SET
          cluster = EXCLUDED.cluster, namespace = EXCLUDED.namespace, controller_name = EXCLUDED.controller_name,
          observed_at = EXCLUDED.observed_at, recorded_at = now()
      WHERE EXCLUDED.observed_at >= job_schedule_inventories.observed_at
      RETURNING controller_uid""";

  private final DataSource database;
  private final String defaultCluster;

  public BuildEventWriter(DataSource database, String defaultCluster) {
    this.database = database;
    this.defaultCluster = defaultCluster;
  }

  /**
   * Writes the group and commits; throws SQLException when the database failed (nothing was written) and
   * IllegalArgumentException when the group can never be written (it names no controller).
   */
  public Outcome write(BuildEventGroup group) throws SQLException {
    ControllerRef controller = group.getController();
    if (controller.getUid().isEmpty() || controller.getNamespace().isEmpty() || controller.getName().isEmpty()) {
      throw new IllegalArgumentException("the group names no controller (namespace, name and uid are required; "
          + "the gateway sets them from the mite's certificate)");
    }
    String cluster = group.getCluster().isEmpty() ? defaultCluster : group.getCluster();
    try (Connection connection = database.getConnection()) {
      try {
        Outcome outcome = group.hasSchedules()
            ? replaceSchedules(connection, controller, cluster, group.getSchedules())
            : applyEvents(connection, controller, cluster, group.getEventsList());
        connection.commit();
        return outcome;
      } catch (SQLException | RuntimeException e) {
        rollbackQuietly(connection, e);
        throw e;
      }
    }
  }

  private Outcome applyEvents(Connection connection, ControllerRef controller, String cluster, List<BuildEvent> events)
      throws SQLException {
    List<BuildEvent> wellFormed = new ArrayList<>();
    int malformed = 0;
    for (BuildEvent event : events) {
      String problem = problem(event);
      if (problem == null) {
        wellFormed.add(event);
      } else {
        malformed++;
        LOG.warn("event=build_event_malformed controller={}/{} runId=\"{}\" sequence={} problem=\"{}\"",
            controller.getNamespace(), controller.getName(), event.getRunId(), event.getSequence(), problem);
      }
    }
    List<BuildEvent> fresh = insertNew(connection, controller.getUid(), wellFormed);
    if (!fresh.isEmpty()) {
      upsertRuns(connection, controller, cluster, fresh);
      upsertStages(connection, controller.getUid(), fresh);
      upsertTestSummaries(connection, controller.getUid(), fresh);
    }
    return new Outcome(fresh.size(), wellFormed.size() - fresh.size(), malformed, false);
  }

  private static String problem(BuildEvent event) {
    if (event.getRunId().isEmpty()) {
      return "run_id is empty";
    }
    // uint64 above 2^63 reads as negative in Java: too large for the bigint column as well.
    if (event.getSequence() <= 0) {
      return "sequence must be 1 or more";
    }
    if (event.getJob().isEmpty()) {
      return "job is empty";
    }
    if ((event.hasStageStarted() && event.getStageStarted().getStageId().isEmpty())
        || (event.hasStageEnded() && event.getStageEnded().getStageId().isEmpty())) {
      return "stage_id is empty";
    }
    return null;
  }

  // The events whose identity was not in run_events yet, in group order; a duplicate inside the group counts once.
  private static List<BuildEvent> insertNew(Connection connection, String uid, List<BuildEvent> events)
      throws SQLException {
    if (events.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement insert = connection.prepareStatement(INSERT_EVENT)) {
      for (BuildEvent event : events) {
        insert.setString(1, uid);
        insert.setString(2, event.getRunId());
        insert.setLong(3, event.getSequence());
        insert.setString(4, event.getJob());
        insert.setString(5, EventKind.of(event));
        insert.setObject(6, timestamp(event.getEmittedAtEpochMillis()), Types.TIMESTAMP_WITH_TIMEZONE);
        insert.setBytes(7, event.toByteArray());
        insert.addBatch();
      }
      int[] inserted = insert.executeBatch();
      List<BuildEvent> fresh = new ArrayList<>();
      for (int i = 0; i < inserted.length; i++) {
        if (inserted[i] > 0) {
          fresh.add(events.get(i));
        }
      }
      return fresh;
    }
  }

  private static void upsertRuns(Connection connection, ControllerRef controller, String cluster, List<BuildEvent> events)
      throws SQLException {
    try (PreparedStatement upsert = connection.prepareStatement(UPSERT_RUN)) {
      for (BuildEvent event : events) {
        RunPatch patch = RunPatch.of(event);
        int i = 0;
        upsert.setString(++i, controller.getUid());
        upsert.setString(++i, event.getRunId());
        upsert.setString(++i, cluster);
        upsert.setString(++i, controller.getNamespace());
        upsert.setString(++i, controller.getName());
        upsert.setString(++i, event.getJob());
        setLong(upsert, ++i, patch.buildNumber());
        setLong(upsert, ++i, patch.buildNumberSequence());
        setLong(upsert, ++i, patch.queueId());
        setInstant(upsert, ++i, patch.queuedAt());
        setLong(upsert, ++i, patch.queuedSequence());
        upsert.setString(++i, patch.cause());
        setLong(upsert, ++i, patch.causeSequence());
        upsert.setString(++i, patch.node());
        setLong(upsert, ++i, patch.queuedMillis());
        setInstant(upsert, ++i, patch.startedAt());
        setLong(upsert, ++i, patch.startedSequence());
        upsert.setString(++i, patch.result());
        setLong(upsert, ++i, patch.durationMillis());
        setLong(upsert, ++i, patch.resultSequence());
        setInstant(upsert, ++i, patch.completedAt());
        setLong(upsert, ++i, patch.completedSequence());
        setInstant(upsert, ++i, patch.finalizedAt());
        setLong(upsert, ++i, patch.finalizedSequence());
        upsert.setLong(++i, patch.sequence());
        upsert.addBatch();
      }
      upsert.executeBatch();
    }
  }

  private static void upsertStages(Connection connection, String uid, List<BuildEvent> events) throws SQLException {
    try (PreparedStatement upsert = connection.prepareStatement(UPSERT_STAGE)) {
      int rows = 0;
      for (BuildEvent event : events) {
        long seq = event.getSequence();
        Instant at = instant(event.getEmittedAtEpochMillis());
        if (event.hasStageStarted()) {
          var started = event.getStageStarted();
          stageRow(upsert, uid, event.getRunId(), started.getStageId(), started.getName(), started.getParallelBranch(),
              seq, at, seq, null, null, null, null);
          rows++;
        } else if (event.hasStageEnded()) {
          var ended = event.getStageEnded();
          stageRow(upsert, uid, event.getRunId(), ended.getStageId(), ended.getName(), ended.getParallelBranch(),
              seq, null, null, ended.getStatus(), ended.getDurationMillis(), at, seq);
          rows++;
        }
      }
      if (rows > 0) {
        upsert.executeBatch();
      }
    }
  }

  private static void stageRow(PreparedStatement upsert, String uid, String runId, String stageId, String name,
      String branch, long seq, Instant startedAt, Long startedSeq, String status, Long duration, Instant endedAt,
      Long endedSeq) throws SQLException {
    upsert.setString(1, uid);
    upsert.setString(2, runId);
    upsert.setString(3, stageId);
    upsert.setString(4, name);
    upsert.setString(5, branch);
    // An event without the stage's name must not win the name over one that has it.
    upsert.setLong(6, name.isEmpty() ? 0 : seq);
    setInstant(upsert, 7, startedAt);
    setLong(upsert, 8, startedSeq);
    upsert.setString(9, status);
    setLong(upsert, 10, duration);
    setInstant(upsert, 11, endedAt);
    setLong(upsert, 12, endedSeq);
    upsert.addBatch();
  }

  private static void upsertTestSummaries(Connection connection, String uid, List<BuildEvent> events)
      throws SQLException {
    try (PreparedStatement upsert = connection.prepareStatement(UPSERT_TEST_SUMMARY)) {
      int rows = 0;
      for (BuildEvent event : events) {
        if (!event.hasTestSummary()) {
          continue;
        }
        var summary = event.getTestSummary();
        upsert.setString(1, uid);
        upsert.setString(2, event.getRunId());
        upsert.setInt(3, summary.getTotal());
        upsert.setInt(4, summary.getFailed());
        upsert.setInt(5, summary.getSkipped());
        upsert.setLong(6, event.getSequence());
        setInstant(upsert, 7, instant(event.getEmittedAtEpochMillis()));
        upsert.addBatch();
        rows++;
      }
      if (rows > 0) {
        upsert.executeBatch();
      }
    }
  }

  // The inventory replaces the controller's rows unless a newer one is recorded already (a late redelivery).
  private static Outcome replaceSchedules(Connection connection, ControllerRef controller, String cluster,
      JobScheduleInventory inventory) throws SQLException {
    Instant observedAt = inventory.getObservedAtEpochMillis() > 0
        ? Instant.ofEpochMilli(inventory.getObservedAtEpochMillis()) : Instant.EPOCH;
    try (PreparedStatement upsert = connection.prepareStatement(UPSERT_INVENTORY)) {
      upsert.setString(1, controller.getUid());
      upsert.setString(2, cluster);
      upsert.setString(3, controller.getNamespace());
      upsert.setString(4, controller.getName());
      setInstant(upsert, 5, observedAt);
      try (ResultSet current = upsert.executeQuery()) {
        if (!current.next()) {
          return new Outcome(0, 1, 0, false);
        }
      }
    }
    try (PreparedStatement delete = connection.prepareStatement("DELETE FROM job_schedules WHERE controller_uid = ?")) {
      delete.setString(1, controller.getUid());
      delete.executeUpdate();
    }
    try (PreparedStatement insert = connection.prepareStatement("""
        INSERT INTO job_schedules (controller_uid, job, cluster, namespace, controller_name, timer_specs, observed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (controller_uid, job) DO UPDATE SET timer_specs = EXCLUDED.timer_specs""")) {
      int rows = 0;
      for (JobSchedule job : inventory.getJobsList()) {
        if (job.getJob().isEmpty()) {
          LOG.warn("event=job_schedule_malformed controller={}/{} problem=\"job is empty\"", controller.getNamespace(),
              controller.getName());
          continue;
        }
        Array specs = connection.createArrayOf("text", job.getTimerSpecsList().toArray(String[]::new));
        insert.setString(1, controller.getUid());
        insert.setString(2, job.getJob());
        insert.setString(3, cluster);
        insert.setString(4, controller.getNamespace());
        insert.setString(5, controller.getName());
        insert.setArray(6, specs);
        setInstant(insert, 7, observedAt);
        insert.addBatch();
        rows++;
      }
      if (rows > 0) {
        insert.executeBatch();
      }
    }
    return new Outcome(0, 0, 0, true);
  }

  private static void rollbackQuietly(Connection connection, Exception cause) {
    try {
      connection.rollback();
    } catch (SQLException rollbackFailed) {
      cause.addSuppressed(rollbackFailed);
    }
  }

  private static Instant instant(long epochMillis) {
    return epochMillis > 0 ? Instant.ofEpochMilli(epochMillis) : null;
  }

  private static OffsetDateTime timestamp(long epochMillis) {
    return epochMillis > 0 ? OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC) : null;
  }

  private static void setLong(PreparedStatement statement, int index, Long value) throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.BIGINT);
    } else {
      statement.setLong(index, value);
    }
  }

  private static void setInstant(PreparedStatement statement, int index, Instant value) throws SQLException {
    if (value == null) {
      statement.setNull(index, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      statement.setObject(index, OffsetDateTime.ofInstant(value, ZoneOffset.UTC), Types.TIMESTAMP_WITH_TIMEZONE);
    }
  }
}

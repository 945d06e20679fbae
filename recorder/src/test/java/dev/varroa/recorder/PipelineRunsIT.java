package dev.varroa.recorder;

import static dev.varroa.recorder.BuildEvents.T0;
import static dev.varroa.recorder.BuildEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.RunCompleted;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.v1.CellWake;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A pipeline run requested from the core, with a real recorder, NATS and PostgreSQL; the test plays the Team's
 * cluster's operator (cell wakes and actions) and the cell's gateway (build events).
 */
class PipelineRunsIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  /** Above the recorder's own waits (a wake, then the operator: five seconds each). */
  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(15);
  private static final Duration RECORDED_WITHIN = Duration.ofSeconds(20);
  private static final String CELLS = "cells";
  private static final String CELL = "shared-0";
  private static final String JOB = "tenants_alpha/build";

  private static Recorder recorder;
  private static Connection nats;
  private static RecordedRows rows;
  private FakeOperator operator;

  @BeforeAll
  static void startRecorder() throws Exception {
    var postgres = POSTGRES.server();
    recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0));
    nats = NATS.server().connect();
    rows = RecordedRows.of(postgres, postgres.jdbcUrl());
  }

  @AfterAll
  static void stopRecorder() throws Exception {
    if (nats != null) {
      nats.close();
    }
    if (recorder != null) {
      recorder.close();
    }
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.close();
    }
  }

  private static CellWakeResult woken() {
    return CellWakeResult.newBuilder().setOutcome("woken").setCell(CELL).setPhaseBefore("Hibernated")
        .setMessage("cell " + CELLS + "/" + CELL + " is waking").build();
  }

  private static ActionResult accepted(ActionRequest request) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome("accepted")
        .setMessage("queued " + JOB + " on " + CELL).setCellNamespace(CELLS).setCell(CELL).setJob(JOB).build();
  }

  private static String uniqueCluster() {
    return "member-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static ActionRequest.Builder runRequest(String cluster) {
    return ActionRequest.newBuilder().setRequestId(UUID.randomUUID().toString()).setVerb("pipeline-run")
        .setCluster(cluster).setNamespace("tenants").setName("alpha").setPipeline("build").setUser("alice");
  }

  private static ActionResult send(ActionRequest request) throws Exception {
    Message reply = nats.request(BusNames.PIPELINE_RUNS_SUBJECT, request.toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.PIPELINE_RUNS_SUBJECT).isNotNull();
    return ActionResult.parseFrom(reply.getData());
  }

  private static PipelineRunStatus status(String requestId) throws Exception {
    Message reply = nats.request(BusNames.PIPELINE_RUN_STATUS_SUBJECT,
        PipelineRunStatusRequest.newBuilder().setRequestId(requestId).build().toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.PIPELINE_RUN_STATUS_SUBJECT).isNotNull();
    return PipelineRunStatus.parseFrom(reply.getData());
  }

  private static PipelineRunStatus reportQueued(PipelineRunQueued queued) throws Exception {
    Message reply = nats.request(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, queued.toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.PIPELINE_RUN_QUEUED_SUBJECT).isNotNull();
    return PipelineRunStatus.parseFrom(reply.getData());
  }

  private static PipelineRunQueued queuedAs(ActionRequest request, long queueId) {
    return PipelineRunQueued.newBuilder().setRequestId(request.getRequestId()).setCluster(request.getCluster())
        .setCellNamespace(CELLS).setCell(CELL).setJob(JOB).setQueueId(queueId).setOutcome("queued")
        .setAtEpochMillis(T0).build();
  }

  /** Publishes build events of the cell as its gateway does, for the cluster the run was requested on. */
  private static void publishFromCell(String cluster, ControllerIdentity cell, BuildEvent... events) throws Exception {
    BuildEventGroup group = BuildEventGroup.newBuilder().setController(cell.toRef()).setCluster(cluster)
        .setGatewayId("gateway-0").setPublishedAtEpochMillis(T0).addAllEvents(List.of(events)).build();
    BuildEvents.publish(nats, cell, group);
  }

  private static void awaitState(String requestId, String state) {
    await().atMost(RECORDED_WITHIN).until(() -> status(requestId).getState(), state::equals);
  }

  @Test
  void recordsWakesAndForwardsARunThenAnswersTheSameRequestAgainWithoutRunningItTwice() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);
    ActionRequest request = runRequest(cluster).putParameters("BRANCH", "main").putParameters("DRY_RUN", "true")
        .build();

    ActionResult first = send(request);

    assertThat(first.getOutcome()).as(first.getMessage()).isEqualTo("accepted");
    assertThat(first.getWake()).isEqualTo("woken");
    assertThat(first.getCell()).isEqualTo(CELL);
    assertThat(first.getJob()).isEqualTo(JOB);
    assertThat(first.getReplayed()).isFalse();
    assertThat(operator.wakes).singleElement().satisfies(wake -> {
      assertThat(wake.getNamespace()).isEqualTo("tenants");
      assertThat(wake.getTeam()).isEqualTo("alpha");
      assertThat(wake.getReason()).contains("pipeline build", request.getRequestId());
    });
    assertThat(operator.actions).containsExactly(request);
    Map<String, Object> row = rows.query("SELECT cluster, namespace, team, pipeline, parameters ->> 'BRANCH' AS branch,"
        + " parameters ->> 'DRY_RUN' AS dry_run, requested_by, wake, state, cell_namespace, cell, job"
        + " FROM pipeline_requests WHERE request_id = ?::uuid", request.getRequestId()).get(0);
    assertThat(row).containsEntry("cluster", cluster).containsEntry("team", "alpha").containsEntry("pipeline", "build")
        .containsEntry("branch", "main").containsEntry("dry_run", "true").containsEntry("requested_by", "alice")
        .containsEntry("wake", "woken").containsEntry("state", "requested").containsEntry("cell_namespace", CELLS)
        .containsEntry("cell", CELL).containsEntry("job", JOB);

    ActionResult again = send(request);

    assertThat(again.getReplayed()).isTrue();
    assertThat(again.toBuilder().setReplayed(false).build()).isEqualTo(first);
    assertThat(operator.actions).as("forwarded once").hasSize(1);
    assertThat(operator.wakes).as("woken once").hasSize(1);
    PipelineRunStatus status = status(request.getRequestId());
    assertThat(status.getState()).isEqualTo("requested");
    assertThat(status.getWake()).isEqualTo("woken");
    assertThat(status.getRequestedBy()).isEqualTo("alice");
  }

  @Test
  void storesTheOperatorsRefusalAsAFailedRun() throws Exception {
    String cluster = uniqueCluster();
    String refusal = "Team tenants/alpha has no pipeline deploy in spec.pipelines (it has: build, test)";
    operator = new FakeOperator(nats, cluster,
        CellWakeResult.newBuilder().setOutcome("not-parked").setCell(CELL).build(),
        request -> ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome("refused")
            .setNotFound(true).setMessage(refusal).build());
    ActionRequest request = runRequest(cluster).setPipeline("deploy").build();

    ActionResult result = send(request);

    assertThat(result.getOutcome()).isEqualTo("refused");
    assertThat(result.getNotFound()).isTrue();
    assertThat(result.getMessage()).isEqualTo(refusal);
    assertThat(result.getWake()).isEqualTo("not-parked");
    PipelineRunStatus status = status(request.getRequestId());
    assertThat(status.getState()).isEqualTo("failed");
    assertThat(status.getMessage()).isEqualTo(refusal);
  }

  @Test
  void failsNamingTheClusterWhenNoOperatorAnswers() throws Exception {
    String cluster = uniqueCluster();
    ActionRequest request = runRequest(cluster).build();

    ActionResult result = send(request);

    assertThat(result.getOutcome()).isEqualTo("failed");
    assertThat(result.getMessage()).contains("the operator of cluster " + cluster + " did not answer",
        BusNames.clusterActions(cluster));
    assertThat(result.getWake()).isEqualTo("unanswered");
    PipelineRunStatus status = status(request.getRequestId());
    assertThat(status.getState()).isEqualTo("failed");
    assertThat(status.getMessage()).isEqualTo(result.getMessage());
  }

  @Test
  void refusesARequestWithoutAPipelineNamingTheFieldAndRecordsNothing() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);
    ActionRequest request = runRequest(cluster).clearPipeline().build();

    ActionResult result = send(request);

    assertThat(result.getOutcome()).isEqualTo("refused");
    assertThat(result.getMessage()).contains("ActionRequest.pipeline", "is empty");
    assertThat(operator.actions).isEmpty();
    assertThat(operator.wakes).isEmpty();
    assertThat(rows.count("SELECT count(*) FROM pipeline_requests WHERE request_id = ?::uuid",
        request.getRequestId())).isZero();
    assertThat(status(request.getRequestId()).getMessage()).contains("no pipeline run request");
  }

  @Test
  void refusesARequestFromTheCoreThatNamesACallerTeam() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);

    ActionResult result = send(runRequest(cluster).setCallerTeam("tenants/beta").setCallerCluster(cluster).build());

    assertThat(result.getOutcome()).isEqualTo("refused");
    assertThat(result.getMessage()).contains("caller_team", "set by the recorder only");
    assertThat(operator.actions).isEmpty();
  }

  @Test
  void followsTheRunFromQueuedToFinishedByItsQueueItem() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);
    ActionRequest request = runRequest(cluster).build();
    assertThat(send(request).getOutcome()).isEqualTo("accepted");
    ControllerIdentity cell = new ControllerIdentity(CELLS, CELL, UUID.randomUUID().toString());
    // an earlier build of the same job with another queue item is not this request's run
    publishFromCell(cluster, cell, event("run-other", 1, JOB).setRunQueued(RunQueued.newBuilder().setQueueId(76))
        .build());

    PipelineRunStatus queued = reportQueued(queuedAs(request, 77));

    assertThat(queued.getState()).as(queued.getMessage()).isEqualTo("queued");
    assertThat(queued.getQueueId()).isEqualTo(77);
    assertThat(queued.getRunId()).isEmpty();

    publishFromCell(cluster, cell, event("run-77", 1, JOB).setRunQueued(RunQueued.newBuilder().setQueueId(77))
        .build());
    publishFromCell(cluster, cell, event("run-77", 2, JOB).setRunStarted(RunStarted.newBuilder().setBuildNumber(12)
        .setNode("agent-1")).build());
    awaitState(request.getRequestId(), "running");
    PipelineRunStatus running = status(request.getRequestId());
    assertThat(running.getRunId()).isEqualTo("run-77");
    assertThat(running.getBuildNumber()).isEqualTo(12);
    assertThat(running.getStartedAtEpochMillis()).isEqualTo(T0 + 2000);

    publishFromCell(cluster, cell, event("run-77", 3, JOB).setRunCompleted(RunCompleted.newBuilder()
        .setBuildNumber(12).setResult("UNSTABLE").setDurationMillis(900)).build());
    awaitState(request.getRequestId(), "finished");
    PipelineRunStatus finished = status(request.getRequestId());
    assertThat(finished.getResult()).isEqualTo("UNSTABLE");
    assertThat(finished.getDurationMillis()).isEqualTo(900);
    assertThat(finished.getFinishedAtEpochMillis()).isEqualTo(T0 + 3000);
    assertThat(finished.getCell()).isEqualTo(CELL);
    assertThat(finished.getJob()).isEqualTo(JOB);
  }

  @Test
  void aRunJenkinsNeverTookIsFailedWithTheOperatorsMessage() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);
    ActionRequest request = runRequest(cluster).build();
    send(request);

    PipelineRunStatus failed = reportQueued(queuedAs(request, 0).toBuilder().setOutcome("failed")
        .setMessage("job " + JOB + " is not on cell " + CELLS + "/" + CELL).build());

    assertThat(failed.getState()).isEqualTo("failed");
    assertThat(status(request.getRequestId()).getMessage()).isEqualTo("job " + JOB + " is not on cell " + CELLS
        + "/" + CELL);
  }

  @Test
  void refusesAQueuedReportFromAnotherClusterThanTheRequests() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, woken(), PipelineRunsIT::accepted);
    ActionRequest request = runRequest(cluster).build();
    send(request);

    PipelineRunStatus answer = reportQueued(queuedAs(request, 5).toBuilder().setCluster("elsewhere").build());

    assertThat(answer.getState()).isEmpty();
    assertThat(answer.getMessage()).contains("is for cluster " + cluster, "not cluster elsewhere");
    assertThat(status(request.getRequestId()).getState()).isEqualTo("requested");
  }
}

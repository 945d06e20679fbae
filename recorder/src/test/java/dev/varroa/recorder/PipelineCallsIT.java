package dev.varroa.recorder;

import static dev.varroa.recorder.BuildEvents.T0;
import static dev.varroa.recorder.BuildEvents.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.builds.v1.RunCompleted;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import dev.varroa.protocol.bus.v1.PipelineCall;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.mite.v1.ControllerRef;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cross-tenant pipeline call with a real recorder, NATS and PostgreSQL: the test plays the calling cell's gateway
 * (PipelineCall on varroa.recorder.pipeline-calls), the called Team's operator (cell wakes and actions) and the called
 * cell's gateway (build events).
 */
class PipelineCallsIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(15);
  private static final Duration RECORDED_WITHIN = Duration.ofSeconds(20);
  /** The calling cell: Team checkout of namespace cells has folder checkout there. */
  private static final ControllerRef CALLING_CELL = ControllerRef.newBuilder().setNamespace("cells")
      .setName("shared-0").setUid(UUID.randomUUID().toString()).build();
  private static final String CALLED_CELL = "shared-1";
  private static final String CALLED_JOB = "payments_billing/deploy";

  private static Recorder recorder;
  private static Connection nats;
  private static RecordedRows rows;
  private FakeOperator operator;

  @BeforeAll
  static void startRecorder() throws Exception {
    var postgres = POSTGRES.server();
    recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0).withDashboardUrl("https://varroa.example.com/"));
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

  private static String uniqueCluster() {
    return "member-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static PipelineCallRequest.Builder callOf(String calledTeam) {
    return PipelineCallRequest.newBuilder().setCallId(UUID.randomUUID().toString()).setRunId("run-caller-7")
        .setJob("checkout/release").setTeam(calledTeam).setPipeline("deploy");
  }

  private static PipelineCallAnswer ask(ControllerRef cell, String cluster, PipelineCallRequest call,
      boolean statusOnly) throws Exception {
    // a question carries only the call_id, as the mite's GET /v1/pipeline-calls/<call_id> has nothing else
    PipelineCallRequest sent = statusOnly ? PipelineCallRequest.newBuilder().setCallId(call.getCallId()).build()
        : call;
    PipelineCall asked = PipelineCall.newBuilder().setController(cell).setCluster(cluster).setCall(sent)
        .setStatusOnly(statusOnly).build();
    Message reply = nats.request(BusNames.PIPELINE_CALLS_SUBJECT, asked.toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.PIPELINE_CALLS_SUBJECT).isNotNull();
    return PipelineCallAnswer.parseFrom(reply.getData());
  }

  private static ActionResult accepted(ActionRequest request) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome("accepted")
        .setCellNamespace("cells").setCell(CALLED_CELL).setJob(CALLED_JOB).build();
  }

  private static CellWakeResult notParked() {
    return CellWakeResult.newBuilder().setOutcome("not-parked").setCell(CALLED_CELL).build();
  }

  @Test
  void anAllowedCallIsRecordedWithTheCallingTeamForwardedOnceAndAnsweredRequested() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, notParked(), PipelineCallsIT::accepted);
    PipelineCallRequest call = callOf("payments/billing").putParameters("VERSION", "1.4").build();

    PipelineCallAnswer answer = ask(CALLING_CELL, cluster, call, false);

    assertThat(answer.getState()).as(answer.getMessage()).isEqualTo("requested");
    assertThat(answer.getCode()).isEqualTo("OK");
    assertThat(answer.getCluster()).as("no cluster in the call: the caller's").isEqualTo(cluster);
    assertThat(answer.getNamespace()).isEqualTo("payments");
    assertThat(answer.getTeam()).isEqualTo("billing");
    assertThat(answer.getUrl()).as("no run yet, no link").isEmpty();
    assertThat(operator.actions).singleElement().satisfies(forwarded -> {
      assertThat(forwarded.getRequestId()).isEqualTo(call.getCallId());
      assertThat(forwarded.getVerb()).isEqualTo("pipeline-run");
      assertThat(forwarded.getNamespace()).isEqualTo("payments");
      assertThat(forwarded.getName()).isEqualTo("billing");
      assertThat(forwarded.getParametersMap()).containsExactly(Map.entry("VERSION", "1.4"));
      assertThat(forwarded.getCallerTeam()).as("the job's folder in the cell's namespace").isEqualTo("cells/checkout");
      assertThat(forwarded.getCallerCluster()).isEqualTo(cluster);
      assertThat(forwarded.getUser()).isEqualTo("team cells/checkout (cluster " + cluster
          + ", job checkout/release run run-caller-7)");
    });
    Map<String, Object> row = rows.query("SELECT caller_team, caller_cluster, caller_controller, team, state"
        + " FROM pipeline_requests WHERE request_id = ?::uuid", call.getCallId()).get(0);
    assertThat(row).containsEntry("caller_team", "cells/checkout").containsEntry("caller_cluster", cluster)
        .containsEntry("caller_controller", "cells/shared-0").containsEntry("team", "billing")
        .containsEntry("state", "requested");

    PipelineCallAnswer again = ask(CALLING_CELL, cluster, call, false);

    assertThat(again.getState()).isEqualTo("requested");
    assertThat(operator.actions).as("the same call_id never runs twice").hasSize(1);
  }

  @Test
  void aCallTheCalledTeamsOperatorRefusesIsRefusedWithItsMessage() throws Exception {
    String cluster = uniqueCluster();
    String refusal = "Team payments/billing does not let Team cells/checkout call its pipelines (spec.callableBy:"
        + " [orders]); fix: add cells/checkout to spec.callableBy of Team payments/billing";
    operator = new FakeOperator(nats, cluster, notParked(), request -> ActionResult.newBuilder()
        .setRequestId(request.getRequestId()).setOutcome("refused").setMessage(refusal).build());
    PipelineCallRequest call = callOf("payments/billing").build();

    PipelineCallAnswer answer = ask(CALLING_CELL, cluster, call, false);

    assertThat(answer.getState()).isEqualTo("refused");
    assertThat(answer.getMessage()).isEqualTo(refusal);
    assertThat(ask(CALLING_CELL, cluster, call, true).getState()).as("asked again").isEqualTo("refused");
  }

  @Test
  void onlyTheCellThatMadeTheCallMayAskWhereItIs() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, notParked(), PipelineCallsIT::accepted);
    PipelineCallRequest call = callOf("billing").build();
    assertThat(ask(CALLING_CELL, cluster, call, false).getState()).isEqualTo("requested");
    ControllerRef otherCell = CALLING_CELL.toBuilder().setName("shared-9").build();

    PipelineCallAnswer stranger = ask(otherCell, cluster, call, true);
    PipelineCallAnswer otherCluster = ask(CALLING_CELL, uniqueCluster(), call, true);
    // taking over the call_id to run it is no way in either
    PipelineCallAnswer takeOver = ask(otherCell, cluster, call, false);

    assertThat(stranger.getState()).isEqualTo("refused");
    assertThat(stranger.getMessage()).startsWith("not your call");
    assertThat(otherCluster.getState()).isEqualTo("refused");
    assertThat(takeOver.getState()).isEqualTo("refused");
    assertThat(operator.actions).hasSize(1);
    assertThat(operator.actions.get(0).getNamespace()).as("a bare team name is in the caller's namespace")
        .isEqualTo("cells");
  }

  @Test
  void aJobOutsideATeamFolderIsRefusedAndNothingIsForwarded() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, notParked(), PipelineCallsIT::accepted);

    PipelineCallAnswer answer = ask(CALLING_CELL, cluster, callOf("billing").setJob("loose-job").build(), false);
    PipelineCallAnswer invalid = ask(CALLING_CELL, cluster, callOf("billing").clearPipeline().build(), false);

    assertThat(answer.getState()).isEqualTo("refused");
    assertThat(answer.getMessage()).contains("the calling job loose-job is in no Team's folder");
    assertThat(invalid.getState()).isEmpty();
    assertThat(invalid.getCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(invalid.getMessage()).contains("PipelineCallRequest.pipeline", "is empty");
    assertThat(operator.actions).isEmpty();
  }

  @Test
  void theCallFollowsTheCalledRunToFinishedWithItsResultAndLink() throws Exception {
    String cluster = uniqueCluster();
    operator = new FakeOperator(nats, cluster, notParked(), PipelineCallsIT::accepted);
    PipelineCallRequest call = callOf("payments/billing").build();
    ask(CALLING_CELL, cluster, call, false);
    Message queued = nats.request(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, PipelineRunQueued.newBuilder()
        .setRequestId(call.getCallId()).setCluster(cluster).setCellNamespace("cells").setCell(CALLED_CELL)
        .setJob(CALLED_JOB).setQueueId(31).setOutcome("queued").setAtEpochMillis(T0).build().toByteArray(),
        ANSWER_WITHIN);
    assertThat(queued).isNotNull();
    assertThat(ask(CALLING_CELL, cluster, call, true).getState()).isEqualTo("queued");
    ControllerIdentity called = new ControllerIdentity("cells", CALLED_CELL, UUID.randomUUID().toString());

    publishFromCalledCell(cluster, called, event("run-31", 1, CALLED_JOB).setRunQueued(RunQueued.newBuilder()
        .setQueueId(31)).build(), event("run-31", 2, CALLED_JOB).setRunStarted(RunStarted.newBuilder()
        .setBuildNumber(8)).build());
    await().atMost(RECORDED_WITHIN).until(() -> ask(CALLING_CELL, cluster, call, true).getState(), "running"::equals);
    PipelineCallAnswer running = ask(CALLING_CELL, cluster, call, true);
    assertThat(running.getRunId()).isEqualTo("run-31");
    assertThat(running.getBuildNumber()).isEqualTo(8);
    assertThat(running.getUrl()).isEqualTo("https://varroa.example.com/ui/runs/run-31");

    publishFromCalledCell(cluster, called, event("run-31", 3, CALLED_JOB).setRunCompleted(RunCompleted.newBuilder()
        .setBuildNumber(8).setResult("FAILURE").setDurationMillis(400)).build());
    await().atMost(RECORDED_WITHIN).until(() -> ask(CALLING_CELL, cluster, call, true).getState(), "finished"::equals);
    PipelineCallAnswer finished = ask(CALLING_CELL, cluster, call, true);
    assertThat(finished.getResult()).isEqualTo("FAILURE");
    assertThat(finished.getPipeline()).isEqualTo("deploy");
  }

  private static void publishFromCalledCell(String cluster, ControllerIdentity cell,
      dev.varroa.protocol.builds.v1.BuildEvent... events) throws Exception {
    BuildEventGroup group = BuildEventGroup.newBuilder().setController(cell.toRef()).setCluster(cluster)
        .setGatewayId("gateway-1").setPublishedAtEpochMillis(T0).addAllEvents(java.util.List.of(events)).build();
    BuildEvents.publish(nats, cell, group);
  }
}

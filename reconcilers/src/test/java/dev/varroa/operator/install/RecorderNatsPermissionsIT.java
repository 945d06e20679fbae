package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BuildEventMessageId;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.operator.hibernation.InactivityPolicy;
import dev.varroa.operator.hibernation.RecorderJobSchedules;
import dev.varroa.operator.cell.RecorderTeamPlacements;
import dev.varroa.protocol.bus.v1.CellWakeResult;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineCall;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import io.nats.client.Dispatcher;
import dev.varroa.recorder.CellWakes;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.ConsumerContext;
import io.nats.client.FetchConsumeOptions;
import io.nats.client.FetchConsumer;
import io.nats.client.JetStreamManagement;
import io.nats.client.ErrorListener;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import io.nats.client.PublishOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.impl.Headers;
import io.nats.client.impl.NatsMessage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's nats.conf with the record store on, on a real nats-server: the operator creates the topology, the
 * gateway's user publishes a build event group and asks the ledger, and the real recorder, logged in as the chart's
 * recorder user, writes the row and grants the claim, with no permission refused to anyone. What is not the
 * recorder's (the gateway's command subjects) is refused to it.
 */
class RecorderNatsPermissionsIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String OPERATOR_PASSWORD = "operator-" + UUID.randomUUID();
  private static final String GATEWAY_PASSWORD = "gateway-" + UUID.randomUUID();
  private static final String RECORDER_PASSWORD = "recorder-" + UUID.randomUUID();
  private static final String DASHBOARD_PASSWORD = "dashboard-" + UUID.randomUUID();

  @TempDir
  Path dir;
  private NatsServerProcess nats;
  private final Queue<String> errors = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void startNatsWithTheRenderedConfig() throws Exception {
    String config;
    try (HelmChart chart = HelmChart.varroa()) {
      config = ChartNatsConfig.forLoopback(chart.template(HelmChart.Render.in(ChartRbac.NAMESPACE)
          .set("recordStore.enabled", "true").withApiVersion("postgresql.cnpg.io/v1/Cluster")), Map.of("SERVER_NAME", "chart-recorder-it",
          "OPERATOR_PASSWORD", OPERATOR_PASSWORD, "GATEWAY_PASSWORD", GATEWAY_PASSWORD,
          "RECORDER_PASSWORD", RECORDER_PASSWORD, "DASHBOARD_PASSWORD", DASHBOARD_PASSWORD));
    }
    assertThat(config).contains("user: recorder");
    nats = NatsServerProcess.startWithConfig(ChartNatsConfig.withoutTls(config));
  }

  @AfterEach
  void stopNats() throws InterruptedException {
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void theRecorderConsumesAndAnswersClaimsAsTheChartsRecorderUser() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    Path password = Files.writeString(dir.resolve("recorder-password"), RECORDER_PASSWORD);
    ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());
    try (Connection operator = connect("operator", OPERATOR_PASSWORD);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD)) {
      BusTopology.ensure(operator);
      try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
          postgres.password(), nats.value().url()).withHealthPort(0).withNatsCredentials("recorder", password, null))) {
        BuildEvent queued = BuildEvent.newBuilder().setRunId("run-1").setSequence(1).setJob("team/app/main")
            .setRunQueued(RunQueued.newBuilder().setQueueId(3).setCause("Started by timer")).build();
        Headers headers = new Headers().put("Nats-Msg-Id", BuildEventMessageId.of(controller, List.of(queued)));
        gateway.jetStream().publish(NatsMessage.builder().subject(BusNames.builds(controller)).headers(headers)
            .data(BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster("core")
                .setGatewayId("gw-1").addEvents(queued).build().toByteArray()).build(),
            PublishOptions.builder().expectedStream(BusNames.BUILDS_STREAM).build());
        await().atMost(DEADLINE).until(() -> runRows(postgres, controller) == 1);

        Message reply = gateway.request(BusNames.LEDGER_CLAIM_SUBJECT, LedgerClaim.newBuilder()
            .setController(controller.toRef()).setCluster("core")
            .setClaim(ClaimRequest.newBuilder().setRunId("run-2").setJob("team/app/main").setQueueId(4))
            .build().toByteArray(), DEADLINE);
        assertThat(ClaimDecision.parseFrom(reply.getData()).getDecision()).isEqualTo("granted");
        assertThat(errors).as("permission errors of the operator and gateway users").isEmpty();
      }
    }
    // the recorder's own refusals would show only in its log and the server's: the server logs every violation
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");

    try (Connection recorderUser = connect("recorder", RECORDER_PASSWORD)) {
      recorderUser.subscribe(BusNames.gatewayCommands("core", "gw-1"));
      await().atMost(DEADLINE).until(() -> errors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Subscription to \"" + BusNames.gatewayCommands("core", "gw-1") + "\"")));
      recorderUser.publish(BusNames.builds(controller), "forged".getBytes(StandardCharsets.UTF_8));
      await().atMost(DEADLINE).until(() -> errors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Publish to \"" + BusNames.builds(controller) + "\"")));
    }
    assertThat(nats.log()).as("the server logs violations, so its silence above means something")
        .containsIgnoringCase("violation");
  }

  /**
   * Activity (seed 001): the recorder user creates varroa_activity and its durable consumer the way the recorder does
   * (names, then create), the operator and gateway users publish events on it, the gateway announces a log append,
   * and the recorder user fetches and acks every event, with nothing refused.
   */
  @Test
  void theRecorderDrainsActivityThatTheOperatorAndGatewayPublish() throws Exception {
    try (Connection operator = connect("operator", OPERATOR_PASSWORD);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD);
        Connection recorder = connect("recorder", RECORDER_PASSWORD)) {
      BusTopology.ensure(operator);
      JetStreamManagement jsm = recorder.jetStreamManagement();
      if (!jsm.getStreamNames().contains(BusNames.ACTIVITY_STREAM)) {
        jsm.addStream(StreamConfiguration.builder().name(BusNames.ACTIVITY_STREAM).subjects(BusNames.activityFilter())
            .retentionPolicy(RetentionPolicy.Limits).discardPolicy(DiscardPolicy.Old).maxAge(BusNames.ACTIVITY_BUFFER)
            .duplicateWindow(Duration.ofMinutes(2)).storageType(StorageType.File).build());
      }
      if (!jsm.getConsumerNames(BusNames.ACTIVITY_STREAM).contains(BusNames.ACTIVITY_CONSUMER)) {
        jsm.addOrUpdateConsumer(BusNames.ACTIVITY_STREAM, ConsumerConfiguration.builder()
            .durable(BusNames.ACTIVITY_CONSUMER).ackPolicy(AckPolicy.Explicit).deliverPolicy(DeliverPolicy.All).build());
      }
      ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());
      operator.publish(NatsMessage.builder().subject(BusNames.activity("core", "ci", "sandbox"))
          .headers(new Headers().put("Nats-Msg-Id", UUID.randomUUID().toString())).data(new byte[] {1}).build());
      operator.publish(BusNames.activityGlobal("core"), new byte[] {2});
      gateway.publish(NatsMessage.builder().subject(BusNames.activity("core", "ci", "sandbox"))
          .headers(new Headers().put("Nats-Msg-Id", UUID.randomUUID().toString())).data(new byte[] {3}).build());
      gateway.publish(BusNames.logAppended("core", controller, "run-1"), new byte[] {4});
      operator.flush(DEADLINE);
      gateway.flush(DEADLINE);

      ConsumerContext consumer = recorder.getConsumerContext(BusNames.ACTIVITY_STREAM, BusNames.ACTIVITY_CONSUMER);
      List<Byte> drained = new ArrayList<>();
      await().atMost(DEADLINE).until(() -> {
        try (FetchConsumer fetch = consumer.fetch(FetchConsumeOptions.builder().maxMessages(10)
            .expiresIn(1000).build())) {
          Message message;
          while ((message = fetch.nextMessage()) != null) {
            drained.add(message.getData()[0]);
            message.ack();
          }
        }
        return drained.size() == 3;
      });
      assertThat(drained).containsExactlyInAnyOrder((byte) 1, (byte) 2, (byte) 3);
      recorder.flush(DEADLINE);
      assertThat(errors).as("permission errors of the operator, gateway and recorder users").isEmpty();
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");
  }

  /**
   * Hibernation: the operator user asks the real recorder, logged in as the chart's recorder user, for a parked
   * controller's job schedules (varroa.recorder.job-schedules) and computes the next timer wake from the answer.
   */
  @Test
  void theOperatorLearnsAControllersNextTimerJobFromTheRecorder() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    Path password = Files.writeString(dir.resolve("recorder-password"), RECORDER_PASSWORD);
    ControllerIdentity controller = new ControllerIdentity("ci", "nightly", UUID.randomUUID().toString());
    try (Connection operator = connect("operator", OPERATOR_PASSWORD);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD)) {
      BusTopology.ensure(operator);
      try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
          postgres.password(), nats.value().url()).withHealthPort(0).withNatsCredentials("recorder", password, null))) {
        JobScheduleInventory inventory = JobScheduleInventory.newBuilder().setObservedAtEpochMillis(1_000)
            .addJobs(JobSchedule.newBuilder().setJob("team/nightly").addTimerSpecs("TZ=UTC").addTimerSpecs("0 2 * * *"))
            .build();
        Headers headers = new Headers().put("Nats-Msg-Id", BuildEventMessageId.of(controller, inventory));
        gateway.jetStream().publish(NatsMessage.builder().subject(BusNames.builds(controller)).headers(headers)
            .data(BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster("core")
                .setGatewayId("gw-1").setSchedules(inventory).build().toByteArray()).build(),
            PublishOptions.builder().expectedStream(BusNames.BUILDS_STREAM).build());
        RecorderJobSchedules schedules = new RecorderJobSchedules(() -> operator, "core", DEADLINE);
        Instant after = Instant.parse("2026-06-01T12:00:00Z");

        await().atMost(DEADLINE).until(() -> schedules.next(controller, ZoneOffset.UTC, after)
            instanceof InactivityPolicy.Timers.Known);
        assertThat(schedules.next(controller, ZoneOffset.UTC, after))
            .isEqualTo(new InactivityPolicy.Timers.Known(Optional.of(Instant.parse("2026-06-02T02:00:00Z"))));
        assertThat(errors).as("permission errors of the operator and gateway users").isEmpty();
      }
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");
  }

  /**
   * Cells: the operator user records a pool's team placements with the real recorder (the chart's recorder user), and
   * the recorder sends a cell wake that the operator user answers on its own cluster's subject, with nothing refused.
   */
  @Test
  void theOperatorRecordsPlacementsAndAnswersTheRecordersCellWake() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    Path password = Files.writeString(dir.resolve("recorder-password"), RECORDER_PASSWORD);
    try (Connection operator = connect("operator", OPERATOR_PASSWORD)) {
      BusTopology.ensure(operator);
      try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
          postgres.password(), nats.value().url()).withHealthPort(0).withNatsCredentials("recorder", password, null))) {
        Optional<String> recorded = new RecorderTeamPlacements(operator, "core").record("tenants", "shared",
            List.of(new dev.varroa.operator.cell.PlacementRecord.Entry("alpha", "shared-0", Instant.parse("2026-06-01T08:00:00Z"))));
        assertThat(recorded).isEmpty();

        operator.createDispatcher(request -> operator.publish(request.getReplyTo(), CellWakeResult.newBuilder()
            .setCell("shared-0").setPhaseBefore("Hibernated").setOutcome("woken").build().toByteArray()))
            .subscribe(BusNames.clusterCellWake("core"), BusNames.OPERATOR_QUEUE_GROUP);
        operator.flush(DEADLINE);
        CellWakes.Result woken = recorder.cellWakes().wake("core", "tenants", "alpha", "build requested");

        assertThat(woken.outcome()).as(woken.message()).isEqualTo(CellWakes.Outcome.WOKEN);
        assertThat(woken.cell()).isEqualTo("shared-0");
        assertThat(errors).as("permission errors of the operator user").isEmpty();
      }
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");
  }

  /**
   * Pipeline runs (docs/pipelines.md): the dashboard user sends a run to the real recorder (the chart's recorder user),
   * which wakes the cell and forwards the run to the operator user on its cluster's actions subject; the operator
   * reports it queued and the dashboard reads its status, with nothing refused. Only the operator reports a run
   * queued, and only the dashboard requests one.
   */
  @Test
  void theDashboardRequestsAPipelineRunThatTheRecorderForwardsToTheOperator() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    Path password = Files.writeString(dir.resolve("recorder-password"), RECORDER_PASSWORD);
    String requestId = UUID.randomUUID().toString();
    try (Connection operator = connect("operator", OPERATOR_PASSWORD);
        Connection dashboard = connect("dashboard", DASHBOARD_PASSWORD)) {
      BusTopology.ensure(operator);
      try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
          postgres.password(), nats.value().url()).withHealthPort(0).withNatsCredentials("recorder", password, null))) {
        Dispatcher answers = operator.createDispatcher();
        answers.subscribe(BusNames.clusterCellWake("core"), BusNames.OPERATOR_QUEUE_GROUP, request ->
            operator.publish(request.getReplyTo(), CellWakeResult.newBuilder().setCell("shared-0")
                .setOutcome("not-parked").build().toByteArray()));
        answers.subscribe(BusNames.clusterActions("core"), BusNames.OPERATOR_QUEUE_GROUP, request ->
            operator.publish(request.getReplyTo(), ActionResult.newBuilder().setRequestId(requestId)
                .setOutcome("accepted").setCellNamespace("cells").setCell("shared-0").setJob("tenants_alpha/build")
                .build().toByteArray()));
        operator.flush(DEADLINE);

        Message accepted = dashboard.request(BusNames.PIPELINE_RUNS_SUBJECT, ActionRequest.newBuilder()
            .setRequestId(requestId).setVerb("pipeline-run").setCluster("core").setNamespace("tenants")
            .setName("alpha").setPipeline("build").setUser("alice").build().toByteArray(), DEADLINE);
        assertThat(accepted).as("the recorder's answer").isNotNull();
        ActionResult result = ActionResult.parseFrom(accepted.getData());
        assertThat(result.getOutcome()).as(result.getMessage()).isEqualTo("accepted");
        assertThat(result.getWake()).isEqualTo("not-parked");

        Message queued = operator.request(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, PipelineRunQueued.newBuilder()
            .setRequestId(requestId).setCluster("core").setCellNamespace("cells").setCell("shared-0")
            .setJob("tenants_alpha/build").setQueueId(9).setOutcome("queued").build().toByteArray(), DEADLINE);
        assertThat(PipelineRunStatus.parseFrom(queued.getData()).getState()).isEqualTo("queued");
        Message status = dashboard.request(BusNames.PIPELINE_RUN_STATUS_SUBJECT, PipelineRunStatusRequest
            .newBuilder().setRequestId(requestId).build().toByteArray(), DEADLINE);
        assertThat(PipelineRunStatus.parseFrom(status.getData()).getQueueId()).isEqualTo(9);
        assertThat(errors).as("permission errors of the operator and dashboard users").isEmpty();
      }
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");

    try (Connection dashboard = connect("dashboard", DASHBOARD_PASSWORD);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD);
        Connection operator = connect("operator", OPERATOR_PASSWORD)) {
      dashboard.publish(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, new byte[0]);
      gateway.publish(BusNames.PIPELINE_RUNS_SUBJECT, new byte[0]);
      operator.publish(BusNames.PIPELINE_RUNS_SUBJECT, new byte[0]);
      operator.subscribe(BusNames.PIPELINE_RUN_STATUS_SUBJECT);
      for (String refused : List.of("Publish to \"" + BusNames.PIPELINE_RUN_QUEUED_SUBJECT + "\"",
          "Publish to \"" + BusNames.PIPELINE_RUNS_SUBJECT + "\"",
          "Subscription to \"" + BusNames.PIPELINE_RUN_STATUS_SUBJECT + "\"")) {
        await("NATS refuses " + refused).atMost(DEADLINE).until(() -> errors.stream()
            .anyMatch(e -> e.contains("Permissions Violation for " + refused)));
      }
      await("NATS refuses both the gateway's and the operator's run request").atMost(DEADLINE).until(() -> errors
          .stream().filter(e -> e.contains("Publish to \"" + BusNames.PIPELINE_RUNS_SUBJECT + "\"")).count() == 2);
    }
  }

  /**
   * Cross-tenant calls: the chart's gateway user asks the recorder on varroa.recorder.pipeline-calls and the recorder
   * user answers; the dashboard and the operator send none.
   */
  @Test
  void theGatewayAsksTheRecorderWhereAPipelineCallIsAndOnlyTheGatewayMay() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    Path password = Files.writeString(dir.resolve("recorder-password"), RECORDER_PASSWORD);
    String callId = UUID.randomUUID().toString();
    try (Connection operator = connect("operator", OPERATOR_PASSWORD);
        Connection gateway = connect("gateway", GATEWAY_PASSWORD)) {
      BusTopology.ensure(operator);
      try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
          postgres.password(), nats.value().url()).withHealthPort(0).withNatsCredentials("recorder", password, null))) {
        Message reply = gateway.request(BusNames.PIPELINE_CALLS_SUBJECT, PipelineCall.newBuilder()
            .setController(new ControllerIdentity("cells", "shared-0", UUID.randomUUID().toString()).toRef())
            .setCluster("core").setStatusOnly(true)
            .setCall(PipelineCallRequest.newBuilder().setCallId(callId)).build().toByteArray(), DEADLINE);

        assertThat(reply).as("the recorder's answer").isNotNull();
        PipelineCallAnswer answer = PipelineCallAnswer.parseFrom(reply.getData());
        assertThat(answer.getState()).as(answer.getMessage()).isEqualTo("failed");
        assertThat(answer.getMessage()).contains("no pipeline call " + callId + " is recorded");
        assertThat(errors).as("permission errors of the gateway user").isEmpty();
      }
    }
    assertThat(nats.log()).as("nats-server's log").doesNotContainIgnoringCase("violation");

    try (Connection dashboard = connect("dashboard", DASHBOARD_PASSWORD);
        Connection operator = connect("operator", OPERATOR_PASSWORD)) {
      dashboard.publish(BusNames.PIPELINE_CALLS_SUBJECT, new byte[0]);
      operator.publish(BusNames.PIPELINE_CALLS_SUBJECT, new byte[0]);
      await("NATS refuses the dashboard's and the operator's pipeline call").atMost(DEADLINE).until(() -> errors
          .stream().filter(e -> e.contains("Publish to \"" + BusNames.PIPELINE_CALLS_SUBJECT + "\"")).count() == 2);
    }
  }

  private static long runRows(PostgresServer postgres, ControllerIdentity controller) throws Exception {
    try (var db = DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
        PreparedStatement count = db.prepareStatement("SELECT count(*) FROM runs WHERE controller_uid = ?")) {
      count.setString(1, controller.uid());
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  private Connection connect(String user, String password) throws Exception {
    return Nats.connect(new Options.Builder().server(nats.value().url()).userInfo(user, password)
        .inboxPrefix(ChartNatsConfig.inboxPrefix(user))
        .connectionTimeout(Duration.ofSeconds(5)).maxReconnects(0)
        .errorListener(new ErrorListener() {
          @Override
          public void errorOccurred(Connection connection, String error) {
            errors.add(error);
          }
        }).build());
  }
}

package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.bffresponders.CellPoolListResponder;
import dev.varroa.operator.bffresponders.ManifestCheckResponder;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.install.PermittedConnections.ControlChannelHandle;
import dev.varroa.operator.manifests.ControllerSchema;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.CellPoolRows;
import dev.varroa.protocol.bus.v1.CellPoolsRequest;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.bus.v1.ManifestCheckAnswer;
import dev.varroa.protocol.bus.v1.ManifestCheckRequest;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A core rendered with {@code nats.members}, its nats.conf on a real nats-server: each member's operator and gateway
 * log in with their own users, do their own cluster's work, and are refused everything that belongs to the core or to
 * the other member. The TLS block is left out (InstallationSecretsIT covers it); the users are the rendered ones.
 */
class MemberNatsPermissionsIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  /** cluster.name in the chart's values.yaml. */
  private static final String CORE = "core";
  private static final String MEMBER = "member-eu1";
  private static final String OTHER_MEMBER = "member-us1";
  private static final Map<String, String> PASSWORDS = Map.of(
      "OPERATOR_PASSWORD", "operator-" + UUID.randomUUID(),
      "GATEWAY_PASSWORD", "gateway-" + UUID.randomUUID(),
      "DASHBOARD_PASSWORD", "dashboard-" + UUID.randomUUID(),
      "MEMBER_MEMBER_EU1_OPERATOR_PASSWORD", "eu1-operator-" + UUID.randomUUID(),
      "MEMBER_MEMBER_EU1_GATEWAY_PASSWORD", "eu1-gateway-" + UUID.randomUUID(),
      "MEMBER_MEMBER_US1_OPERATOR_PASSWORD", "us1-operator-" + UUID.randomUUID(),
      "MEMBER_MEMBER_US1_GATEWAY_PASSWORD", "us1-gateway-" + UUID.randomUUID());

  @TempDir
  Path dir;
  private NatsServerProcess nats;
  private String url;
  private final Queue<String> operatorErrors = new ConcurrentLinkedQueue<>();
  private final Queue<String> gatewayErrors = new ConcurrentLinkedQueue<>();
  private final ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());

  @BeforeEach
  void startNatsWithACoreRenderedForTwoMembers() throws Exception {
    Map<String, String> environment = new LinkedHashMap<>(PASSWORDS);
    environment.put("SERVER_NAME", "chart-members-it");
    String config;
    try (HelmChart chart = HelmChart.varroa()) {
      config = ChartNatsConfig.forLoopback(chart.template(HelmChart.Render.in(ChartRbac.NAMESPACE)
          .set("networkPolicy.enabled", "false").set("nats.external.enabled", "true")
          .set("nats.external.host", "nats.example.com").set("nats.members", "{" + MEMBER + "," + OTHER_MEMBER + "}")),
          environment);
    }
    assertThat(config).contains("user: operator-" + MEMBER, "user: gateway-" + MEMBER, "user: operator-" + OTHER_MEMBER);
    nats = NatsServerProcess.startWithConfig(ChartNatsConfig.withoutTls(config));
    url = nats.value().url();
  }

  @AfterEach
  void stopNats() throws InterruptedException {
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void aMembersOperatorAndGatewayDoTheirClustersWorkWithTheirOwnUsers() throws Exception {
    Path caCert = dir.resolve("ca.crt");
    Path caKey = dir.resolve("ca.key");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, caKey);
    Path user = Files.writeString(dir.resolve("nats-user"), "gateway-" + MEMBER);
    Path password = Files.writeString(dir.resolve("gateway-password"), PASSWORDS.get("MEMBER_MEMBER_EU1_GATEWAY_PASSWORD"));

    // the member's operator starts as in its cluster: buckets, watches, its token queue group, on its own inbox
    try (Connection operatorConnection = memberOperator(operatorErrors);
        ControlChannelHandle operator = new ControlChannelHandle(new ControlChannel(operatorConnection, MEMBER,
            "127.0.0.1:9090", ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC()));
        Gateway gateway = Gateway.start(GatewaySettings.of("gw-1", url, caCert, caKey).withClusterName(MEMBER)
            .withNatsCredentialFiles(user, password).withListen(LoopbackPort.HOST, 0));
        Connection gatewayUser = memberGateway(gatewayErrors)) {
      operator.channel().serve(id -> true, key -> { });

      // operator -> the member's gateway, and the gateway -> the member's operator for a Jenkins token
      Message answer = operatorConnection.request(BusNames.gatewayCommands(MEMBER, "gw-1"), GatewayCommand.newBuilder()
          .setController(controller.toRef()).setCommand(Command.newBuilder().setCommandId("member-it-1")
              .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())).build().toByteArray(), DEADLINE);
      assertThat(CommandResult.parseFrom(answer.getData()).getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);
      Message grant = gatewayUser.request(BusNames.jenkinsTokenRequests(MEMBER), JenkinsTokenGrantRequest.newBuilder()
          .setController(controller.toRef()).build().toByteArray(), DEADLINE);
      assertThat(JenkinsTokenGrant.parseFrom(grant.getData()).hasToken()).isTrue();

      // its own entry in the cluster registry and its own controller rows
      new ClusterBeacon(() -> operatorConnection, MEMBER, ClusterRole.MEMBER, () -> "v1.31.0", List::of,
          Clock.systemUTC()).refresh();
      assertThat(operatorConnection.keyValue(BusNames.CLUSTERS_BUCKET).get(BusNames.token(MEMBER))).isNotNull();
      operator.channel().recordLive(controller);
      assertThat(new String(gatewayUser.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET)
          .get(BusNames.liveControllerKey(MEMBER, controller)).getValue(), StandardCharsets.UTF_8))
          .isEqualTo(controller.uid());

      // the BFF's manifest check aimed at this member, answered by the member's operator user
      try (ManifestCheckResponder checks = new ManifestCheckResponder(operatorConnection, MEMBER,
          new ManifestCheck(ControllerSchema.load()), Optional::empty);
          Connection dashboard = connect("dashboard", PASSWORDS.get("DASHBOARD_PASSWORD"), "_INBOX.",
              new ConcurrentLinkedQueue<>())) {
        checks.start();
        operatorConnection.flush(DEADLINE);
        Message checked = dashboard.request(BusNames.clusterManifestCheck(MEMBER), ManifestCheckRequest.newBuilder()
            .setManifestYaml("apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: a, namespace: ci}\n"
                + "spec: {}\n").build().toByteArray(), DEADLINE);
        assertThat(checked).as("the member operator's answer to the BFF's check").isNotNull();
        assertThat(ManifestCheckAnswer.parseFrom(checked.getData()).getCluster()).isEqualTo(MEMBER);
      }
      // the BFF's cell pool list of this member, answered by the member's operator user (docs/cells.md)
      try (CellPoolListResponder pools = new CellPoolListResponder(operatorConnection, MEMBER, List::of, List::of);
          Connection dashboard = connect("dashboard", PASSWORDS.get("DASHBOARD_PASSWORD"), "_INBOX.",
              new ConcurrentLinkedQueue<>())) {
        pools.start();
        operatorConnection.flush(DEADLINE);
        Message listed = dashboard.request(BusNames.clusterCellPools(MEMBER),
            CellPoolsRequest.getDefaultInstance().toByteArray(), DEADLINE);
        assertThat(listed).as("the member operator's cell pools for the BFF").isNotNull();
        assertThat(CellPoolRows.parseFrom(listed.getData()).getCluster()).isEqualTo(MEMBER);
      }

      await().atMost(DEADLINE).until(() -> operatorConnection.keyValue(BusNames.GATEWAYS_BUCKET)
          .get(BusNames.token("gw-1")) != null);
      assertThat(operatorErrors).as("permission errors of the member's operator user").isEmpty();
      assertThat(gatewayErrors).as("permission errors of the member's gateway user").isEmpty();
    }
  }

  @Test
  void aMembersOperatorPublishesItsOwnActivityAndIsRefusedAnotherClustersRowsActivityAndCommands() throws Exception {
    try (Connection operator = memberOperator(operatorErrors);
        Connection core = coreOperator();
        Connection dashboard = connect("dashboard", PASSWORDS.get("DASHBOARD_PASSWORD"), "_INBOX.",
            new ConcurrentLinkedQueue<>())) {
      // the core's operator made the buckets (a member's may too, but the forged rows below need them to exist)
      new ClusterBeacon(() -> core, CORE, ClusterRole.CORE, () -> "v1.31.0", List::of, Clock.systemUTC()).refresh();
      dev.varroa.protocol.BusTopology.ensure(core);
      Queue<Message> activity = new ConcurrentLinkedQueue<>();
      dashboard.createDispatcher(activity::add).subscribe("activity.>");
      dashboard.flush(DEADLINE);

      operator.publish(BusNames.activity(MEMBER, "ci", "sandbox"), "own".getBytes(StandardCharsets.UTF_8));
      // forged: the core's registry entry and controller row, activity of the core and of the other member
      operator.publish("$KV." + BusNames.CLUSTERS_BUCKET + "." + CORE, "forged".getBytes(StandardCharsets.UTF_8));
      operator.publish("$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + "." + BusNames.liveControllerKey(CORE, controller),
          controller.uid().getBytes(StandardCharsets.UTF_8));
      operator.publish(BusNames.activity(CORE, "ci", "sandbox"), "forged".getBytes(StandardCharsets.UTF_8));
      operator.publish(BusNames.activityGlobal(OTHER_MEMBER), "forged".getBytes(StandardCharsets.UTF_8));
      // the access policy the BFF authorizes with is the core's alone
      operator.publish("$KV." + BusNames.ACCESS_BUCKET + "." + BusNames.ACCESS_POLICY_KEY, new byte[0]);
      // commands: desired state to the core's gateway, a queued command and its notice
      operator.publish(BusNames.gatewayCommands(CORE, "gw-1"), new byte[0]);
      operator.publish(BusNames.queuedCommands(OTHER_MEMBER, controller), new byte[0]);
      operator.publish(BusNames.gatewayQueuedNotices(CORE, "gw-1"), new byte[0]);
      // answering for another cluster: its Jenkins tokens and controller lists, or reading its replies
      operator.subscribe(BusNames.jenkinsTokenRequests(CORE), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.clusterControllers(OTHER_MEMBER), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.clusterManifestCheck(CORE), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.clusterCellPools(OTHER_MEMBER), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.operatorInboxPrefix(CORE) + ">");
      operator.subscribe(BusNames.OPERATOR_INBOX_PREFIX + ">");

      awaitViolation(operatorErrors, "Publish to \"$KV." + BusNames.CLUSTERS_BUCKET + "." + CORE + "\"");
      awaitViolation(operatorErrors, "Publish to \"$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + "." + CORE + ".");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.activity(CORE, "ci", "sandbox") + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.activityGlobal(OTHER_MEMBER) + "\"");
      awaitViolation(operatorErrors, "Publish to \"$KV." + BusNames.ACCESS_BUCKET + "." + BusNames.ACCESS_POLICY_KEY
          + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.gatewayCommands(CORE, "gw-1") + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.queuedCommands(OTHER_MEMBER, controller) + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.gatewayQueuedNotices(CORE, "gw-1") + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.jenkinsTokenRequests(CORE) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterControllers(OTHER_MEMBER) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterManifestCheck(CORE) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterCellPools(OTHER_MEMBER) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.operatorInboxPrefix(CORE) + ">\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.OPERATOR_INBOX_PREFIX + ">\"");

      // nothing forged landed: the core's entry is the core's own, no row for the core, only the member's activity
      assertThat(core.keyValue(BusNames.CLUSTERS_BUCKET).get(CORE).getValue()).isNotEqualTo(
          "forged".getBytes(StandardCharsets.UTF_8));
      assertThat(core.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET).get(BusNames.liveControllerKey(CORE, controller)))
          .isNull();
      await().atMost(DEADLINE).until(() -> !activity.isEmpty());
      dashboard.flush(DEADLINE);
      assertThat(activity).extracting(Message::getSubject)
          .containsExactly(BusNames.activity(MEMBER, "ci", "sandbox"));
    }
  }

  @Test
  void aMembersOperatorAnswersItsOwnActionsOnlyAndOnlyTheDashboardSendsThemAndAuditsOnTheCore() throws Exception {
    Queue<String> dashboardErrors = new ConcurrentLinkedQueue<>();
    try (Connection operator = memberOperator(operatorErrors);
        Connection gateway = memberGateway(gatewayErrors);
        Connection dashboard = connect("dashboard", PASSWORDS.get("DASHBOARD_PASSWORD"), "_INBOX.",
            dashboardErrors)) {
      operator.createDispatcher(request -> operator.publish(request.getReplyTo(), "answered".getBytes(
          StandardCharsets.UTF_8))).subscribe(BusNames.clusterActions(MEMBER), BusNames.OPERATOR_QUEUE_GROUP);
      operator.flush(DEADLINE);
      Message answer = dashboard.request(BusNames.clusterActions(MEMBER), new byte[0], DEADLINE);
      assertThat(answer).isNotNull();
      assertThat(new String(answer.getData(), StandardCharsets.UTF_8)).isEqualTo("answered");
      // the BFF records the user-action audit event on the core's installation-wide subject only
      dashboard.publish(BusNames.activityGlobal(CORE), new byte[0]);
      dashboard.publish(BusNames.activityGlobal(MEMBER), new byte[0]);
      // a member's operator answers no other cluster's actions and sends none; its gateway sends none either
      operator.subscribe(BusNames.clusterActions(OTHER_MEMBER), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.clusterActions(CORE), BusNames.OPERATOR_QUEUE_GROUP);
      operator.publish(BusNames.clusterActions(OTHER_MEMBER), new byte[0]);
      gateway.publish(BusNames.clusterActions(MEMBER), new byte[0]);

      awaitViolation(dashboardErrors, "Publish to \"" + BusNames.activityGlobal(MEMBER) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterActions(OTHER_MEMBER) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterActions(CORE) + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.clusterActions(OTHER_MEMBER) + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.clusterActions(MEMBER) + "\"");
      assertThat(dashboardErrors).noneMatch(e -> e.contains(BusNames.activityGlobal(CORE) + "\""));
    }
  }

  /**
   * Cells: a member's operator answers the cell wakes of its own cluster (the core's recorder sends them) and sends
   * its team placements to the core's recorder; it answers no other cluster's wakes and sends none, nor may its gateway.
   */
  @Test
  void aMembersOperatorAnswersItsOwnCellWakesOnlyAndSendsItsPlacements() throws Exception {
    try (Connection operator = memberOperator(operatorErrors);
        Connection gateway = memberGateway(gatewayErrors)) {
      operator.createDispatcher(request -> { }).subscribe(BusNames.clusterCellWake(MEMBER),
          BusNames.OPERATOR_QUEUE_GROUP);
      operator.publish(BusNames.TEAM_PLACEMENTS_SUBJECT, new byte[0]);
      operator.flush(DEADLINE);
      assertThat(operatorErrors).as("its own wake subject and the placements subject").isEmpty();

      operator.subscribe(BusNames.clusterCellWake(OTHER_MEMBER), BusNames.OPERATOR_QUEUE_GROUP);
      operator.subscribe(BusNames.clusterCellWake(CORE), BusNames.OPERATOR_QUEUE_GROUP);
      operator.publish(BusNames.clusterCellWake(OTHER_MEMBER), new byte[0]);
      gateway.publish(BusNames.clusterCellWake(MEMBER), new byte[0]);
      gateway.publish(BusNames.TEAM_PLACEMENTS_SUBJECT, new byte[0]);

      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterCellWake(OTHER_MEMBER) + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.clusterCellWake(CORE) + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.clusterCellWake(OTHER_MEMBER) + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.clusterCellWake(MEMBER) + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.TEAM_PLACEMENTS_SUBJECT + "\"");
    }
  }

  /**
   * Pipeline runs: a member's operator reports where Jenkins queued a run to the core's recorder; it neither requests
   * a run nor takes the recorder's subjects, and its gateway reports nothing.
   */
  @Test
  void aMembersOperatorReportsAQueuedPipelineRunAndNothingElseOfTheRecorders() throws Exception {
    try (Connection operator = memberOperator(operatorErrors);
        Connection gateway = memberGateway(gatewayErrors)) {
      operator.publish(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, new byte[0]);
      operator.flush(DEADLINE);
      assertThat(operatorErrors).as("the queued report").isEmpty();

      operator.publish(BusNames.PIPELINE_RUNS_SUBJECT, new byte[0]);
      operator.publish(BusNames.PIPELINE_RUN_STATUS_SUBJECT, new byte[0]);
      operator.subscribe(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
      gateway.publish(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, new byte[0]);

      awaitViolation(operatorErrors, "Publish to \"" + BusNames.PIPELINE_RUNS_SUBJECT + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.PIPELINE_RUN_STATUS_SUBJECT + "\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.PIPELINE_RUN_QUEUED_SUBJECT + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.PIPELINE_RUN_QUEUED_SUBJECT + "\"");
    }
  }

  /**
   * Cross-tenant calls: a member's gateway relays its cells' pipeline calls to the core's recorder; it never takes
   * them in the recorder's place, and the member's operator sends none.
   */
  @Test
  void aMembersGatewayRelaysPipelineCallsToTheRecorderAndNothingElseDoes() throws Exception {
    try (Connection operator = memberOperator(operatorErrors);
        Connection gateway = memberGateway(gatewayErrors)) {
      gateway.publish(BusNames.PIPELINE_CALLS_SUBJECT, new byte[0]);
      gateway.flush(DEADLINE);
      assertThat(gatewayErrors).as("the pipeline call").isEmpty();

      gateway.subscribe(BusNames.PIPELINE_CALLS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
      operator.publish(BusNames.PIPELINE_CALLS_SUBJECT, new byte[0]);

      awaitViolation(gatewayErrors, "Subscription to \"" + BusNames.PIPELINE_CALLS_SUBJECT + "\"");
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.PIPELINE_CALLS_SUBJECT + "\"");
    }
  }

  @Test
  void aMembersGatewayIsRefusedAnotherClustersActivityResultsTokenRequestsCommandsAndReplies() throws Exception {
    try (Connection gateway = memberGateway(gatewayErrors)) {
      gateway.publish(BusNames.activity(CORE, "ci", "sandbox"), new byte[0]);
      gateway.publish(BusNames.queuedCommandResults(OTHER_MEMBER, controller), new byte[0]);
      gateway.publish(BusNames.jenkinsTokenRequests(CORE), new byte[0]);
      gateway.publish(BusNames.logAppended(CORE, controller, "1"), new byte[0]);
      gateway.publish(BusNames.gatewayCommands(MEMBER, "gw-1"), new byte[0]);
      gateway.publish("$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + "." + BusNames.liveControllerKey(MEMBER, controller),
          new byte[0]);
      gateway.subscribe(BusNames.gatewayCommands(CORE, "gw-1"));
      gateway.subscribe(BusNames.gatewayQueuedNotices(OTHER_MEMBER, "gw-1"));
      // a Jenkins token grant for a core mite travels to the core gateway's inbox
      gateway.subscribe(BusNames.gatewayInboxPrefix(CORE) + ">");
      gateway.subscribe(BusNames.GATEWAY_INBOX_PREFIX + ">");

      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.activity(CORE, "ci", "sandbox") + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.queuedCommandResults(OTHER_MEMBER, controller) + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.jenkinsTokenRequests(CORE) + "\"");
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.logAppended(CORE, controller, "1") + "\"");
      // a gateway relays desired state and never sends it, nor writes the live Controllers, in its own cluster too
      awaitViolation(gatewayErrors, "Publish to \"" + BusNames.gatewayCommands(MEMBER, "gw-1") + "\"");
      awaitViolation(gatewayErrors, "Publish to \"$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + "." + MEMBER + ".");
      awaitViolation(gatewayErrors, "Subscription to \"" + BusNames.gatewayCommands(CORE, "gw-1") + "\"");
      awaitViolation(gatewayErrors, "Subscription to \"" + BusNames.gatewayQueuedNotices(OTHER_MEMBER, "gw-1") + "\"");
      awaitViolation(gatewayErrors, "Subscription to \"" + BusNames.gatewayInboxPrefix(CORE) + ">\"");
      awaitViolation(gatewayErrors, "Subscription to \"" + BusNames.GATEWAY_INBOX_PREFIX + ">\"");
    }
  }

  @Test
  void aMemberCannotLogInAsTheCoresUsersOrTheOtherMembersWithItsPasswords() {
    String own = PASSWORDS.get("MEMBER_MEMBER_EU1_OPERATOR_PASSWORD");
    for (String other : List.of("operator", "operator-" + OTHER_MEMBER, "gateway-" + MEMBER)) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> connect(other, own, "_INBOX.",
          new ConcurrentLinkedQueue<>()).close()).as(other).hasMessageContaining("Authorization");
    }
  }

  private static void awaitViolation(Queue<String> errors, String what) {
    await("NATS refuses " + what).atMost(DEADLINE)
        .until(() -> errors.stream().anyMatch(e -> e.contains("Permissions Violation for " + what)));
  }

  /** As a member's ChannelSettings connects: its own user and its cluster's operator inbox. */
  private Connection memberOperator(Queue<String> errors) throws Exception {
    return connect("operator-" + MEMBER, PASSWORDS.get("MEMBER_MEMBER_EU1_OPERATOR_PASSWORD"),
        BusNames.operatorInboxPrefix(MEMBER), errors);
  }

  /** As a member's gateway connects: its own user and its cluster's gateway inbox. */
  private Connection memberGateway(Queue<String> errors) throws Exception {
    return connect("gateway-" + MEMBER, PASSWORDS.get("MEMBER_MEMBER_EU1_GATEWAY_PASSWORD"),
        BusNames.gatewayInboxPrefix(MEMBER), errors);
  }

  private Connection coreOperator() throws Exception {
    return connect("operator", PASSWORDS.get("OPERATOR_PASSWORD"), BusNames.operatorInboxPrefix(CORE),
        new ConcurrentLinkedQueue<>());
  }

  private Connection connect(String user, String password, String inboxPrefix, Queue<String> errors) throws Exception {
    return PermittedConnections.connect(url, user, password, inboxPrefix, errors);
  }
}

package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.install.PermittedConnections.ControlChannelHandle;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.commons.io.output.TeeOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart's nats.conf on a real nats-server, with the real operator control channel and a real
 * gateway logged in as the chart's users: what each does works, and what the other's user may do is
 * refused. The TLS block is left out (the certificates are the operator's to issue); the
 * authorization block is the rendered one, unchanged.
 */
class ChartNatsPermissionsIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String OPERATOR_PASSWORD = "operator-" + UUID.randomUUID();
  private static final String GATEWAY_PASSWORD = "gateway-" + UUID.randomUUID();
  /** cluster.name in the chart's values.yaml: the rendered permissions name it in every control subject. */
  private static final String CLUSTER = "core";
  private static final String OTHER_CLUSTER = "member-b";

  @TempDir
  Path dir;
  private NatsServerProcess nats;
  private String url;
  private final Queue<String> operatorErrors = new ConcurrentLinkedQueue<>();
  private final Queue<String> gatewayUserErrors = new ConcurrentLinkedQueue<>();

  @BeforeEach
  void startNatsWithTheRenderedConfig() throws Exception {
    String local = ChartNatsConfig.withoutTls(ChartNatsConfig.forLoopback(Map.of("SERVER_NAME", "chart-it",
        "OPERATOR_PASSWORD", OPERATOR_PASSWORD, "GATEWAY_PASSWORD", GATEWAY_PASSWORD)));
    assertThat(local).doesNotContain("tls {").contains("authorization {");
    nats = NatsServerProcess.startWithConfig(local);
    url = nats.value().url();
  }

  @AfterEach
  void stopNats() throws InterruptedException {
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void theOperatorAndAGatewayTalkAsTheChartsUsersAndNeitherMayActAsTheOther() throws Exception {
    // the gateway reports a refused grant only in its log (event=nats_error ... Permissions Violation)
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    PrintStream err = System.err;
    PrintStream out = System.out;
    System.setErr(new PrintStream(new TeeOutputStream(err, log), true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new TeeOutputStream(out, log), true, StandardCharsets.UTF_8));
    try {
      exchange();
    } finally {
      System.setErr(err);
      System.setOut(out);
    }
    assertThat(log.toString(StandardCharsets.UTF_8)).as("the gateway's log")
        .contains("event=gateway_started", "event=command_not_connected", "event=jenkins_token_granted")
        .doesNotContainIgnoringCase("permissions violation");
  }

  private void exchange() throws Exception {
    Path caCert = dir.resolve("ca.crt");
    Path caKey = dir.resolve("ca.key");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, caKey);
    Path user = Files.writeString(dir.resolve("nats-user"), "gateway");
    Path password = Files.writeString(dir.resolve("gateway-password"), GATEWAY_PASSWORD);
    ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());

    // the operator's own start: buckets and stream, KV watches of routes and presence, the token queue group
    try (ControlChannelHandle operator = new ControlChannelHandle(new ControlChannel(
            connectOperator(operatorErrors), CLUSTER, "127.0.0.1:9090", ca.certificatePem(),
            JenkinsTokenIssuer.generate(), Clock.systemUTC()));
        Gateway gateway = Gateway.start(GatewaySettings.of("gw-1", url, caCert, caKey).withClusterName(CLUSTER)
            .withNatsCredentialFiles(user, password).withListen(LoopbackPort.HOST, 0));
        Connection operatorUser = connectOperator(operatorErrors);
        Connection gatewayUser = connectGateway(gatewayUserErrors)) {
      operator.channel().serve(id -> true, key -> { });

      // operator -> gateway: a command for a mite this gateway does not hold comes back NOT_CONNECTED
      Message answer = operatorUser.request(BusNames.gatewayCommands(CLUSTER, "gw-1"), GatewayCommand.newBuilder()
          .setController(controller.toRef()).setCommand(Command.newBuilder().setCommandId("chart-it-1")
              .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())).build().toByteArray(),
          DEADLINE);
      assertThat(CommandResult.parseFrom(answer.getData()).getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);

      // gateway -> operator: a Jenkins token request is answered in the operator's queue group
      Message grant = gatewayUser.request(BusNames.jenkinsTokenRequests(CLUSTER), JenkinsTokenGrantRequest.newBuilder()
          .setController(controller.toRef()).build().toByteArray(), DEADLINE);
      assertThat(JenkinsTokenGrant.parseFrom(grant.getData()).hasToken()).isTrue();

      // the operator mints a bootstrap token; the gateway user reads and marks it, as registration does
      String digest = operator.channel().bootstrapTokens().mint(controller, Instant.now()).digest();
      KeyValue tokens = gatewayUser.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET);
      long revision = tokens.get(digest).getRevision();
      tokens.update(digest, tokens.get(digest).getValue(), revision);

      // the operator records the Controller live; the gateway user reads it, as a stream's opening does
      operator.channel().recordLive(controller);
      assertThat(new String(gatewayUser.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET)
          .get(BusNames.liveControllerKey(CLUSTER, controller)).getValue(), StandardCharsets.UTF_8))
          .isEqualTo(controller.uid());
      operator.channel().forgetLive(controller);

      // the gateway's presence reaches the operator's watch
      KeyValue presence = operatorUser.keyValue(BusNames.GATEWAYS_BUCKET);
      await().atMost(DEADLINE).until(() -> presence.get(BusNames.token("gw-1")) != null);

      assertThat(operatorErrors).as("permission errors of the operator user").isEmpty();
      assertThat(gatewayUserErrors).as("permission errors of the gateway user").isEmpty();

      // what belongs to the other user is refused
      gatewayUser.subscribe(BusNames.jenkinsTokenRequests(CLUSTER));
      awaitViolation(gatewayUserErrors, "Subscription to \"" + BusNames.jenkinsTokenRequests(CLUSTER) + "\"");
      operatorUser.publish("$KV." + BusNames.MITE_ROUTES_BUCKET + ".ci.sandbox", "forged".getBytes(StandardCharsets.UTF_8));
      await().atMost(DEADLINE).until(() -> operatorErrors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Publish to \"$KV." + BusNames.MITE_ROUTES_BUCKET)));
      operatorUser.subscribe(BusNames.gatewayCommands(CLUSTER, "gw-1"));
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.gatewayCommands(CLUSTER, "gw-1") + "\"");
    }
  }

  @Test
  void refusesAGatewayThatPublishesDesiredStateOrQueuedCommands() throws Exception {
    ControllerIdentity controller = new ControllerIdentity("ci", "sandbox", UUID.randomUUID().toString());
    byte[] desiredState = GatewayCommand.newBuilder().setController(controller.toRef())
        .setCommand(Command.newBuilder().setCommandId("forged-1")).build().toByteArray();
    try (Connection gatewayUser = connectGateway(gatewayUserErrors);
        Connection holder = connectGateway(new ConcurrentLinkedQueue<>())) {
      // a gateway holding mites listens on its command subject: nothing forged may reach it
      Queue<Message> delivered = new ConcurrentLinkedQueue<>();
      holder.createDispatcher(delivered::add).subscribe(BusNames.gatewayCommands(CLUSTER, "gw-1"));
      holder.flush(DEADLINE);

      gatewayUser.publish(BusNames.gatewayCommands(CLUSTER, "gw-1"), desiredState);
      gatewayUser.publish(BusNames.queuedCommands(CLUSTER, controller), desiredState);
      gatewayUser.publish(BusNames.gatewayQueuedNotices(CLUSTER, "gw-1"), controller.toRef().toByteArray());
      gatewayUser.publish("$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + "." + BusNames.liveControllerKey(CLUSTER,
          controller), controller.uid().getBytes(StandardCharsets.UTF_8));

      awaitViolation(gatewayUserErrors, "Publish to \"" + BusNames.gatewayCommands(CLUSTER, "gw-1") + "\"");
      awaitViolation(gatewayUserErrors, "Publish to \"" + BusNames.queuedCommands(CLUSTER, controller) + "\"");
      awaitViolation(gatewayUserErrors, "Publish to \"" + BusNames.gatewayQueuedNotices(CLUSTER, "gw-1") + "\"");
      awaitViolation(gatewayUserErrors, "Publish to \"$KV." + BusNames.LIVE_CONTROLLERS_BUCKET + ".");
      holder.flush(DEADLINE);
      assertThat(delivered).as("commands a gateway user managed to publish").isEmpty();
    }
  }

  @Test
  void refusesAnOperatorOfAnotherClusterTheJenkinsTokenRequestsOfThisOne() throws Exception {
    // an operator configured for another cluster name, logged in with this NATS's operator user (as a member does
    // while members share the core's users): it may not serve that cluster's subjects here
    try (ControlChannelHandle other = new ControlChannelHandle(new ControlChannel(connectOperator(operatorErrors),
            OTHER_CLUSTER, "127.0.0.1:9090", "", JenkinsTokenIssuer.generate(), Clock.systemUTC()));
        Connection operatorUser = connectOperator(operatorErrors)) {
      other.channel().serve(id -> true, key -> { });
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.jenkinsTokenRequests(OTHER_CLUSTER) + "\"");

      // nor may the operator user answer or command for another cluster by hand
      operatorUser.subscribe(BusNames.jenkinsTokenRequests(OTHER_CLUSTER), BusNames.OPERATOR_QUEUE_GROUP);
      operatorUser.publish(BusNames.gatewayCommands(OTHER_CLUSTER, "gw-1"), new byte[0]);
      awaitViolation(operatorErrors, "Publish to \"" + BusNames.gatewayCommands(OTHER_CLUSTER, "gw-1") + "\"");
    }
  }

  @Test
  void refusesEachUserTheOthersRepliesAndTheSharedInbox() throws Exception {
    try (Connection operatorUser = connectOperator(operatorErrors);
        Connection gatewayUser = connectGateway(gatewayUserErrors)) {
      // a Jenkins token grant travels to the gateway's inbox, a command result to the operator's
      gatewayUser.subscribe(BusNames.OPERATOR_INBOX_PREFIX + ">");
      gatewayUser.subscribe("_INBOX.>");
      operatorUser.subscribe(BusNames.GATEWAY_INBOX_PREFIX + ">");
      gatewayUser.subscribe(BusNames.operatorInboxPrefix(CLUSTER) + ">");
      operatorUser.subscribe(BusNames.gatewayInboxPrefix(CLUSTER) + ">");
      // without members sharing them, the users reach only this cluster's inboxes, not the unscoped prefix
      operatorUser.subscribe(BusNames.OPERATOR_INBOX_PREFIX + ">");
      awaitViolation(gatewayUserErrors, "Subscription to \"" + BusNames.OPERATOR_INBOX_PREFIX + ">\"");
      awaitViolation(gatewayUserErrors, "Subscription to \"" + BusNames.operatorInboxPrefix(CLUSTER) + ">\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.gatewayInboxPrefix(CLUSTER) + ">\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.OPERATOR_INBOX_PREFIX + ">\"");
      awaitViolation(gatewayUserErrors, "Subscription to \"_INBOX.>\"");
      awaitViolation(operatorErrors, "Subscription to \"" + BusNames.GATEWAY_INBOX_PREFIX + ">\"");
    }
  }

  private static void awaitViolation(Queue<String> errors, String what) {
    await().atMost(DEADLINE).until(() -> errors.stream().anyMatch(e -> e.contains("Permissions Violation for " + what)));
  }

  /** As ChannelSettings connects: the operator's inbox prefix in this cluster. */
  private Connection connectOperator(Queue<String> errors) throws Exception {
    return connect("operator", OPERATOR_PASSWORD, BusNames.operatorInboxPrefix(CLUSTER), errors);
  }

  /** As the gateway's BusConnection connects: the gateway's inbox prefix in this cluster. */
  private Connection connectGateway(Queue<String> errors) throws Exception {
    return connect("gateway", GATEWAY_PASSWORD, BusNames.gatewayInboxPrefix(CLUSTER), errors);
  }

  private Connection connect(String user, String password, String inboxPrefix, Queue<String> errors) throws Exception {
    return PermittedConnections.connect(url, user, password, inboxPrefix, errors);
  }
}

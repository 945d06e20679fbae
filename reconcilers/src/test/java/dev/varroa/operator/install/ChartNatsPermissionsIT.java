package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
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
import io.nats.client.ErrorListener;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.ByteArrayOutputStream;
import org.apache.commons.io.output.TeeOutputStream;
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
            connect("operator", OPERATOR_PASSWORD, operatorErrors), "127.0.0.1:9090", ca.certificatePem(),
            JenkinsTokenIssuer.generate(), Clock.systemUTC()));
        Gateway gateway = Gateway.start(GatewaySettings.of("gw-1", url, caCert, caKey)
            .withNatsCredentialFiles(user, password).withListen(LoopbackPort.HOST, 0));
        Connection operatorUser = connect("operator", OPERATOR_PASSWORD, operatorErrors);
        Connection gatewayUser = connect("gateway", GATEWAY_PASSWORD, gatewayUserErrors)) {
      operator.channel().serve(id -> true, key -> { });

      // operator -> gateway: a command for a mite this gateway does not hold comes back NOT_CONNECTED
      Message answer = operatorUser.request(BusNames.gatewayCommands("gw-1"), GatewayCommand.newBuilder()
          .setController(controller.toRef()).setCommand(Command.newBuilder().setCommandId("chart-it-1")
              .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())).build().toByteArray(),
          DEADLINE);
      assertThat(CommandResult.parseFrom(answer.getData()).getOutcome()).isEqualTo(CommandResult.Outcome.NOT_CONNECTED);

      // gateway -> operator: a Jenkins token request is answered in the operator's queue group
      Message grant = gatewayUser.request(BusNames.JENKINS_TOKEN_SUBJECT, JenkinsTokenGrantRequest.newBuilder()
          .setController(controller.toRef()).build().toByteArray(), DEADLINE);
      assertThat(JenkinsTokenGrant.parseFrom(grant.getData()).hasToken()).isTrue();

      // the operator mints a bootstrap token; the gateway user reads and marks it, as registration does
      String digest = operator.channel().bootstrapTokens().mint(controller, Instant.now()).digest();
      KeyValue tokens = gatewayUser.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET);
      long revision = tokens.get(digest).getRevision();
      tokens.update(digest, tokens.get(digest).getValue(), revision);

      // the gateway's presence reaches the operator's watch
      KeyValue presence = operatorUser.keyValue(BusNames.GATEWAYS_BUCKET);
      await().atMost(DEADLINE).until(() -> presence.get(BusNames.token("gw-1")) != null);

      assertThat(operatorErrors).as("permission errors of the operator user").isEmpty();
      assertThat(gatewayUserErrors).as("permission errors of the gateway user").isEmpty();

      // what belongs to the other user is refused
      gatewayUser.subscribe(BusNames.JENKINS_TOKEN_SUBJECT);
      await().atMost(DEADLINE).until(() -> gatewayUserErrors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Subscription to \"" + BusNames.JENKINS_TOKEN_SUBJECT + "\"")));
      operatorUser.publish("$KV." + BusNames.MITE_ROUTES_BUCKET + ".ci.sandbox", "forged".getBytes(StandardCharsets.UTF_8));
      await().atMost(DEADLINE).until(() -> operatorErrors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Publish to \"$KV." + BusNames.MITE_ROUTES_BUCKET)));
      operatorUser.subscribe(BusNames.gatewayCommands("gw-1"));
      await().atMost(DEADLINE).until(() -> operatorErrors.stream().anyMatch(e ->
          e.contains("Permissions Violation for Subscription to \"" + BusNames.gatewayCommands("gw-1") + "\"")));
    }
  }

  private Connection connect(String user, String password, Queue<String> errors) throws Exception {
    return Nats.connect(new Options.Builder().server(url).userInfo(user, password)
        .connectionTimeout(Duration.ofSeconds(5)).maxReconnects(0)
        .errorListener(new ErrorListener() {
          @Override
          public void errorOccurred(Connection connection, String error) {
            errors.add(error);
          }
        }).build());
  }

  /** Closes the control channel with the test's other resources. */
  private record ControlChannelHandle(ControlChannel channel) implements AutoCloseable {
    @Override
    public void close() throws InterruptedException {
      channel.close();
    }
  }
}

package dev.varroa.benchmarks.channel;

import dev.varroa.gateway.GatewaySettings;
import com.google.protobuf.ByteString;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator's two parts a mite meets after it connects: it answers Jenkins token requests, and it
 * pushes the first desired state (a small JCasC file, one secret, the token) through the gateway that
 * holds the stream, so the mite is measured in the state it idles in, not before its first apply.
 */
public final class OperatorStandIn implements AutoCloseable {

  /** "Jenkins token (JWT) ... 1 hour" (docs/security.md). */
  private static final Duration JENKINS_TOKEN_LIFETIME = Duration.ofHours(1);
  private static final Duration COMMAND_DEADLINE = Duration.ofMinutes(20);

  private final Connection nats;
  private final Dispatcher dispatcher;
  private final AtomicInteger tokensGranted = new AtomicInteger();

  public OperatorStandIn(Connection nats) {
    this.nats = nats;
    this.dispatcher = nats.createDispatcher(this::grant);
    dispatcher.subscribe(BusNames.jenkinsTokenRequests(GatewaySettings.DEFAULT_CLUSTER_NAME),
        BusNames.OPERATOR_QUEUE_GROUP);
  }

  public int tokensGranted() {
    return tokensGranted.get();
  }

  /** Sends one desired state to the mite through {@code gatewayId} and waits for its result. */
  public CommandResult pushDesiredState(String gatewayId, ControllerIdentity controller) throws Exception {
    String casc = "jenkins:\n  systemMessage: \"configured by the footprint benchmark\"\n"
        + "  numExecutors: 0\n";
    Command command = Command.newBuilder()
        .setCommandId(UUID.randomUUID().toString())
        .setDeadlineEpochMillis(Instant.now().plus(COMMAND_DEADLINE).toEpochMilli())
        .setDesiredState(DesiredState.newBuilder()
            .setBundleDigest("sha256:" + UUID.randomUUID().toString().replace("-", ""))
            .addJcascFiles(File.newBuilder().setPath("jenkins.yaml")
                .setContent(ByteString.copyFrom(casc, StandardCharsets.UTF_8)))
            .addSecretFiles(File.newBuilder().setPath("ADMIN_PASSWORD")
                .setContent(ByteString.copyFrom(UUID.randomUUID().toString(), StandardCharsets.UTF_8)))
            .setJenkinsToken(token()))
        .build();
    Message reply = nats.request(BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, gatewayId),
        GatewayCommand.newBuilder()
        .setController(controller.toRef())
        .setCommand(command)
        .build().toByteArray(), COMMAND_DEADLINE.plusSeconds(5));
    if (reply == null) {
      throw new IllegalStateException("gateway " + gatewayId + " did not answer the desired state for "
          + controller.routeKey());
    }
    return CommandResult.parseFrom(reply.getData());
  }

  private void grant(Message request) {
    tokensGranted.incrementAndGet();
    nats.publish(request.getReplyTo(), JenkinsTokenGrant.newBuilder().setToken(token()).build().toByteArray());
  }

  private static JenkinsToken token() {
    return JenkinsToken.newBuilder()
        .setJwt("footprint-benchmark." + UUID.randomUUID() + ".not-a-signature")
        .setExpiresAtEpochMillis(Instant.now().plus(JENKINS_TOKEN_LIFETIME).toEpochMilli())
        .build();
  }

  @Override
  public void close() {
    nats.closeDispatcher(dispatcher);
  }
}

package dev.varroa.operator.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrantRequest;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's end of the control channel: routes from the gateways, desired-state commands to
 * the gateway holding a mite (core NATS request/reply: credentials never touch JetStream), bootstrap
 * tokens, and answers to mites asking for a fresh Jenkins token.
 */
public final class ControlChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);
  /** Time for the reply to cross the bus after the deadline the gateway enforces. */
  static final Duration REPLY_SLACK = Duration.ofSeconds(5);
  /** How often silent gateways are looked for; well inside their 30 s presence age. */
  static final Duration GATEWAY_CHECK_INTERVAL = Duration.ofSeconds(5);

  private final Connection nats;
  private final ChannelEndpoint endpoint;
  private final JenkinsTokenIssuer jenkinsTokens;
  private final BootstrapTokenIssuer bootstrapTokens;
  private final MiteRoutes routes;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "control-channel-timer");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Consumer<String> routeListener = key -> { };
  private volatile Predicate<ControllerIdentity> controllerExists = id -> false;
  private Dispatcher dispatcher;

  /**
   * @param nats a connection the channel owns from now on
   * @param gatewayEndpoint host:port the mites register at
   * @param caCertificatePem the CA the mites trust the gateway by
   */
  public ControlChannel(Connection nats, String gatewayEndpoint, String caCertificatePem,
      JenkinsTokenIssuer jenkinsTokens, Clock clock) throws IOException, JetStreamApiException, InterruptedException {
    this.nats = nats;
    this.clock = clock;
    this.jenkinsTokens = jenkinsTokens;
    this.endpoint = new ChannelEndpoint(gatewayEndpoint, caCertificatePem, jenkinsTokens.publicKeyPem());
    BusTopology.ensure(nats);
    this.bootstrapTokens = new BootstrapTokenIssuer(nats.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET));
    this.routes = new MiteRoutes(clock, key -> routeListener.accept(key));
    routes.start(nats);
    timer.scheduleAtFixedRate(routes::expireSilentGateways, GATEWAY_CHECK_INTERVAL.toMillis(),
        GATEWAY_CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The channel's NATS connection, for publishers that ride along (activity); the channel still owns it. */
  public Connection connection() {
    return nats;
  }

  /**
   * Starts answering token requests. The check keeps tokens to Controllers that exist with that UID.
   *
   * @param onRouteChange called with namespace.name whenever what the gateways report for it changed
   */
  public void serve(Predicate<ControllerIdentity> controllerExists, Consumer<String> onRouteChange) {
    this.controllerExists = controllerExists;
    this.routeListener = onRouteChange;
    dispatcher = nats.createDispatcher();
    dispatcher.subscribe(BusNames.JENKINS_TOKEN_SUBJECT, BusNames.OPERATOR_QUEUE_GROUP, this::answerTokenRequest);
  }

  private void answerTokenRequest(Message message) {
    JenkinsTokenGrant grant;
    try {
      ControllerIdentity controller = ControllerIdentity.of(
          JenkinsTokenGrantRequest.parseFrom(message.getData()).getController());
      if (controllerExists.test(controller)) {
        grant = JenkinsTokenGrant.newBuilder().setToken(jenkinsTokens.issue(controller, clock.instant())).build();
        LOG.info("event=jenkins_token_granted controller={}", controller.routeKey());
      } else {
        grant = JenkinsTokenGrant.newBuilder().setRefusal("no Controller " + controller.routeKey() + " with UID "
            + controller.uid() + " exists").build();
        LOG.info("event=jenkins_token_refused controller={} reason=unknown_controller", controller.routeKey());
      }
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      grant = JenkinsTokenGrant.newBuilder().setRefusal("malformed token request: " + e.getMessage()).build();
    }
    if (message.getReplyTo() != null) {
      nats.publish(message.getReplyTo(), grant.toByteArray());
    }
  }

  /** Sends a command to the gateway holding the mite; completes with the mite's result or why there is none. */
  public CompletableFuture<CommandResult> send(ControllerIdentity controller, Command command) {
    Optional<MiteRoute> route = routes.live(controller);
    if (route.isEmpty()) {
      return CompletableFuture.completedFuture(outcome(command, CommandResult.Outcome.NOT_CONNECTED,
          "no gateway holds a stream of this mite"));
    }
    Duration timeout = Duration.between(clock.instant(), Instant.ofEpochMilli(command.getDeadlineEpochMillis()))
        .plus(REPLY_SLACK);
    byte[] payload = GatewayCommand.newBuilder().setController(controller.toRef()).setCommand(command).build()
        .toByteArray();
    return nats.requestWithTimeout(BusNames.gatewayCommands(route.get().getGatewayId()), payload, timeout)
        .thenApply(reply -> {
          try {
            return CommandResult.parseFrom(reply.getData());
          } catch (InvalidProtocolBufferException e) {
            return outcome(command, CommandResult.Outcome.REJECTED, "unreadable reply from gateway: " + e.getMessage());
          }
        })
        .exceptionally(error -> outcome(command, CommandResult.Outcome.DEADLINE_EXCEEDED,
            "no answer from gateway " + route.get().getGatewayId() + " before the command deadline ("
                + error.getClass().getSimpleName() + ")"));
  }

  private CommandResult outcome(Command command, CommandResult.Outcome outcome, String message) {
    return CommandResult.newBuilder().setCommandId(command.getCommandId()).setOutcome(outcome).setMessage(message)
        .setFinishedAtEpochMillis(clock.instant().toEpochMilli()).build();
  }

  public MiteRoutes routes() {
    return routes;
  }

  public BootstrapTokenIssuer bootstrapTokens() {
    return bootstrapTokens;
  }

  public JenkinsTokenIssuer jenkinsTokens() {
    return jenkinsTokens;
  }

  /** What the operator renders into each pod: endpoint, CA, token verification key. */
  public ChannelEndpoint endpoint() {
    return endpoint;
  }

  @Override
  public void close() throws InterruptedException {
    timer.shutdownNow();
    routes.close();
    nats.close();
  }
}

package dev.varroa.operator.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.operator.render.ChannelEndpoint;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
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
 * the gateway holding a mite (core NATS request/reply: credentials never touch JetStream), one-shot
 * commands queued on varroa_commands ({@link CommandQueue}), bootstrap tokens, and answers to mites asking for a
 * fresh Jenkins token.
 */
public final class ControlChannel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControlChannel.class);
  /** Time for the reply to cross the bus after the deadline the gateway enforces. */
  static final Duration REPLY_SLACK = Duration.ofSeconds(5);
  /** How often silent gateways are looked for; well inside their 30 s presence age. */
  static final Duration GATEWAY_CHECK_INTERVAL = Duration.ofSeconds(5);
  /** Who the channel's activity events are by (ControllerReconciler.ACTOR's value, without importing it). */
  static final String ACTOR = "operator";

  private final Connection nats;
  private final String cluster;
  private final ChannelEndpoint endpoint;
  private final JenkinsTokenIssuer jenkinsTokens;
  private final BootstrapTokenIssuer bootstrapTokens;
  private final MiteRoutes routes;
  private final LiveControllers liveControllers;
  private final CommandQueue queue;
  private final CommandSealer sealer;
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
   * @param cluster this installation's cluster name (cluster.name): the control subjects it serves and sends on
   * @param gatewayEndpoint host:port the mites register at
   * @param caCertificatePem the CA the mites trust the gateway by
   */
  public ControlChannel(Connection nats, String cluster, String gatewayEndpoint, String caCertificatePem,
      JenkinsTokenIssuer jenkinsTokens, Clock clock) throws IOException, JetStreamApiException, InterruptedException {
    this.nats = nats;
    this.cluster = cluster;
    this.clock = clock;
    this.jenkinsTokens = jenkinsTokens;
    this.endpoint = new ChannelEndpoint(gatewayEndpoint, caCertificatePem, jenkinsTokens.publicKeyPem());
    this.sealer = new CommandSealer(caCertificatePem, clock);
    BusTopology.ensure(nats);
    this.bootstrapTokens = new BootstrapTokenIssuer(nats.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET));
    this.liveControllers = new LiveControllers(nats.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET), cluster, clock);
    this.routes = new MiteRoutes(clock, key -> routeListener.accept(key));
    routes.start(nats);
    this.queue = new CommandQueue(nats, cluster, routes, new ActivityPublisher(() -> nats, cluster, ACTOR, clock), clock);
    queue.start();
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
   * @param onRouteChange called with namespace.name whenever what the gateways report for it changed, or a command
   *     queued for it finished
   */
  public void serve(Predicate<ControllerIdentity> controllerExists, Consumer<String> onRouteChange) {
    this.controllerExists = controllerExists;
    this.routeListener = onRouteChange;
    // a queued command's result is news about the controller as a route change is: its next pass shows it
    queue.onResult(onRouteChange);
    dispatcher = nats.createDispatcher();
    dispatcher.subscribe(BusNames.jenkinsTokenRequests(cluster), BusNames.OPERATOR_QUEUE_GROUP,
        this::answerTokenRequest);
  }

  private void answerTokenRequest(Message message) {
    JenkinsTokenGrant grant;
    try {
      JenkinsTokenGrantRequest request = JenkinsTokenGrantRequest.parseFrom(message.getData());
      ControllerIdentity controller = ControllerIdentity.of(request.getController());
      if (controllerExists.test(controller)) {
        grant = sealedGrant(controller, request);
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

  /** A token sealed to the asking stream's key, for the reply crosses NATS and the gateway; or why there is none. */
  private JenkinsTokenGrant sealedGrant(ControllerIdentity controller, JenkinsTokenGrantRequest request) {
    try {
      JenkinsTokenGrant grant = JenkinsTokenGrant.newBuilder().setToken(sealer.seal(controller,
          request.getProtocolVersion(), request.getCertificatePem(), jenkinsTokens.issue(controller, clock.instant())))
          .build();
      LOG.info("event=jenkins_token_granted controller={} sealed={}", controller.routeKey(),
          grant.getToken().hasSealedJwt());
      return grant;
    } catch (IllegalArgumentException e) {
      // never a clear token to a stream that speaks protocol 2
      LOG.warn("event=jenkins_token_refused controller={} reason=not_sealed error=\"{}\"", controller.routeKey(),
          e.getMessage());
      return JenkinsTokenGrant.newBuilder().setRefusal("no token, it could not be sealed: " + e.getMessage()).build();
    }
  }

  /**
   * Sends a command to the gateway holding the mite; completes with the mite's result or why there is none. When
   * desired state with a Jenkins token finds no stream, a token grant is queued so the mite gets a token as soon
   * as it reconnects, before a later pass pushes the desired state again.
   */
  public CompletableFuture<CommandResult> send(ControllerIdentity controller, Command command) {
    CompletableFuture<CommandResult> result = request(controller, command);
    if (command.hasDesiredState() && command.getDesiredState().hasJenkinsToken()) {
      result.thenAccept(r -> {
        if (r.getOutcome() == CommandResult.Outcome.NOT_CONNECTED) {
          queue.queueJenkinsTokenGrant(controller, "desired state not delivered: " + r.getMessage());
        }
      });
    }
    return result;
  }

  private CompletableFuture<CommandResult> request(ControllerIdentity controller, Command command) {
    Optional<MiteRoute> route = routes.live(controller);
    if (route.isEmpty()) {
      return CompletableFuture.completedFuture(outcome(command, CommandResult.Outcome.NOT_CONNECTED,
          "no gateway holds a stream of this mite"));
    }
    Command sealed;
    try {
      sealed = sealer.seal(controller, route.get().getProtocolVersion(), route.get().getCertificatePem(), command);
    } catch (IllegalArgumentException e) {
      LOG.warn("event=command_not_sealed controller={} command={} error=\"{}\"", controller.routeKey(),
          command.getCommandId(), e.getMessage());
      return CompletableFuture.completedFuture(outcome(command, CommandResult.Outcome.REJECTED,
          "not sent, its secrets could not be sealed: " + e.getMessage()));
    }
    Duration timeout = Duration.between(clock.instant(), Instant.ofEpochMilli(command.getDeadlineEpochMillis()))
        .plus(REPLY_SLACK);
    byte[] payload = GatewayCommand.newBuilder().setController(controller.toRef()).setCommand(sealed).build()
        .toByteArray();
    return nats.requestWithTimeout(BusNames.gatewayCommands(cluster, route.get().getGatewayId()), payload, timeout)
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

  /** The queue of one-shot commands that outlive a dropped stream or a restarted gateway. */
  public CommandQueue queue() {
    return queue;
  }

  public MiteRoutes routes() {
    return routes;
  }

  /** The cluster name this channel serves (cluster.name). */
  public String cluster() {
    return cluster;
  }

  /** The Controllers the gateways may open a mite stream for (bucket varroa_controllers). */
  public LiveControllers liveControllers() {
    return liveControllers;
  }

  /**
   * Records that the Controller exists, so gateways open its mite's stream; on failure the gateways keep refusing it
   * (fail closed) and the next pass writes again.
   */
  public void recordLive(ControllerIdentity controller) {
    try {
      liveControllers.record(controller);
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.warn("event=live_controller_record_failed controller={} uid={} effect=\"gateways refuse its mite's stream "
          + "until a later pass records it\" error=\"{}\"", controller.routeKey(), controller.uid(), e.toString());
    }
  }

  /**
   * Removes a deleted Controller's record, so its mite's certificate opens no stream any more.
   *
   * @throws IllegalStateException when the bus cannot be written: the cleanup is retried, the record must go
   */
  public void forgetLive(ControllerIdentity controller) {
    try {
      liveControllers.forget(controller);
      LOG.info("event=live_controller_forgotten controller={} uid={}", controller.routeKey(), controller.uid());
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      throw new IllegalStateException("cannot remove Controller " + controller.routeKey() + " (uid " + controller.uid()
          + ") from NATS bucket " + BusNames.LIVE_CONTROLLERS_BUCKET + ": its mite's certificate would keep opening "
          + "streams; the deletion is retried once NATS is reachable (" + e + ")", e);
    }
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
    queue.close();
    routes.close();
    nats.close();
  }
}

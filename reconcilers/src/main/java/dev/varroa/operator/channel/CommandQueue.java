package dev.varroa.operator.channel;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.bus.v1.QueuedJenkinsTokenGrant;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer of varroa_commands: the commands that must outlive a dropped stream, a restarted gateway or a parked
 * controller (quiet-down, a Jenkins token grant, a pipeline run's RunJob) are queued on varroa.commands.&lt;cluster&gt;.&lt;ns&gt;.&lt;name&gt; with
 * Nats-Msg-Id = the command id, and the gateway in the mite's route is told on its .queued subject (every live
 * gateway when no route is known). Results come back on varroa.results.&lt;cluster&gt;.&gt;: they complete the
 * caller's future, are kept per controller ({@link #lastFinished}) and published as activity
 * {@value #COMMAND_FINISHED}. Nothing queued here carries a credential: a grant is an order, the token is minted
 * when a gateway runs it (docs/reference/protocol.md, "Queued one-shot commands").
 */
public final class CommandQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CommandQueue.class);

  /** "A token grant can stay queued in JetStream for up to 24 hours." */
  public static final Duration TOKEN_GRANT_LIFETIME = Duration.ofHours(24);
  /** Time for a result to cross the bus after the deadline the gateway enforces. */
  static final Duration RESULT_SLACK = Duration.ofSeconds(5);
  /** Activity kind of a queued command's result (docs/activity.md). */
  public static final String COMMAND_FINISHED = "controller.command_finished";
  /** The JetStream de-duplication header. */
  static final String MESSAGE_ID_HEADER = "Nats-Msg-Id";

  /** A command this operator queued and has no result for yet. */
  private record Waiting(ControllerIdentity controller, String what, CompletableFuture<CommandResult> result) {}

  private final Connection nats;
  private final String cluster;
  private final MiteRoutes routes;
  private final ActivityPublisher activity;
  private final Clock clock;
  private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
  private final Map<String, Finished> lastResults = new ConcurrentHashMap<>();
  /** Told the route key of a controller whose queued command finished, so its next pass puts the result in status. */
  private volatile Consumer<String> resultListener = routeKey -> { };
  /** Controller UID → when its pending grant was queued: one grant at a time per mite, not one per pass. */
  private final Map<String, Instant> pendingGrants = new ConcurrentHashMap<>();
  private Dispatcher dispatcher;

  public CommandQueue(Connection nats, String cluster, MiteRoutes routes, ActivityPublisher activity, Clock clock) {
    this.nats = nats;
    this.cluster = cluster;
    this.routes = routes;
    this.activity = activity;
    this.clock = clock;
  }

  /** Starts reading results; before this, results published for this operator are not seen. */
  public void start() {
    dispatcher = nats.createDispatcher(this::resultArrived);
    dispatcher.subscribe(BusNames.queuedCommandResultsFilter(cluster));
  }

  /**
   * Queues a one-shot command or a RunJob and notifies the gateway. Only those two: neither carries a credential (a
   * RunJob names a job and its parameters, which are never secrets; the mite calls Jenkins with its own token),
   * while desired state and a replayed delivery do and never touch JetStream.
   *
   * @return the result the gateway publishes, or DEADLINE_EXCEEDED when none arrived by the command's deadline
   */
  public CompletableFuture<CommandResult> queue(ControllerIdentity controller, Command command) {
    String what = switch (command.getKindCase()) {
      case ONE_SHOT -> "one_shot " + command.getOneShot().getAction();
      case RUN_JOB -> "run_job " + command.getRunJob().getJob();
      default -> throw new IllegalArgumentException("command " + command.getCommandId() + " for "
          + controller.routeKey() + " is a " + command.getKindCase() + ": only one-shot and run_job commands may be"
          + " queued (desired state carries credentials; send it with ControlChannel.send)");
    };
    return publish(controller, QueuedCommand.newBuilder().setController(controller.toRef()).setCommand(command)
        .setQueuedAtEpochMillis(clock.millis()).build(), what);
  }

  /**
   * Queues a Jenkins token grant for this mite, kept up to {@link #TOKEN_GRANT_LIFETIME}; no token is queued. Does
   * nothing while an earlier grant for the same Controller UID waits (empty then).
   */
  public Optional<CompletableFuture<CommandResult>> queueJenkinsTokenGrant(ControllerIdentity controller,
      String reason) {
    Instant now = clock.instant();
    Instant earlier = pendingGrants.get(controller.uid());
    if (earlier != null && now.isBefore(earlier.plus(TOKEN_GRANT_LIFETIME))) {
      return Optional.empty();
    }
    pendingGrants.put(controller.uid(), now);
    Command order = Command.newBuilder()
        .setCommandId("jenkins-token-grant-" + UUID.randomUUID())
        .setDeadlineEpochMillis(now.plus(TOKEN_GRANT_LIFETIME).toEpochMilli())
        .build();
    CompletableFuture<CommandResult> result = publish(controller, QueuedCommand.newBuilder()
        .setController(controller.toRef())
        .setCommand(order)
        .setJenkinsTokenGrant(QueuedJenkinsTokenGrant.newBuilder().setReason(reason))
        .setQueuedAtEpochMillis(now.toEpochMilli())
        .build(), "jenkins_token_grant");
    result.whenComplete((r, e) -> pendingGrants.remove(controller.uid(), now));
    return Optional.of(result);
  }

  /** A queued command that finished: what it was ("one_shot QUIET_DOWN", "jenkins_token_grant") and its result. */
  public record Finished(String what, QueuedCommandResult published) {
    public boolean succeeded() {
      return published.getResult().getOutcome() == CommandResult.Outcome.SUCCEEDED;
    }
  }

  /** The last result a gateway published for this controller's queued commands, while this operator runs. */
  public Optional<Finished> lastFinished(ControllerIdentity controller) {
    return Optional.ofNullable(lastResults.get(controller.routeKey()))
        .filter(f -> f.published().getController().getUid().equals(controller.uid()));
  }

  /** Who looks again at a controller once a result for it arrived (the Controller reconciler: status shows it). */
  public void onResult(Consumer<String> listener) {
    this.resultListener = listener;
  }

  private CompletableFuture<CommandResult> publish(ControllerIdentity controller, QueuedCommand queued, String what) {
    String commandId = queued.getCommand().getCommandId();
    CompletableFuture<CommandResult> result = new CompletableFuture<>();
    waiting.put(commandId, new Waiting(controller, what, result));
    result.whenComplete((r, e) -> waiting.remove(commandId));
    Instant deadline = Instant.ofEpochMilli(queued.getCommand().getDeadlineEpochMillis());
    long untilGivenUp = Math.max(0, Duration.between(clock.instant(), deadline).plus(RESULT_SLACK).toMillis());
    result.completeOnTimeout(outcome(commandId, CommandResult.Outcome.DEADLINE_EXCEEDED, "still queued at its "
        + "deadline " + deadline + ": no gateway held a stream of " + controller.routeKey() + " to run it"),
        untilGivenUp, TimeUnit.MILLISECONDS);
    Headers headers = new Headers().put(MESSAGE_ID_HEADER, commandId);
    try {
      nats.jetStream().publishAsync(BusNames.queuedCommands(cluster, controller), headers, queued.toByteArray())
          .whenComplete((ack, failure) -> {
            if (failure != null) {
              LOG.warn("event=command_queue_failed controller={} command={} what=\"{}\" error=\"{}\"",
                  controller.routeKey(), commandId, what, failure.toString());
              result.complete(outcome(commandId, CommandResult.Outcome.REJECTED, "could not queue " + what + " on "
                  + BusNames.COMMANDS_STREAM + ": " + failure.getMessage() + "; it is sent again by a later pass"));
              return;
            }
            LOG.info("event=command_queued controller={} command={} what=\"{}\" duplicate={}", controller.routeKey(),
                commandId, what, ack.isDuplicate());
            notifyGateways(controller);
          });
    } catch (IOException | RuntimeException e) {
      result.complete(outcome(commandId, CommandResult.Outcome.REJECTED, "could not queue " + what + ": " + e));
    }
    return result;
  }

  // The gateway in the route runs it now; with no route any gateway the mite reaches runs it when it connects.
  private void notifyGateways(ControllerIdentity controller) {
    Optional<MiteRoute> route = routes.live(controller);
    Set<String> gateways = route.map(r -> Set.of(r.getGatewayId())).orElseGet(routes::liveGateways);
    byte[] notice = controller.toRef().toByteArray();
    for (String gateway : gateways) {
      nats.publish(BusNames.gatewayQueuedNotices(cluster, gateway), notice);
    }
  }

  private void resultArrived(Message message) {
    QueuedCommandResult published;
    ControllerIdentity controller;
    try {
      published = QueuedCommandResult.parseFrom(message.getData());
      controller = ControllerIdentity.of(published.getController());
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      LOG.warn("event=queued_result_unreadable subject={}", message.getSubject());
      return;
    }
    CommandResult result = published.getResult();
    if (!message.getSubject().equals(BusNames.queuedCommandResults(cluster, controller))) {
      LOG.warn("event=queued_result_misplaced subject={} controller={}", message.getSubject(), controller.routeKey());
      return;
    }
    Waiting queuedHere = waiting.get(result.getCommandId());
    lastResults.put(controller.routeKey(), new Finished(queuedHere == null ? "command " + result.getCommandId()
        : queuedHere.what(), published));
    resultListener.accept(controller.routeKey());
    if (queuedHere == null) {
      // Queued by an operator that has since restarted, or answered after its deadline: the log keeps it.
      LOG.info("event=queued_result_unclaimed controller={} command={} outcome={} message=\"{}\"",
          controller.routeKey(), result.getCommandId(), result.getOutcome(), result.getMessage());
      return;
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("command", result.getCommandId());
    attributes.put("what", queuedHere.what());
    attributes.put("outcome", result.getOutcome().name());
    attributes.put("message", result.getMessage());
    activity.controller(controller.namespace(), controller.name(), COMMAND_FINISHED,
        queuedHere.what() + ": " + result.getOutcome() + (result.getMessage().isEmpty() ? "" : " (" + result.getMessage()
            + ")"), attributes);
    queuedHere.result().complete(result);
  }

  private CommandResult outcome(String commandId, CommandResult.Outcome outcome, String message) {
    return CommandResult.newBuilder().setCommandId(commandId).setOutcome(outcome).setMessage(message)
        .setFinishedAtEpochMillis(clock.millis()).build();
  }

  @Override
  public void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
    }
    waiting.forEach((id, w) -> w.result().complete(outcome(id, CommandResult.Outcome.NOT_CONNECTED,
        "the operator's control channel closed before a result arrived")));
  }
}

package dev.varroa.gateway.command;

import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.DEADLINE_EXCEEDED;
import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.NOT_CONNECTED;
import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.REJECTED;
import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.SUCCEEDED;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.gateway.stream.GatewayResult;
import dev.varroa.gateway.stream.MiteSession;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.QueuedCommand;
import dev.varroa.protocol.bus.v1.QueuedCommandResult;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamManagement;
import io.nats.client.JetStreamSubscription;
import io.nats.client.Message;
import io.nats.client.PullSubscribeOptions;
import io.nats.client.api.AckPolicy;
import io.nats.client.api.ConsumerConfiguration;
import io.nats.client.api.DeliverPolicy;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs what is queued for one mite in varroa_commands (a work queue): a durable pull consumer on
 * that controller's subject, one message at a time through the stream, its ack wait extended while
 * the command runs so a slow command is not redelivered, the result published on
 * varroa.results.&lt;cluster&gt;.&lt;ns&gt;.&lt;name&gt;, and the consumer deleted once the subject is drained.
 * A Jenkins token grant is run through {@link QueuedTokenGrants}: no token is ever in the queue.
 * (No multiple filter subjects or per-key TTL: the Debian nats-server 2.9 has neither.)
 */
final class QueuedCommandDrain {

  private static final Logger LOG = LoggerFactory.getLogger(QueuedCommandDrain.class);
  static final Duration FETCH_WAIT = Duration.ofSeconds(1);
  /** A consumer left behind by a gateway that died mid-drain is removed by the server after this. */
  static final Duration CONSUMER_INACTIVE_THRESHOLD = Duration.ofHours(1);
  private static final int NO_MESSAGE_FOUND = 10037;
  private static final Duration ACK_CONFIRM_WAIT = Duration.ofSeconds(5);

  private final String gatewayId;
  private final String clusterName;
  private final BusConnection bus;
  private final Duration ackWait;
  private final Duration progressInterval;
  private final ScheduledExecutorService timers;
  private final QueuedTokenGrants grants;
  private final Clock clock;

  QueuedCommandDrain(String gatewayId, String clusterName, BusConnection bus, Duration ackWait,
      Duration progressInterval, ScheduledExecutorService timers, QueuedTokenGrants grants, Clock clock) {
    this.gatewayId = gatewayId;
    this.clusterName = clusterName;
    this.bus = bus;
    this.ackWait = ackWait;
    this.progressInterval = progressInterval;
    this.timers = timers;
    this.grants = grants;
    this.clock = clock;
  }

  /**
   * Runs what is queued for this session's controller until the queue is empty, the stream ends, or what is left
   * cannot be had now (in flight on a gateway that died, or a grant waiting for an operator).
   *
   * @return true when work is left queued for a mite still connected here: look again later
   */
  boolean drain(MiteSession session) {
    ControllerIdentity controller = session.identity();
    String subject = BusNames.queuedCommands(clusterName, controller);
    String durable = durableName(clusterName, controller);
    try {
      JetStreamManagement jsm = bus.jetStreamManagement();
      if (!hasQueued(jsm, subject)) {
        return false;
      }
      jsm.addOrUpdateConsumer(BusNames.COMMANDS_STREAM, ConsumerConfiguration.builder()
          .durable(durable)
          .filterSubject(subject)
          .ackPolicy(AckPolicy.Explicit)
          .deliverPolicy(DeliverPolicy.All)
          .ackWait(ackWait)
          // One at a time, in order: a second command never overtakes a slow first one.
          .maxAckPending(1)
          .inactiveThreshold(CONSUMER_INACTIVE_THRESHOLD)
          .build());
      JetStreamSubscription subscription = bus.jetStream().subscribe(subject,
          PullSubscribeOptions.bind(BusNames.COMMANDS_STREAM, durable));
      try {
        while (session.isOpen()) {
          List<Message> batch = subscription.fetch(1, FETCH_WAIT);
          if (batch.isEmpty() || !run(session, batch.get(0))) {
            break;
          }
        }
      } finally {
        subscription.unsubscribe();
      }
      if (!session.isOpen()) {
        return false;
      }
      if (!hasQueued(jsm, subject)) {
        jsm.deleteConsumer(BusNames.COMMANDS_STREAM, durable);
        return false;
      }
      // Still queued but not fetched: in flight on a gateway that died (back after the ack wait) or a grant
      // put back for later.
      return true;
    } catch (IOException | JetStreamApiException | RuntimeException e) {
      LOG.warn("event=queued_drain_failed gateway={} controller={} error=\"{}\"", gatewayId, controller.routeKey(),
          e.toString());
      return session.isOpen();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Runs one queued message through the stream; false when the stream ended and draining should stop. */
  private boolean run(MiteSession session, Message message) throws InterruptedException {
    ControllerIdentity controller = session.identity();
    QueuedCommand queued;
    try {
      queued = QueuedCommand.parseFrom(message.getData());
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("event=queued_command_unreadable gateway={} controller={}", gatewayId, controller.routeKey());
      message.term();
      return true;
    }
    Instant now = clock.instant();
    String refusal = refusal(queued, controller);
    if (refusal != null) {
      finish(controller, message, GatewayResult.of(queued.getCommand().getCommandId(), REJECTED, refusal, now));
      return true;
    }
    if (queued.hasJenkinsTokenGrant()) {
      return grant(session, message, queued, now);
    }
    Command command = CommandDeadline.withDeadline(queued.getCommand(), now);
    Instant deadline = CommandDeadline.of(command);
    if (!now.isBefore(deadline)) {
      finish(controller, message, GatewayResult.of(command.getCommandId(), DEADLINE_EXCEEDED,
          "the queued command's deadline " + deadline + " passed before its mite was connected", now));
      return true;
    }
    // a one-shot names its action; a run_job its job (never its parameters' values)
    LOG.info("event=queued_command_running gateway={} controller={} command={} kind={} what=\"{}\"", gatewayId,
        controller.routeKey(), command.getCommandId(), command.getKindCase(), command.hasRunJob()
            ? command.getRunJob().getJob() : command.hasOneShot() ? command.getOneShot().getAction() : "");
    ScheduledFuture<?> progress = timers.scheduleAtFixedRate(() -> extendAckWait(controller, message),
        progressInterval.toMillis(), progressInterval.toMillis(), TimeUnit.MILLISECONDS);
    CommandResult result;
    try {
      result = session.deliver(command, deadline).get();
    } catch (ExecutionException e) {
      result = GatewayResult.of(command.getCommandId(), NOT_CONNECTED, "delivery failed: " + e.getCause(),
          clock.instant());
    } finally {
      progress.cancel(false);
    }
    if (result.getOutcome() == NOT_CONNECTED) {
      // The stream ended mid-command: the message goes back to the queue for the mite's next stream.
      message.nak();
      LOG.info("event=queued_command_returned gateway={} controller={} command={}", gatewayId, controller.routeKey(),
          command.getCommandId());
      return false;
    }
    finish(controller, message, result);
    return true;
  }

  /** A grant: dropped when expired; else a token minted now by the operator, relayed over the stream. */
  private boolean grant(MiteSession session, Message message, QueuedCommand queued, Instant now)
      throws InterruptedException {
    ControllerIdentity controller = session.identity();
    String commandId = queued.getCommand().getCommandId();
    Instant expiry = QueuedTokenGrants.expiry(queued);
    if (!now.isBefore(expiry)) {
      grants.expired(controller, queued, expiry);
      LOG.info("event=queued_token_grant_expired gateway={} controller={} command={} expired_at={}", gatewayId,
          controller.routeKey(), commandId, expiry);
      finish(controller, message, GatewayResult.of(commandId, DEADLINE_EXCEEDED, "the Jenkins token grant expired at "
          + expiry + " before its mite was connected: dropped, not delivered", now));
      return true;
    }
    ScheduledFuture<?> progress = timers.scheduleAtFixedRate(() -> extendAckWait(controller, message),
        progressInterval.toMillis(), progressInterval.toMillis(), TimeUnit.MILLISECONDS);
    QueuedTokenGrants.Answer answer;
    try {
      answer = grants.request(session);
    } finally {
      progress.cancel(false);
    }
    if (answer instanceof QueuedTokenGrants.Answer.Silent silent) {
      // No operator now: the grant waits in the queue, as long as it may.
      message.nakWithDelay(QueuedTokenGrants.RETRY_AFTER_SILENCE);
      LOG.warn("event=queued_token_grant_deferred gateway={} controller={} command={} retry_in={}s reason=\"{}\"",
          gatewayId, controller.routeKey(), commandId, QueuedTokenGrants.RETRY_AFTER_SILENCE.toSeconds(), silent.why());
      return false;
    }
    if (answer instanceof QueuedTokenGrants.Answer.Refused refused) {
      finish(controller, message, GatewayResult.of(commandId, REJECTED, "the operator refused the Jenkins token: "
          + refused.reason(), clock.instant()));
      return true;
    }
    JenkinsToken token = ((QueuedTokenGrants.Answer.Granted) answer).token();
    if (!session.sendJenkinsToken(token)) {
      message.nak();
      LOG.info("event=queued_command_returned gateway={} controller={} command={}", gatewayId, controller.routeKey(),
          commandId);
      return false;
    }
    finish(controller, message, GatewayResult.of(commandId, SUCCEEDED, "a Jenkins token valid until "
        + Instant.ofEpochMilli(token.getExpiresAtEpochMillis()) + " was relayed to the mite by gateway " + gatewayId,
        clock.instant()));
    return true;
  }

  // A throwing periodic task is silently cancelled; a missed extension must not end the others.
  private void extendAckWait(ControllerIdentity controller, Message message) {
    try {
      message.inProgress();
    } catch (RuntimeException e) {
      LOG.warn("event=queued_command_progress_failed gateway={} controller={} error=\"{}\"", gatewayId,
          controller.routeKey(), e.getClass().getSimpleName());
    }
  }

  private static String refusal(QueuedCommand queued, ControllerIdentity controller) {
    if (queued.getCommand().getCommandId().isEmpty()) {
      return "the queued command has no command_id";
    }
    if (queued.hasJenkinsTokenGrant() && queued.getCommand().getKindCase() != Command.KindCase.KIND_NOT_SET) {
      return "a Jenkins token grant carries no command for the mite: queue the grant and the command apart";
    }
    if (queued.getCommand().hasDesiredState()) {
      return "desired state carries credentials and never travels through JetStream: send it by request to the "
          + "gateway holding the stream";
    }
    if (!queued.getController().getUid().equals(controller.uid())) {
      return "queued for controller uid " + queued.getController().getUid() + " but the connected mite serves uid "
          + controller.uid();
    }
    return null;
  }

  private void finish(ControllerIdentity controller, Message message, CommandResult result) throws InterruptedException {
    bus.connection().publish(BusNames.queuedCommandResults(clusterName, controller), QueuedCommandResult.newBuilder()
        .setController(controller.toRef())
        .setResult(result)
        .build()
        .toByteArray());
    try {
      message.ackSync(ACK_CONFIRM_WAIT);
    } catch (TimeoutException e) {
      LOG.warn("event=queued_command_ack_unconfirmed gateway={} controller={} command={}", gatewayId,
          controller.routeKey(), result.getCommandId());
    }
    LOG.info("event=queued_command_finished gateway={} controller={} command={} outcome={}", gatewayId,
        controller.routeKey(), result.getCommandId(), result.getOutcome());
  }

  private static boolean hasQueued(JetStreamManagement jsm, String subject) throws IOException, JetStreamApiException {
    try {
      jsm.getLastMessage(BusNames.COMMANDS_STREAM, subject);
      return true;
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == NO_MESSAGE_FOUND) {
        return false;
      }
      throw e;
    }
  }

  /**
   * One durable per controller of a cluster, shared by that cluster's gateways, so two never hold overlapping
   * work-queue filters; the cluster keeps two clusters' controllers of the same name apart.
   */
  static String durableName(String clusterName, ControllerIdentity controller) {
    return "gateway-" + BusNames.token(clusterName) + "-" + BusNames.token(controller.routeKey());
  }
}

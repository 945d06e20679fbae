package dev.varroa.gateway.command;

import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.DEADLINE_EXCEEDED;
import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.NOT_CONNECTED;
import static dev.varroa.protocol.mite.v1.CommandResult.Outcome.REJECTED;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.BusListener;
import dev.varroa.gateway.stream.GatewayResult;
import dev.varroa.gateway.stream.MiteSession;
import dev.varroa.gateway.stream.MiteSessions;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers GatewayCommand requests on varroa.gateway.&lt;cluster&gt;.&lt;id&gt;.commands: delivers to the mite
 * stream held here, or answers NOT_CONNECTED (the operator sends again when the route moves). A gateway
 * never sends a command itself, so its NATS user may not publish on any command subject. Commands may
 * carry credentials, so nothing of their content is logged and they only ever travel by core NATS request/reply.
 */
public final class CommandRelay implements BusListener {

  private static final Logger LOG = LoggerFactory.getLogger(CommandRelay.class);
  private final String gatewayId;
  private final String subject;
  private final BusConnection bus;
  private final MiteSessions sessions;
  private final ExecutorService pool;
  private final Clock clock;

  public CommandRelay(String gatewayId, String clusterName, BusConnection bus, MiteSessions sessions,
      ExecutorService pool, Clock clock) {
    this.gatewayId = gatewayId;
    this.subject = BusNames.gatewayCommands(clusterName, gatewayId);
    this.bus = bus;
    this.sessions = sessions;
    this.pool = pool;
    this.clock = clock;
  }

  @Override
  public void connected(Connection connection) {
    // The dispatcher thread only hands off: delivery waits for a mite and must never block it.
    Dispatcher dispatcher = connection.createDispatcher(message -> pool.execute(() -> handle(message)));
    dispatcher.subscribe(subject);
    LOG.info("event=command_subscription gateway={} subject={}", gatewayId, subject);
  }

  private void handle(Message message) {
    String replyTo = message.getReplyTo();
    GatewayCommand request;
    try {
      request = GatewayCommand.parseFrom(message.getData());
    } catch (InvalidProtocolBufferException e) {
      reply(replyTo, rejected("", "the request is not a GatewayCommand"));
      return;
    }
    Instant now = clock.instant();
    Command command = CommandDeadline.withDeadline(request.getCommand(), now);
    String commandId = command.getCommandId();
    if (commandId.isEmpty()) {
      reply(replyTo, rejected(commandId, "the command has no command_id"));
      return;
    }
    ControllerIdentity controller;
    try {
      controller = ControllerIdentity.of(request.getController());
    } catch (IllegalArgumentException e) {
      reply(replyTo, rejected(commandId, e.getMessage()));
      return;
    }
    Instant deadline = CommandDeadline.of(command);
    if (!now.isBefore(deadline)) {
      reply(replyTo, GatewayResult.of(commandId, DEADLINE_EXCEEDED, "the command deadline " + deadline
          + " had passed when gateway " + gatewayId + " received it", now));
      return;
    }
    Optional<MiteSession> session = sessions.find(controller);
    if (session.isPresent()) {
      deliver(session.get(), command, deadline, replyTo);
    } else {
      reply(replyTo, notConnected(commandId, controller, "gateway " + gatewayId + " holds no stream for "
          + controller.routeKey()));
    }
  }

  private void deliver(MiteSession session, Command command, Instant deadline, String replyTo) {
    LOG.info("event=command_delivering gateway={} controller={} command={} kind={} deadline={}", gatewayId,
        session.identity().routeKey(), command.getCommandId(), command.getKindCase(), deadline);
    session.deliver(command, deadline).thenAcceptAsync(result -> {
      LOG.info("event=command_finished gateway={} controller={} command={} outcome={}", gatewayId,
          session.identity().routeKey(), command.getCommandId(), result.getOutcome());
      reply(replyTo, result);
    }, pool);
  }

  private void reply(String replyTo, CommandResult result) {
    publish(replyTo, result.toByteArray());
  }

  private void publish(String replyTo, byte[] data) {
    if (replyTo == null || replyTo.isEmpty()) {
      LOG.warn("event=command_reply_dropped gateway={} reason=no_reply_subject", gatewayId);
      return;
    }
    bus.connection().publish(replyTo, data);
  }

  private CommandResult rejected(String commandId, String why) {
    LOG.warn("event=command_rejected gateway={} command={} reason=\"{}\"", gatewayId, commandId, why);
    return GatewayResult.of(commandId, REJECTED, why, clock.instant());
  }

  private CommandResult notConnected(String commandId, ControllerIdentity controller, String why) {
    LOG.info("event=command_not_connected gateway={} controller={} command={}", gatewayId, controller.routeKey(),
        commandId);
    return GatewayResult.of(commandId, NOT_CONNECTED, why + ": the operator sends it again after the mite reconnects",
        clock.instant());
  }
}

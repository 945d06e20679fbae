package dev.varroa.operator.hibernation;

import dev.varroa.gateway.GatewaySettings;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.GatewayPresence;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.ReplayDelivery;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.KeyValue;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Plays a gateway on a real NATS where no mite runs: keeps its presence fresh, writes a controller's route with
 * the ObservedState a mite would report, and answers the commands the operator sends: desired state as applied
 * (answers held back while a test says so), replayed deliveries as Jenkins answered them (HTTP 200 unless told
 * otherwise), recording each. Owns its connection.
 */
public final class PlayedGateway implements AutoCloseable {
  public static final String ID = "gw-played";
  private final Connection nats;
  private final KeyValue routes;
  private final KeyValue presence;
  private final ScheduledExecutorService beacon = Executors.newSingleThreadScheduledExecutor();
  private final Dispatcher dispatcher;
  private final List<ReplayDelivery> replayed = new CopyOnWriteArrayList<>();
  private final List<GatewayCommand> desiredStates = new CopyOnWriteArrayList<>();
  /** Answers to desired-state pushes held back, published by {@link #releaseDesiredStates}; null while not holding. */
  private List<Runnable> heldAnswers;
  private final AtomicReference<Function<ReplayDelivery, CommandResult.Builder>> replayAnswer =
      new AtomicReference<>(d -> CommandResult.newBuilder().setOutcome(CommandResult.Outcome.SUCCEEDED)
          .setJenkinsStatus(200));

  public PlayedGateway(Connection nats) throws Exception {
    this.nats = nats;
    BusTopology.ensure(nats);
    routes = nats.keyValue(BusNames.MITE_ROUTES_BUCKET);
    presence = nats.keyValue(BusNames.GATEWAYS_BUCKET);
    beacon.scheduleAtFixedRate(this::present, 0, 5, TimeUnit.SECONDS);
    dispatcher = nats.createDispatcher(message -> {
      CommandResult.Builder result;
      try {
        GatewayCommand command = GatewayCommand.parseFrom(message.getData());
        if (command.getCommand().hasReplayDelivery()) {
          replayed.add(command.getCommand().getReplayDelivery());
          result = replayAnswer.get().apply(command.getCommand().getReplayDelivery());
        } else if (command.getCommand().hasDesiredState()) {
          CommandResult answer = CommandResult.newBuilder().setOutcome(CommandResult.Outcome.SUCCEEDED)
              .setCommandId(command.getCommand().getCommandId()).build();
          Runnable reply = () -> nats.publish(message.getReplyTo(), answer.toBuilder()
              .setFinishedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
          synchronized (this) {
            desiredStates.add(command);
            if (heldAnswers != null) {
              heldAnswers.add(reply);
              return;
            }
          }
          reply.run();
          return;
        } else {
          result = CommandResult.newBuilder().setOutcome(CommandResult.Outcome.SUCCEEDED);
        }
        result.setCommandId(command.getCommand().getCommandId()).setFinishedAtEpochMillis(System.currentTimeMillis());
      } catch (InvalidProtocolBufferException e) {
        result = CommandResult.newBuilder().setOutcome(CommandResult.Outcome.REJECTED).setMessage(e.getMessage());
      }
      nats.publish(message.getReplyTo(), result.build().toByteArray());
    });
    dispatcher.subscribe(BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, ID));
    nats.flush(java.time.Duration.ofSeconds(5));
  }

  private void present() {
    try {
      presence.put(BusNames.token(ID), GatewayPresence.newBuilder().setGatewayId(ID)
          .setStartedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    } catch (Exception e) {
      // the next beat tries again; a test waiting on the route notices a long silence
    }
  }

  /** The mite connected (or reports anew): its route, as the gateway writes it. */
  public void connect(ControllerIdentity controller, Instant connectedAt, ObservedState observed) throws Exception {
    routes.put(controller.routeKey(), MiteRoute.newBuilder().setController(controller.toRef()).setGatewayId(ID)
        .setSessionId(UUID.randomUUID().toString()).setConnectedAtEpochMillis(connectedAt.toEpochMilli())
        .setMiteVersion("played").setObserved(observed).build().toByteArray());
  }

  /** The stream ended: the route goes. */
  public void disconnect(ControllerIdentity controller) throws Exception {
    routes.delete(controller.routeKey());
  }

  public List<ReplayDelivery> replayed() {
    return replayed;
  }

  /** The desired-state pushes received, in order, for the controller routed as {@code namespace.name}. */
  public List<dev.varroa.protocol.mite.v1.DesiredState> desiredStates(ControllerIdentity controller) {
    return desiredStates.stream().filter(c -> c.getController().getNamespace().equals(controller.namespace())
        && c.getController().getName().equals(controller.name()))
        .map(c -> c.getCommand().getDesiredState()).toList();
  }

  /** From now on, desired-state pushes are recorded but not answered until {@link #releaseDesiredStates}. */
  public synchronized void holdDesiredStates() {
    heldAnswers = new java.util.ArrayList<>();
  }

  /** Answers the held pushes (applied) and answers the next ones at once again. */
  public void releaseDesiredStates() {
    List<Runnable> held;
    synchronized (this) {
      held = heldAnswers == null ? List.of() : heldAnswers;
      heldAnswers = null;
    }
    held.forEach(Runnable::run);
  }

  /** How Jenkins answers replayed deliveries from now on. */
  public void answerReplays(Function<ReplayDelivery, CommandResult.Builder> answer) {
    replayAnswer.set(answer);
  }

  @Override
  public void close() throws Exception {
    beacon.shutdownNow();
    nats.closeDispatcher(dispatcher);
    nats.close();
  }
}

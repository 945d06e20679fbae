package dev.varroa.gateway;

import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.Heartbeat;
import dev.varroa.protocol.mite.v1.Hello;
import dev.varroa.protocol.mite.v1.MiteChannelGrpc;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.Welcome;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The mite's side of one MiteChannel stream: records what the gateway sends, answers commands with
 * a replaceable handler, and notes how the stream ended.
 */
public final class MiteStream implements AutoCloseable {

  private final ManagedChannel channel;
  private final BlockingQueue<GatewayMessage> received = new LinkedBlockingQueue<>();
  private final List<Command> commands = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Status> closed = new CompletableFuture<>();
  private volatile Function<Command, CompletableFuture<CommandResult>> onCommand = MiteStream::succeed;
  private StreamObserver<MiteMessage> outbound;

  private MiteStream(ManagedChannel channel) {
    this.channel = channel;
  }

  static MiteStream open(ManagedChannel channel) {
    MiteStream stream = new MiteStream(channel);
    stream.outbound = MiteChannelGrpc.newStub(channel).connect(new StreamObserver<>() {
      @Override
      public void onNext(GatewayMessage message) {
        if (message.hasCommand()) {
          stream.commands.add(message.getCommand());
          stream.onCommand.apply(message.getCommand()).thenAccept(result ->
              stream.send(MiteMessage.newBuilder().setResult(result).build()));
        } else {
          stream.received.add(message);
        }
      }

      @Override
      public void onError(Throwable error) {
        stream.closed.complete(Status.fromThrowable(error));
      }

      @Override
      public void onCompleted() {
        stream.closed.complete(Status.OK);
      }
    });
    return stream;
  }

  public static CompletableFuture<CommandResult> succeed(Command command) {
    return CompletableFuture.completedFuture(result(command, CommandResult.Outcome.SUCCEEDED));
  }

  public static CommandResult result(Command command, CommandResult.Outcome outcome) {
    return CommandResult.newBuilder()
        .setCommandId(command.getCommandId())
        .setOutcome(outcome)
        .setMessage("applied by the test mite")
        .setBundleDigest(command.getDesiredState().getBundleDigest())
        .setFinishedAtEpochMillis(System.currentTimeMillis())
        .build();
  }

  /** Answers each command after this long, as a slow Jenkins would. */
  public static Function<Command, CompletableFuture<CommandResult>> succeedAfter(Duration delay) {
    return command -> CompletableFuture.supplyAsync(() -> result(command, CommandResult.Outcome.SUCCEEDED),
        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS));
  }

  public static Function<Command, CompletableFuture<CommandResult>> neverAnswer() {
    return command -> new CompletableFuture<>();
  }

  public void answerCommandsWith(Function<Command, CompletableFuture<CommandResult>> handler) {
    this.onCommand = handler;
  }

  synchronized void send(MiteMessage message) {
    outbound.onNext(message);
  }

  void sendHello() {
    send(MiteMessage.newBuilder().setHello(Hello.newBuilder()
        .setProtocolVersion(ProtocolVersion.CURRENT)
        .setMiteVersion("test-mite")
        .setPodName("test-pod-0")
        .setObserved(ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion("2.500")))
        .build());
  }

  /** Sends Hello and waits for the Welcome. */
  public Welcome hello() throws InterruptedException {
    sendHello();
    return next(Duration.ofSeconds(10)).getWelcome();
  }

  void heartbeat(long sequence) {
    send(MiteMessage.newBuilder().setHeartbeat(Heartbeat.newBuilder()
        .setSequence(sequence)
        .setSentAtEpochMillis(System.currentTimeMillis()))
        .build());
  }

  /** The next non-command message from the gateway; fails if none arrives in time. */
  public GatewayMessage next(Duration timeout) throws InterruptedException {
    GatewayMessage message = received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    if (message == null) {
      throw new AssertionError("the gateway sent nothing within " + timeout + "; stream closed: "
          + closed.getNow(null));
    }
    return message;
  }

  /** True while no non-command message from the gateway waits to be read. */
  public boolean nothingReceived() {
    return received.isEmpty();
  }

  public List<Command> commands() {
    return commands;
  }

  public CompletableFuture<Status> closed() {
    return closed;
  }

  synchronized void completeStream() {
    outbound.onCompleted();
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}

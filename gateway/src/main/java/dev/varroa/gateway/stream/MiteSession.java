package dev.varroa.gateway.stream;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.ProtocolVersion;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.Hello;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import dev.varroa.protocol.mite.v1.ObservedState;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mite stream after its Hello: who it is, what it last reported, and the commands waiting for a
 * result. Sending is serialized here because a gRPC stream observer is not thread-safe.
 */
public final class MiteSession {

  private static final Logger LOG = LoggerFactory.getLogger(MiteSession.class);

  private final ControllerIdentity identity;
  private final String sessionId = UUID.randomUUID().toString();
  private final Instant certificateNotAfter;
  private final String certificatePem;
  private final Instant connectedAt;
  private final Hello hello;
  private final ServerCallStreamObserver<GatewayMessage> outbound;
  private final Executor serial;
  private final Clock clock;
  private final Map<String, CompletableFuture<CommandResult>> pending = new ConcurrentHashMap<>();
  private final AtomicBoolean open = new AtomicBoolean(true);
  private volatile ObservedState observed;
  private volatile Runnable whenClosed = () -> { };
  private final Object acknowledgementOrder = new Object();
  private CompletableFuture<Void> lastAcknowledgement = CompletableFuture.completedFuture(null);

  MiteSession(ControllerIdentity identity, Instant certificateNotAfter, String certificatePem, Hello hello,
      ServerCallStreamObserver<GatewayMessage> outbound, Executor pool, Clock clock) {
    this.identity = identity;
    this.certificateNotAfter = certificateNotAfter;
    this.certificatePem = certificatePem;
    this.connectedAt = clock.instant();
    this.hello = hello;
    this.observed = hello.getObserved();
    this.outbound = outbound;
    this.serial = new SerialExecutor(pool);
    this.clock = clock;
  }

  public ControllerIdentity identity() {
    return identity;
  }

  public String sessionId() {
    return sessionId;
  }

  Instant certificateNotAfter() {
    return certificateNotAfter;
  }

  /** The client certificate the stream was opened with (PEM, leaf): its key is the one commands are sealed to. */
  public String certificatePem() {
    return certificatePem;
  }

  /** The protocol version this gateway and the mite speak on the stream. */
  public int protocolVersion() {
    return ProtocolVersion.negotiated(hello.getProtocolVersion());
  }

  Instant connectedAt() {
    return connectedAt;
  }

  Hello hello() {
    return hello;
  }

  ObservedState observed() {
    return observed;
  }

  /** Records a new observed state; true when it differs from the last one (the route is rewritten only then). */
  boolean observe(ObservedState state) {
    if (state.equals(observed)) {
      return false;
    }
    observed = state;
    return true;
  }

  /** Route writes for this session run here, in order. */
  Executor serial() {
    return serial;
  }

  public boolean isOpen() {
    return open.get();
  }

  /** Runs once, after the stream ended for whatever reason (peer, gateway, failed write). */
  void whenClosed(Runnable cleanup) {
    this.whenClosed = cleanup;
  }

  /** Waits until the route writes queued so far have run; used by a graceful stop. */
  boolean awaitQueuedWrites(Duration timeout) throws InterruptedException {
    CompletableFuture<Void> marker = new CompletableFuture<>();
    serial.execute(() -> marker.complete(null));
    try {
      marker.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  /**
   * Sends the command and completes with the mite's result for its id, or with a gateway-made result
   * when the deadline passes or the stream ends first.
   */
  public CompletableFuture<CommandResult> deliver(Command command, Instant deadline) {
    CompletableFuture<CommandResult> result = new CompletableFuture<>();
    String id = command.getCommandId();
    CompletableFuture<CommandResult> earlier = pending.put(id, result);
    if (earlier != null) {
      earlier.complete(gatewayResult(id, CommandResult.Outcome.REJECTED,
          "superseded: the same command id was sent again while this one ran"));
    }
    result.whenComplete((r, e) -> pending.remove(id, result));
    long millis = Math.max(0, deadline.toEpochMilli() - clock.millis());
    result.completeOnTimeout(gatewayResult(id, CommandResult.Outcome.DEADLINE_EXCEEDED,
        "the mite did not report a result before the command deadline " + deadline
            + ": check Jenkins readiness, or raise ProvisioningDefaults.spec.commandDeadlineSec"),
        millis, TimeUnit.MILLISECONDS);
    if (!send(GatewayMessage.newBuilder().setCommand(command).build())) {
      result.complete(notConnected(id));
    }
    return result;
  }

  void resultArrived(CommandResult result) {
    CompletableFuture<CommandResult> waiting = pending.get(result.getCommandId());
    if (waiting == null) {
      LOG.info("event=command_result_unclaimed controller={} command={} outcome={}", identity.routeKey(),
          result.getCommandId(), result.getOutcome());
      return;
    }
    waiting.complete(result);
  }

  /**
   * Sends the message once {@code ready} says true and every message queued here before it has been sent
   * or dropped, so the mite sees acknowledgements in the order its batches arrived. False drops it.
   */
  void sendInArrivalOrder(CompletableFuture<Boolean> ready, GatewayMessage message) {
    CompletableFuture<Boolean> decided = ready.exceptionally(failure -> {
      LOG.warn("event=acknowledgement_dropped controller={} session={} error=\"{}\"", identity.routeKey(), sessionId,
          failure.toString());
      return false;
    });
    synchronized (acknowledgementOrder) {
      lastAcknowledgement = lastAcknowledgement.thenCombine(decided, (earlier, send) -> {
        if (send) {
          send(message);
        }
        return null;
      });
    }
  }

  /** Relays a Jenkins token to the mite (a queued grant); false when the stream is closed. */
  public boolean sendJenkinsToken(JenkinsToken token) {
    return send(GatewayMessage.newBuilder().setJenkinsToken(token).build());
  }

  /** False when the stream is closed; a failed send closes it. */
  synchronized boolean send(GatewayMessage message) {
    if (!open.get()) {
      return false;
    }
    try {
      outbound.onNext(message);
      return true;
    } catch (RuntimeException e) {
      LOG.warn("event=stream_send_failed controller={} session={} error=\"{}\"", identity.routeKey(), sessionId,
          e.getClass().getSimpleName());
      closeQuietly();
      return false;
    }
  }

  /** Ends the stream from the gateway's side with this status; true if it was still open. */
  synchronized boolean close(Status status) {
    if (!open.compareAndSet(true, false)) {
      return false;
    }
    try {
      outbound.onError(status.asRuntimeException());
    } catch (RuntimeException alreadyGone) {
      LOG.debug("event=stream_close_ignored controller={} error=\"{}\"", identity.routeKey(), alreadyGone.toString());
    }
    afterClose();
    return true;
  }

  /** The peer ended the stream; true if it was still open. */
  synchronized boolean ended(boolean completeOutbound) {
    if (!open.compareAndSet(true, false)) {
      return false;
    }
    if (completeOutbound) {
      try {
        outbound.onCompleted();
      } catch (RuntimeException alreadyGone) {
        LOG.debug("event=stream_complete_ignored controller={} error=\"{}\"", identity.routeKey(),
            alreadyGone.toString());
      }
    }
    afterClose();
    return true;
  }

  private void closeQuietly() {
    if (open.compareAndSet(true, false)) {
      try {
        outbound.onError(Status.UNAVAILABLE.withDescription("stream write failed").asRuntimeException());
      } catch (RuntimeException ignored) {
        // The transport is gone already; nothing else to tell.
      }
      afterClose();
    }
  }

  // Every path that flips open to false ends here exactly once.
  private void afterClose() {
    pending.forEach((id, waiting) -> waiting.complete(notConnected(id)));
    whenClosed.run();
  }

  private CommandResult notConnected(String commandId) {
    return gatewayResult(commandId, CommandResult.Outcome.NOT_CONNECTED,
        "the mite stream of " + identity.routeKey() + " ended before a result arrived; the command may or may not "
            + "have run: send it again once the mite reconnects");
  }

  private CommandResult gatewayResult(String commandId, CommandResult.Outcome outcome, String message) {
    return GatewayResult.of(commandId, outcome, message, clock.instant());
  }

  @Override
  public String toString() {
    return "MiteSession[" + identity.routeKey() + ", session=" + sessionId + "]";
  }
}

package dev.varroa.gateway.stream;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.LogAppendAnswer;
import dev.varroa.recorder.logs.LogChunkAppender;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Console log chunks of a mite stream: each LogAppend is answered off the stream's thread, on the log writers'
 * pool, with the LogChunkAppender's acks under the same request id; every write that landed is announced on core
 * NATS (LogAppended, never JetStream) for live viewers. The controller is always the certificate's.
 */
public final class LogAppendRelay {

  private static final Logger LOG = LoggerFactory.getLogger(LogAppendRelay.class);
  /**
   * Log bytes waiting for the writers, across every stream: past this a slow blob store answers UNAVAILABLE at once
   * (the plugin keeps its copy and backs off) instead of filling the gateway's heap.
   */
  static final long MAX_WAITING_BYTES = 64L << 20;

  private final AtomicLong waitingBytes = new AtomicLong();

  private final String gatewayId;
  private final String cluster;
  private final LogChunkAppender appender;
  private final BusConnection bus;
  private final Executor writers;
  private final Clock clock;

  public LogAppendRelay(String gatewayId, String cluster, LogChunkAppender appender, BusConnection bus,
      Executor writers, Clock clock) {
    this.gatewayId = gatewayId;
    this.cluster = cluster;
    this.appender = appender;
    this.bus = bus;
    this.writers = writers;
    this.clock = clock;
  }

  void append(MiteSession session, LogAppend request) {
    long size = request.getBatch().getSerializedSize();
    if (waitingBytes.addAndGet(size) > MAX_WAITING_BYTES && size > 0) {
      waitingBytes.addAndGet(-size);
      LOG.info("event=log_append_deferred gateway={} controller={} request={} bytes={} reason=writers_busy", gatewayId,
          session.identity().routeKey(), request.getRequestId(), size);
      answer(session, request, busy(request));
      return;
    }
    writers.execute(() -> {
      try {
        write(session, request);
      } finally {
        waitingBytes.addAndGet(-size);
      }
    });
  }

  private LogChunkBatchAck busy(LogAppend request) {
    LogChunkBatchAck.Builder ack = LogChunkBatchAck.newBuilder();
    for (LogChunk chunk : request.getBatch().getChunksList()) {
      ack.addAcks(LogChunkAck.newBuilder()
          .setRunId(chunk.getRunId())
          .setOffset(chunk.getOffset())
          .setResult(LogChunkAck.Result.UNAVAILABLE)
          .setStoredThrough(chunk.getOffset())
          .setMessage("gateway " + gatewayId + " holds " + (MAX_WAITING_BYTES >> 20) + " MiB of console log chunks "
              + "waiting for the blob store; send this chunk again later"));
    }
    return ack.build();
  }

  private void answer(MiteSession session, LogAppend request, LogChunkBatchAck ack) {
    session.send(GatewayMessage.newBuilder().setLogAppendAnswer(LogAppendAnswer.newBuilder()
        .setRequestId(request.getRequestId())
        .setAck(ack))
        .build());
  }

  private void write(MiteSession session, LogAppend request) {
    if (!session.isOpen()) {
      // Nobody waits for this answer; the plugin sends the chunks again from its last ack.
      LOG.debug("event=log_append_dropped gateway={} controller={} request={} reason=stream_ended", gatewayId,
          session.identity().routeKey(), request.getRequestId());
      return;
    }
    ControllerIdentity controller = session.identity();
    LogChunkBatchAck ack = appender.append(cluster, controller.namespace(), controller.name(), request.getBatch(),
        (key, chunk, from, after) -> announce(controller, key, chunk, from, after));
    answer(session, request, ack);
  }

  private void announce(ControllerIdentity controller, LogKey key, LogChunk chunk, long from, LogExtent after) {
    try {
      bus.connection().publish(BusNames.logAppended(cluster, controller, key.runId()), LogAppended.newBuilder()
          .setController(controller.toRef())
          .setCluster(cluster)
          .setRunId(key.runId())
          .setJob(chunk.getJob())
          .setOffset(from)
          .setStoredThrough(after.storedThrough())
          .setComplete(after.complete())
          .setAppendedAtEpochMillis(clock.millis())
          .build()
          .toByteArray());
    } catch (IllegalStateException e) {
      // A closed or reconnecting connection: live viewers catch up at the next announcement.
      LOG.debug("event=log_announcement_dropped gateway={} run={} error=\"{}\"", gatewayId, key, e.getMessage());
    }
  }
}

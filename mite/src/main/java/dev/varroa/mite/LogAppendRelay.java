package dev.varroa.mite;

import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.LogAppendAnswer;
import dev.varroa.protocol.mite.v1.MiteMessage;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forwards the plugin's console log chunks over the stream as {@code log_append} and waits a bounded time for the
 * gateway's {@code log_append_answer} with the same request id. Keeps no chunk: the plugin's copy is the durable
 * one, so a request whose stream ends is answered at once and the plugin sends it again.
 */
final class LogAppendRelay implements ChannelSession.StreamUser {

  private static final Logger LOG = LoggerFactory.getLogger(LogAppendRelay.class);

  /** The answer for the plugin: an HTTP status, and the gateway's acks (200) or why there are none. */
  record Outcome(int status, LogChunkBatchAck ack, String error) {
    static Outcome answered(LogChunkBatchAck ack) {
      return new Outcome(200, ack, null);
    }

    static Outcome failed(int status, String error) {
      return new Outcome(status, null, error);
    }
  }

  private record Waiter(ChannelSession.StreamLink stream, CompletableFuture<LogChunkBatchAck> answer) {
  }

  /** Completes a waiter whose stream ended before the gateway answered. */
  private static final class StreamEnded extends RuntimeException {
    StreamEnded() {
      super("stream ended", null, false, false);
    }
  }

  private final Duration answerWait;
  private final Map<String, Waiter> waiting = new ConcurrentHashMap<>();
  private volatile ChannelSession.StreamLink link;

  LogAppendRelay(Duration answerWait) {
    this.answerWait = answerWait;
  }

  /** Requests waiting for the gateway now. */
  int waiting() {
    return waiting.size();
  }

  /** Sends the batch to the gateway and waits for its acks; only an interrupt throws. */
  Outcome append(LogChunkBatch batch) throws InterruptedException {
    ChannelSession.StreamLink stream = link;
    if (stream == null) {
      LOG.warn("event=log_append_unavailable chunks={} reason=not_connected", batch.getChunksCount());
      return Outcome.failed(503, "the mite is not connected to a gateway; it reconnects on its own, send the chunks"
          + " again later");
    }
    String requestId = UUID.randomUUID().toString();
    Waiter waiter = new Waiter(stream, new CompletableFuture<>());
    waiting.put(requestId, waiter);
    try {
      // registered before the send: an answer may come back before send() returns
      if (!stream.send(MiteMessage.newBuilder()
          .setLogAppend(LogAppend.newBuilder().setRequestId(requestId).setBatch(batch)).build())) {
        return streamEnded(batch, requestId);
      }
      LogChunkBatchAck ack = waiter.answer().get(answerWait.toNanos(), TimeUnit.NANOSECONDS);
      LOG.debug("event=log_append_answered request_id={} chunks={} acks={}", requestId, batch.getChunksCount(),
          ack.getAcksCount());
      return Outcome.answered(ack);
    } catch (TimeoutException e) {
      LOG.warn("event=log_append_expired request_id={} chunks={} waited_ms={}", requestId, batch.getChunksCount(),
          answerWait.toMillis());
      return Outcome.failed(504, "the mite waited " + DurationText.seconds(answerWait) + " for the gateway to store the chunks"
          + " (VARROA_LOG_APPEND_WAIT); nothing is known about them, send them again");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof StreamEnded) {
        return streamEnded(batch, requestId);
      }
      throw new IllegalStateException("a log append answer future failed", e.getCause());
    } finally {
      waiting.remove(requestId);
    }
  }

  private static Outcome streamEnded(LogChunkBatch batch, String requestId) {
    LOG.warn("event=log_append_unavailable request_id={} chunks={} reason=stream_ended", requestId,
        batch.getChunksCount());
    return Outcome.failed(503, "stream ended, resend: the stream to the gateway ended before it answered; the mite"
        + " keeps no chunks, send them again");
  }


  @Override
  public void welcomed(ChannelSession.StreamLink stream) {
    link = stream;
  }

  @Override
  public void ended(ChannelSession.StreamLink stream) {
    if (link == stream) {
      link = null;
    }
    // nothing sent on that stream can be answered any more: those requests are forgotten now, not at their timeout
    waiting.values().removeIf(waiter -> {
      if (waiter.stream() == stream) {
        waiter.answer().completeExceptionally(new StreamEnded());
        return true;
      }
      return false;
    });
  }

  @Override
  public void received(GatewayMessage message) {
    if (!message.hasLogAppendAnswer()) {
      return;
    }
    LogAppendAnswer answer = message.getLogAppendAnswer();
    Waiter waiter = waiting.remove(answer.getRequestId());
    if (waiter == null) {
      LOG.debug("event=log_append_answer_dropped request_id={} reason=no_longer_waiting", answer.getRequestId());
      return;
    }
    waiter.answer().complete(answer.getAck());
  }
}

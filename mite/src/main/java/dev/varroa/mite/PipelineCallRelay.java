package dev.varroa.mite;

import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.PipelineCallAsk;
import dev.varroa.protocol.mite.v1.PipelineCallReply;
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
 * Forwards the plugin's cross-tenant pipeline calls (and questions about them) over the stream and waits the claim
 * budget for the recorder's answer, matched by a request id of the mite's own. An answer after the wait is dropped;
 * the plugin asks again with the same call id, which never starts a second run.
 */
final class PipelineCallRelay implements ChannelSession.StreamUser {

  static final String UNAVAILABLE = "UNAVAILABLE";

  private static final Logger LOG = LoggerFactory.getLogger(PipelineCallRelay.class);

  /** The answer for the plugin: its HTTP status and the call's answer. */
  record Outcome(int status, PipelineCallAnswer answer) {
  }

  private final Duration replyWait;
  private final Map<String, CompletableFuture<PipelineCallAnswer>> waiting = new ConcurrentHashMap<>();
  private volatile ChannelSession.StreamLink link;

  PipelineCallRelay(Duration replyWait) {
    this.replyWait = replyWait;
  }

  /** Asks the recorder through the gateway; never throws for the recorder's sake, only when interrupted. */
  Outcome ask(PipelineCallRequest call, boolean statusOnly) throws InterruptedException {
    ChannelSession.StreamLink stream = link;
    if (stream == null) {
      return notConnected(call);
    }
    String requestId = UUID.randomUUID().toString();
    CompletableFuture<PipelineCallAnswer> reply = new CompletableFuture<>();
    waiting.put(requestId, reply);
    try {
      if (!stream.send(MiteMessage.newBuilder().setPipelineCall(PipelineCallAsk.newBuilder()
          .setRequestId(requestId).setCall(call).setStatusOnly(statusOnly)).build())) {
        return notConnected(call);
      }
      PipelineCallAnswer answer = reply.get(replyWait.toNanos(), TimeUnit.NANOSECONDS);
      LOG.info("event=pipeline_call_answered call_id={} status_only={} state={} code={} run_id={}",
          call.getCallId(), statusOnly, answer.getState().isEmpty() ? "none" : answer.getState(), answer.getCode(),
          answer.getRunId());
      return new Outcome(200, answer);
    } catch (TimeoutException e) {
      LOG.warn("event=pipeline_call_expired call_id={} request_id={} waited_ms={}", call.getCallId(), requestId,
          replyWait.toMillis());
      return new Outcome(504, PipelineCallAnswer.newBuilder().setCode(UNAVAILABLE)
          .setMessage("the mite waited " + DurationText.seconds(replyWait) + " for the pipeline call's answer from the"
              + " gateway (VARROA_CLAIM_REPLY_WAIT); ask again with the same call id")
          .build());
    } catch (ExecutionException e) {
      throw new IllegalStateException("a pipeline call answer future failed", e.getCause());
    } finally {
      waiting.remove(requestId);
    }
  }

  private static Outcome notConnected(PipelineCallRequest call) {
    LOG.warn("event=pipeline_call_unavailable call_id={} reason=not_connected", call.getCallId());
    return new Outcome(503, PipelineCallAnswer.newBuilder().setCode(UNAVAILABLE)
        .setMessage("the mite is not connected to a gateway; it reconnects on its own, ask again later").build());
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
  }

  @Override
  public void received(GatewayMessage message) {
    if (!message.hasPipelineCallAnswer()) {
      return;
    }
    PipelineCallReply reply = message.getPipelineCallAnswer();
    CompletableFuture<PipelineCallAnswer> waiter = waiting.remove(reply.getRequestId());
    if (waiter == null) {
      LOG.debug("event=pipeline_call_answer_dropped request_id={} reason=no_longer_waiting", reply.getRequestId());
      return;
    }
    waiter.complete(reply.getAnswer());
  }
}

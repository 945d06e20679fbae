package dev.varroa.mite;

import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.GatewayMessage;
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
 * Forwards the plugin's build claims over the stream and waits a bounded time for the ledger's answer,
 * matched by a request id of the mite's own. An answer that comes after the wait is dropped.
 */
final class ClaimRelay implements ChannelSession.StreamUser {

  /** Seed 000's code for "no decision could be had". */
  static final String UNAVAILABLE = "UNAVAILABLE";

  private static final Logger LOG = LoggerFactory.getLogger(ClaimRelay.class);

  /** The answer for the plugin: its HTTP status and the decision. */
  record Outcome(int status, ClaimDecision decision) {
  }

  private final Duration replyWait;
  private final Map<String, CompletableFuture<ClaimDecision>> waiting = new ConcurrentHashMap<>();
  private volatile ChannelSession.StreamLink link;

  ClaimRelay(Duration replyWait) {
    this.replyWait = replyWait;
  }

  Duration replyWait() {
    return replyWait;
  }

  /** Asks the ledger through the gateway; never throws for the ledger's sake, only when interrupted. */
  Outcome ask(ClaimRequest claim) throws InterruptedException {
    ChannelSession.StreamLink stream = link;
    if (stream == null) {
      return notConnected(claim);
    }
    String requestId = UUID.randomUUID().toString();
    CompletableFuture<ClaimDecision> answer = new CompletableFuture<>();
    waiting.put(requestId, answer);
    try {
      if (!stream.send(MiteMessage.newBuilder()
          .setClaim(ClaimAsk.newBuilder().setRequestId(requestId).setClaim(claim)).build())) {
        return notConnected(claim);
      }
      ClaimDecision decision = answer.get(replyWait.toNanos(), TimeUnit.NANOSECONDS);
      LOG.info("event=claim_answered run_id={} job=\"{}\" decision={} code={} build_number={}", claim.getRunId(),
          claim.getJob(), decision.getDecision().isEmpty() ? "none" : decision.getDecision(), decision.getCode(),
          decision.getBuildNumber());
      return new Outcome(200, decision);
    } catch (TimeoutException e) {
      LOG.warn("event=claim_expired run_id={} job=\"{}\" request_id={} waited_ms={}", claim.getRunId(),
          claim.getJob(), requestId, replyWait.toMillis());
      return new Outcome(504, ClaimDecision.newBuilder().setCode(UNAVAILABLE)
          .setReason("the mite waited " + DurationText.seconds(replyWait) + " for the claim's answer from the gateway "
              + "(VARROA_CLAIM_REPLY_WAIT)")
          .build());
    } catch (ExecutionException e) {
      throw new IllegalStateException("a claim answer future failed", e.getCause());
    } finally {
      waiting.remove(requestId);
    }
  }

  private static Outcome notConnected(ClaimRequest claim) {
    LOG.warn("event=claim_unavailable run_id={} job=\"{}\" reason=not_connected", claim.getRunId(), claim.getJob());
    return new Outcome(503, ClaimDecision.newBuilder().setCode(UNAVAILABLE)
        .setReason("the mite is not connected to a gateway; it reconnects on its own, ask again later").build());
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
    if (!message.hasClaimAnswer()) {
      return;
    }
    ClaimAnswer answer = message.getClaimAnswer();
    CompletableFuture<ClaimDecision> waiter = waiting.remove(answer.getRequestId());
    if (waiter == null) {
      LOG.debug("event=claim_answer_dropped request_id={} reason=no_longer_waiting", answer.getRequestId());
      return;
    }
    waiter.complete(answer.getDecision());
  }
}

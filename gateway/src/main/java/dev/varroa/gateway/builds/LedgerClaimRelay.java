package dev.varroa.gateway.builds;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.bus.Redaction;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the recorder's ledger, by NATS request on varroa.ledger.claim, whether a queued build may run.
 * The controller is the one of the mite's certificate. Whatever goes wrong within the budget (no
 * ledger listening, no answer in time, an unreadable answer) becomes an empty decision with code
 * UNAVAILABLE and a reason naming the cause, so the plugin asks again on its schedule.
 */
public final class LedgerClaimRelay {

  private static final Logger LOG = LoggerFactory.getLogger(LedgerClaimRelay.class);
  public static final String UNAVAILABLE = "UNAVAILABLE";

  private final BusConnection bus;
  private final String gatewayId;
  private final String cluster;
  private final Duration budget;
  private final Executor pool;

  public LedgerClaimRelay(BusConnection bus, String gatewayId, String cluster, Duration budget, Executor pool) {
    this.bus = bus;
    this.gatewayId = gatewayId;
    this.cluster = cluster;
    this.budget = budget;
    this.pool = pool;
  }

  /** The ledger's decision, or an UNAVAILABLE one once the budget is spent; never completes exceptionally. */
  public CompletableFuture<ClaimDecision> decide(ControllerIdentity controller, ClaimRequest claim) {
    byte[] request = LedgerClaim.newBuilder()
        .setController(controller.toRef())
        .setCluster(cluster)
        .setClaim(claim)
        .build()
        .toByteArray();
    long started = System.nanoTime();
    if (!bus.isConnected()) {
      // jnats would hold the request until it reconnects; the plugin's retry schedule serves it better.
      return CompletableFuture.completedFuture(unavailable(controller, claim, started,
          "the gateway has no NATS connection to reach the build ledger on " + BusNames.LEDGER_CLAIM_SUBJECT));
    }
    CompletableFuture<Message> reply;
    try {
      reply = bus.connection().requestWithTimeout(BusNames.LEDGER_CLAIM_SUBJECT, request, budget);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(unavailable(controller, claim, started,
          "the gateway could not send the claim over NATS (" + Redaction.describe(e) + ")"));
    }
    CompletableFuture<ClaimDecision> decision = reply.handleAsync(
        (message, failure) -> read(controller, claim, started, message, failure), pool);
    // jnats notices its own timeout only on a 5 s cleanup tick; the budget is kept here.
    return decision.orTimeout(budget.toNanos(), TimeUnit.NANOSECONDS).handle((answer, failure) -> {
      if (failure == null) {
        return answer;
      }
      reply.cancel(true);
      return unavailable(controller, claim, started, "the build ledger did not answer within "
          + DurationText.seconds(budget) + " (timeout on " + BusNames.LEDGER_CLAIM_SUBJECT + ")");
    });
  }

  private ClaimDecision read(ControllerIdentity controller, ClaimRequest claim, long started, Message message,
      Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
        : failure;
    if (cause instanceof CancellationException || cause instanceof JetStreamStatusException
        || (message != null && message.isStatusMessage() && message.getStatus().getCode() == 503)) {
      return unavailable(controller, claim, started, "no build ledger is listening on "
          + BusNames.LEDGER_CLAIM_SUBJECT + " (no responders: is the recorder running?)");
    }
    if (cause instanceof TimeoutException) {
      return unavailable(controller, claim, started, "the build ledger did not answer within "
          + DurationText.seconds(budget) + " (timeout on " + BusNames.LEDGER_CLAIM_SUBJECT + ")");
    }
    if (cause != null) {
      return unavailable(controller, claim, started, "the claim request failed: " + Redaction.describe(cause));
    }
    if (message == null || message.isStatusMessage()) {
      return unavailable(controller, claim, started, "the build ledger answered with no decision"
          + (message == null ? "" : " (NATS status " + message.getStatus().getMessageWithCode() + ")"));
    }
    ClaimDecision decision;
    try {
      decision = ClaimDecision.parseFrom(message.getData());
    } catch (InvalidProtocolBufferException e) {
      return unavailable(controller, claim, started, "the build ledger's reply is not a ClaimDecision ("
          + e.getMessage() + ")");
    }
    if (decision.getDecision().isEmpty() && decision.getCode().isEmpty()) {
      return unavailable(controller, claim, started, "the build ledger's reply carries neither a decision nor a code");
    }
    LOG.debug("event=claim_decided gateway={} controller={} run={} job=\"{}\" decision={} code={} buildNumber={} "
            + "millis={}", gatewayId, controller.routeKey(), claim.getRunId(), quotable(claim.getJob()),
        decision.getDecision(), decision.getCode(), decision.getBuildNumber(), elapsedMillis(started));
    return decision;
  }

  private ClaimDecision unavailable(ControllerIdentity controller, ClaimRequest claim, long started, String reason) {
    LOG.warn("event=claim_unavailable gateway={} controller={} run={} job=\"{}\" millis={} reason=\"{}\"", gatewayId,
        controller.routeKey(), claim.getRunId(), quotable(claim.getJob()), elapsedMillis(started), reason);
    return ClaimDecision.newBuilder().setDecision("").setCode(UNAVAILABLE).setReason(reason).build();
  }

  private static String quotable(String value) {
    return value.replace('"', '\'');
  }

  private static long elapsedMillis(long startedNanos) {
    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos);
  }
}

package dev.varroa.gateway.builds;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
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

  private final CoreRequest ledger;
  private final String gatewayId;
  private final String cluster;

  public LedgerClaimRelay(BusConnection bus, String gatewayId, String cluster, Duration budget, Executor pool) {
    this.ledger = new CoreRequest(bus, BusNames.LEDGER_CLAIM_SUBJECT, "build ledger", "claim", budget, pool);
    this.gatewayId = gatewayId;
    this.cluster = cluster;
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
    return ledger.send(request).thenApply(reply -> reply.data() == null
        ? unavailable(controller, claim, started, reply.unavailable())
        : read(controller, claim, started, reply.data()));
  }

  private ClaimDecision read(ControllerIdentity controller, ClaimRequest claim, long started, byte[] data) {
    ClaimDecision decision;
    try {
      decision = ClaimDecision.parseFrom(data);
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

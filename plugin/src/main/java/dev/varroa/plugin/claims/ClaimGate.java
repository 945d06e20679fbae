package dev.varroa.plugin.claims;

import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The build claim gate behind Jenkins' {@code QueueTaskDispatcher.canRun}: Jenkins asks often and wants a fast
 * answer, so {@link #canRun} only reads the decision cached for the queue item and, the first time, starts an ask
 * on the scheduler. A grant lets the item run with the granted build number; a refusal holds it with the ledger's
 * reason (asked again every 30 s, so a lifted hold lets it go); a retry or no decision holds it and asks again on
 * {@link ClaimRetrySchedule}. {@link #forget} drops an item's decision when it leaves the queue.
 *
 * <p>Jenkins gives a job's next build number to whichever of its runs starts next, so two granted items of one job
 * must not be let go together: a granted item is released only once the job's previous released number was taken
 * (the job's next build number moved past it) or its item was cancelled, and lower granted numbers go first.
 */
public final class ClaimGate {

  /** A refusal is asked again this often: a hold in the ledger can be lifted while the item waits. */
  public static final Duration REFUSED_ASKED_AGAIN_EVERY = ClaimRetrySchedule.THEN_EVERY;
  static final String WAITING = "waiting for the build ledger's decision";
  private static final Logger LOG = Logger.getLogger(ClaimGate.class.getName());

  private final boolean enabled;
  private final Function<ClaimRequest, ClaimDecision> ask;
  private final TaskScheduler scheduler;
  private final Map<Long, Item> items = new ConcurrentHashMap<>();
  private final Map<String, Released> released = new ConcurrentHashMap<>();

  public ClaimGate(boolean enabled, Function<ClaimRequest, ClaimDecision> ask, TaskScheduler scheduler) {
    this.enabled = enabled;
    this.ask = ask;
    this.scheduler = scheduler;
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * The cached answer for a queued item; never blocks, never throws. The first call starts the ask.
   *
   * @param nextBuildNumber the job's next build number as Jenkins has it now
   */
  public GateAnswer canRun(long queueId, String runId, String job, long nextBuildNumber) {
    if (!enabled) {
      return new GateAnswer.Open();
    }
    Item item = items.computeIfAbsent(queueId, id -> new Item(
        ClaimRequest.newBuilder().setQueueId(id).setRunId(runId).setJob(job).build()));
    if (item.started.compareAndSet(false, true)) {
      scheduler.execute(() -> ask(item));
    }
    GateAnswer answer = item.answer;
    if (answer instanceof GateAnswer.Granted granted) {
      Released previous = released.get(job);
      if (previous != null && previous.queueId != queueId && nextBuildNumber <= previous.buildNumber) {
        return waitingFor(granted, previous.buildNumber);
      }
      // Lowest number first: once a higher number has run, Jenkins cannot go back to a lower one.
      long lower = lowestOtherGrant(job, queueId, granted.buildNumber());
      if (lower < granted.buildNumber()) {
        return waitingFor(granted, lower);
      }
      released.put(job, new Released(queueId, granted.buildNumber()));
    }
    return answer;
  }

  /**
   * The item left the queue: its decision and pending asks go. A cancelled item also gives up its place in its
   * job's line; one that started keeps it until its run takes the granted number.
   */
  public void forget(long queueId, boolean cancelled) {
    items.remove(queueId);
    if (cancelled) {
      released.values().removeIf(release -> release.queueId == queueId);
    }
  }

  private long lowestOtherGrant(String job, long queueId, long than) {
    long lowest = than;
    for (Item other : items.values()) {
      if (other.request.getQueueId() != queueId && other.request.getJob().equals(job)
          && other.answer instanceof GateAnswer.Granted grant && grant.buildNumber() < lowest) {
        lowest = grant.buildNumber();
      }
    }
    return lowest;
  }

  private static GateAnswer.Held waitingFor(GateAnswer.Granted granted, long first) {
    return new GateAnswer.Held("granted build number " + granted.buildNumber() + "; waiting for build " + first
        + " of this job to start first");
  }

  /** How many queue items the gate holds a decision for. */
  public int tracked() {
    return items.size();
  }

  private void ask(Item item) {
    if (items.get(item.request.getQueueId()) != item) {
      return;
    }
    ClaimDecision decision;
    try {
      decision = ask.apply(item.request);
    } catch (RuntimeException e) {
      decision = ClaimDecisions.unavailable("claim failed: " + e);
    }
    if (items.get(item.request.getQueueId()) != item) {
      return;
    }
    Duration again = apply(item, decision);
    if (again != null) {
      scheduler.schedule(again, () -> ask(item));
    }
  }

  /** Records the decision; the wait before the next ask, or null when there is none. */
  private Duration apply(Item item, ClaimDecision decision) {
    String job = item.request.getJob();
    if (ClaimDecisions.GRANTED.equals(decision.getDecision()) && ClaimDecisions.OK.equals(decision.getCode())) {
      item.answer = new GateAnswer.Granted(decision.getBuildNumber());
      LOG.fine(() -> "event=claim_granted job=" + job + " queue_id=" + item.request.getQueueId()
          + " build_number=" + decision.getBuildNumber());
      return null;
    }
    if (ClaimDecisions.REFUSED.equals(decision.getDecision())) {
      item.answer = new GateAnswer.Held("the build ledger refused this build: " + decision.getReason());
      return REFUSED_ASKED_AGAIN_EVERY;
    }
    boolean retry = ClaimDecisions.RETRY.equals(decision.getDecision());
    Duration wait = ClaimRetrySchedule.delay(item.retries++, retry ? decision.getRetryAfterMillis() : 0);
    String why = retry
        ? "the build ledger asks to retry" + (decision.getReason().isEmpty() ? "" : " (" + decision.getReason() + ")")
        : "no claim decision (" + decision.getCode() + ": " + decision.getReason() + ")";
    item.answer = new GateAnswer.Held(why + "; asking again in " + seconds(wait));
    return wait;
  }

  private static String seconds(Duration wait) {
    return BigDecimal.valueOf(wait.toMillis()).movePointLeft(3).stripTrailingZeros().toPlainString() + " s";
  }

  private record Released(long queueId, long buildNumber) {
  }

  private static final class Item {
    final ClaimRequest request;
    final java.util.concurrent.atomic.AtomicBoolean started = new java.util.concurrent.atomic.AtomicBoolean();
    volatile GateAnswer answer = new GateAnswer.Held(WAITING);
    int retries;

    Item(ClaimRequest request) {
      this.request = request;
    }
  }
}

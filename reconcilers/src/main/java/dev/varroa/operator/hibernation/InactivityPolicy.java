package dev.varroa.operator.hibernation;

import dev.varroa.api.v1alpha1.HibernationStatus;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * When a Controller is parked and when it wakes (seed 001: "Inactivity policy parked the controller"). Pure: what the
 * mite observes, the wake requests the waker kept and the clock come in; the next hibernation status and when to look
 * again go out. A Connected controller with spec.hibernation.idleMinutes set, no running or queued build and no UI or
 * API use for that long (and connected at least that long) is parked, unless it is stopped, its home is being
 * restored or moved, or a backup runs. A new varroa.dev/hibernate-now value parks it at once when nothing of that
 * blocks, whatever its idle time, and is answered once in status.hibernation.lastHibernateOutcome either way. A parked
 * controller wakes on a new varroa.dev/wake value, a browser visit or a webhook the waker kept, or ahead of its next
 * timer-triggered job.
 */
public final class InactivityPolicy {
  /** The varroa.dev/wake annotation changed to a value not acted on yet. */
  public static final String SOURCE_ANNOTATION = "annotation";
  /** A webhook delivery the waker kept. */
  public static final String SOURCE_WEBHOOK = "webhook";
  /** A browser (or any GET) at the controller's URL. */
  public static final String SOURCE_BROWSER = "browser";
  /** The next timer-triggered job is due within wakeAheadMinutes. */
  public static final String SOURCE_TIMER = "timer";
  /** spec.hibernation.idleMinutes was removed while the controller was parked. */
  public static final String SOURCE_POLICY = "policy";

  /** lastHibernateOutcome of a varroa.dev/hibernate-now request that parked the controller, or found it parked. */
  public static final String OUTCOME_PARKED = "Parked";

  private static final String TIMERS_UNKNOWN = "its next timer-triggered job is unknown: ";
  private static final String ASK_AGAIN = "ask again with a new varroa.dev/hibernate-now value";

  private InactivityPolicy() {}

  /** How Jenkins is used now, from the mite's ObservedState on a live route. */
  public record Use(Instant connectedAt, int runningBuilds, int queuedBuilds, Optional<Instant> lastUserRequest) {
    boolean busy() {
      return runningBuilds > 0 || queuedBuilds > 0;
    }
  }

  /** A browser visit or a webhook delivery the waker kept for this controller. */
  public record WakeRequest(String source, Instant receivedAt) {}

  /** The varroa.dev/hibernate-now annotation's value on the Controller named namespace/name. */
  public record HibernateRequest(String controller, String value) {}

  /**
   * Everything one decision reads.
   *
   * @param idleMinutes spec.hibernation.idleMinutes; empty: never park
   * @param wakeAheadMinutes spec.hibernation.wakeAheadMinutes
   * @param stopped spec.powerState Stopped
   * @param homeOperation status.home.restore or status.home.move is set
   * @param backupInProgress status.backup.inProgress is set
   * @param previous status.hibernation as last written; null before the first
   * @param wakeAnnotation the varroa.dev/wake annotation's value
   * @param use what the mite reports; empty when no stream is live (not Connected)
   * @param lastSeenBusy when this operator last saw a build running or queued (kept in memory between passes)
   * @param watchingSince when this operator started: after a restart the idle period is counted again from there
   * @param wakeRequests the visits and deliveries the waker kept, not yet consumed
   * @param pendingDeliveries how many kept deliveries wait to be replayed
   * @param hibernateNow the varroa.dev/hibernate-now annotation, empty when the Controller has none
   */
  public record Input(Optional<Integer> idleMinutes, int wakeAheadMinutes, boolean stopped, boolean homeOperation,
      boolean backupInProgress, HibernationStatus previous, Optional<String> wakeAnnotation, Optional<Use> use,
      Optional<Instant> lastSeenBusy, Instant watchingSince, List<WakeRequest> wakeRequests, int pendingDeliveries,
      Instant now, Optional<HibernateRequest> hibernateNow) {
    public Input {
      wakeRequests = List.copyOf(wakeRequests);
    }

    /** Without a varroa.dev/hibernate-now annotation. */
    public Input(Optional<Integer> idleMinutes, int wakeAheadMinutes, boolean stopped, boolean homeOperation,
        boolean backupInProgress, HibernationStatus previous, Optional<String> wakeAnnotation, Optional<Use> use,
        Optional<Instant> lastSeenBusy, Instant watchingSince, List<WakeRequest> wakeRequests, int pendingDeliveries,
        Instant now) {
      this(idleMinutes, wakeAheadMinutes, stopped, homeOperation, backupInProgress, previous, wakeAnnotation, use,
          lastSeenBusy, watchingSince, wakeRequests, pendingDeliveries, now, Optional.empty());
    }

    /** The same input with a varroa.dev/hibernate-now value on the Controller named namespace/name. */
    public Input withHibernateNow(String controller, String value) {
      return new Input(idleMinutes, wakeAheadMinutes, stopped, homeOperation, backupInProgress, previous,
          wakeAnnotation, use, lastSeenBusy, watchingSince, wakeRequests, pendingDeliveries, now,
          Optional.of(new HibernateRequest(controller, value)));
    }

    boolean parked() {
      return previous != null && previous.since != null;
    }
  }

  /** What a parked controller's next timer-triggered job is, as far as the record store could tell. */
  public sealed interface Timers {
    /** The recorder answered: the next fire time of all the controller's jobs, if any fires. */
    record Known(Optional<Instant> nextFire) implements Timers {}

    /** The recorder could not answer (not installed, unreachable, no inventory yet). */
    record Unknown(String why) implements Timers {}
  }

  /** Where the controller stands after a decision. */
  public enum State {
    AWAKE,
    /** Idle long enough: park it once its timers are known ({@link #park}). */
    READY_TO_PARK,
    PARKED
  }

  /**
   * @param status status.hibernation to write (null when there is nothing to say)
   * @param recheckAt when time alone changes the decision (an idle deadline, a timer wake)
   * @param wokeBy the wake source, when this decision wakes a parked controller
   */
  public record Decision(State state, HibernationStatus status, Optional<Instant> recheckAt, Optional<String> wokeBy) {}

  public static Decision decide(Input in) {
    return in.parked() ? whileParked(in) : whileAwake(in);
  }

  private static Decision whileParked(Input in) {
    HibernationStatus status = copy(in.previous());
    status.pendingDeliveries = count(in.pendingDeliveries());
    Optional<String> source = wakeSource(in);
    Optional<HibernateRequest> request = newHibernateRequest(in);
    if (in.stopped()) {
      // powerState Stopped wins: the controller is stopped, not woken
      clearParking(status);
      recordAnnotation(status, in);
      request.ifPresent(r -> answer(status, r, stopped(r)));
      return new Decision(State.AWAKE, status, Optional.empty(), Optional.empty());
    }
    if (source.isEmpty() || in.homeOperation()) {
      // a restore or move works on the parked home; a wake waits until it is done
      request.ifPresent(r -> answer(status, r, OUTCOME_PARKED));
      return new Decision(State.PARKED, status, nextTimerWake(status).filter(at -> source.isEmpty()), Optional.empty());
    }
    clearParking(status);
    recordAnnotation(status, in);
    request.ifPresent(r -> answer(status, r, SOURCE_POLICY.equals(source.get()) ? noIdleMinutes(r)
        : "Controller " + r.controller() + " was woken by " + source.get() + " in the same pass, so it stays up; fix: "
            + ASK_AGAIN + " once it is Connected"));
    status.lastWakeSource = source.get();
    status.lastWakeAt = in.now().toString();
    // the wake itself is use: the freshly started controller gets a whole idle period
    status.lastActivityAt = minute(in.now()).toString();
    return new Decision(State.AWAKE, status, Optional.empty(), source);
  }

  private static Optional<String> wakeSource(Input in) {
    if (in.idleMinutes().isEmpty()) {
      return Optional.of(SOURCE_POLICY);
    }
    if (newAnnotation(in)) {
      return Optional.of(SOURCE_ANNOTATION);
    }
    Optional<WakeRequest> oldest = in.wakeRequests().stream().min(Comparator.comparing(WakeRequest::receivedAt));
    if (oldest.isPresent()) {
      return Optional.of(oldest.get().source());
    }
    return nextTimerWake(in.previous()).filter(at -> !at.isAfter(in.now())).map(at -> SOURCE_TIMER);
  }

  private static Decision whileAwake(Input in) {
    HibernationStatus status = in.previous() == null ? new HibernationStatus() : copy(in.previous());
    status.pendingDeliveries = count(in.pendingDeliveries());
    recordAnnotation(status, in);
    Optional<Instant> activity = latest(Stream.of(
        parse(status.lastActivityAt),
        in.use().flatMap(Use::lastUserRequest),
        in.use().filter(Use::busy).map(u -> in.now()),
        in.lastSeenBusy(),
        in.wakeRequests().stream().map(WakeRequest::receivedAt).max(Instant::compareTo)));
    status.lastActivityAt = activity.map(InactivityPolicy::minute).map(Instant::toString).orElse(null);
    Optional<HibernateRequest> request = newHibernateRequest(in);
    if (in.idleMinutes().isEmpty()) {
      request.ifPresent(r -> answer(status, r, noIdleMinutes(r)));
      return new Decision(State.AWAKE, empty(status) ? null : status, Optional.empty(), Optional.empty());
    }
    boolean blocked = in.stopped() || in.homeOperation() || in.backupInProgress() || in.use().isEmpty()
        || in.use().get().busy() || in.pendingDeliveries() > 0 || !in.wakeRequests().isEmpty();
    if (blocked) {
      // answered once: the caller asks again with a new value, nothing retries this one
      request.ifPresent(r -> answer(status, r, blockedBecause(in, r)));
      // each of these ends with an event (a route, a status or a Secret changes), which starts the next pass
      return new Decision(State.AWAKE, status, Optional.empty(), Optional.empty());
    }
    if (request.isPresent()) {
      // asked to park now: the idle period is not waited for
      return new Decision(State.READY_TO_PARK, status, Optional.empty(), Optional.empty());
    }
    Instant idleSince = latest(Stream.of(activity, Optional.of(in.use().get().connectedAt()),
        Optional.of(in.watchingSince()))).orElseThrow();
    Instant deadline = idleSince.plus(Duration.ofMinutes(in.idleMinutes().get()));
    if (in.now().isBefore(deadline)) {
      return new Decision(State.AWAKE, status, Optional.of(deadline), Optional.empty());
    }
    return new Decision(State.READY_TO_PARK, status, Optional.empty(), Optional.empty());
  }

  /**
   * Parks a controller {@link #decide} found ready, unless its next timer-triggered job is due within
   * wakeAheadMinutes: then it stays up for that job and is looked at again once the job has fired.
   */
  public static Decision park(Input in, Decision ready, Timers timers) {
    if (ready.state() != State.READY_TO_PARK) {
      throw new IllegalArgumentException("only a controller ready to park can be parked, not one " + ready.state());
    }
    Optional<Instant> fire = timers instanceof Timers.Known known ? known.nextFire() : Optional.empty();
    Optional<HibernateRequest> request = newHibernateRequest(in);
    if (fire.isPresent() && !fire.get().minus(Duration.ofMinutes(in.wakeAheadMinutes())).isAfter(in.now())) {
      HibernationStatus status = copy(ready.status());
      request.ifPresent(r -> answer(status, r, "Controller " + r.controller() + " has a timer-triggered job due at "
          + fire.get() + ", within spec.hibernation.wakeAheadMinutes (" + in.wakeAheadMinutes()
          + " min), so it stays up for it; fix: " + ASK_AGAIN + " once that job started"));
      return new Decision(State.AWAKE, status, Optional.of(fire.get().plus(Duration.ofMinutes(1))),
          Optional.empty());
    }
    HibernationStatus status = copy(ready.status());
    status.since = in.now().toString();
    String why = request.map(r -> "parked on request (varroa.dev/hibernate-now " + r.value()
        + ") with no running or queued build").orElse(idleReason(in.idleMinutes().orElseThrow()));
    timers(status, why, in.wakeAheadMinutes(), timers);
    request.ifPresent(r -> answer(status, r, OUTCOME_PARKED));
    return new Decision(State.PARKED, status, nextTimerWake(status), Optional.empty());
  }

  /** A parked controller's status once its timers are known (they could not be learned when it was parked). */
  public static HibernationStatus timersLearned(HibernationStatus parked, int idleMinutes, int wakeAheadMinutes,
      Timers.Known timers) {
    HibernationStatus status = copy(parked);
    // the reason's first part (idle, or asked for) stays; only what it says of the timers changes
    int note = parked.reason == null ? -1 : parked.reason.indexOf("; " + TIMERS_UNKNOWN);
    timers(status, note < 0 ? idleReason(idleMinutes) : parked.reason.substring(0, note), wakeAheadMinutes, timers);
    return status;
  }

  /** Whether a parked controller's timers could not be learned when it was parked (and should be asked for again). */
  public static boolean timersUnknown(HibernationStatus status) {
    return status != null && status.since != null && status.nextTimerWakeAt == null && status.reason != null
        && status.reason.contains(TIMERS_UNKNOWN);
  }

  private static String idleReason(int idleMinutes) {
    return "no running or queued build and no UI or API use for " + idleMinutes + " min";
  }

  private static void timers(HibernationStatus status, String why, int wakeAheadMinutes, Timers timers) {
    String note;
    status.nextTimerWakeAt = null;
    if (timers instanceof Timers.Known known) {
      if (known.nextFire().isPresent()) {
        Instant fire = known.nextFire().get();
        status.nextTimerWakeAt = fire.minus(Duration.ofMinutes(wakeAheadMinutes)).toString();
        note = "wakes " + wakeAheadMinutes + " min before its next timer-triggered job at " + fire;
      } else {
        note = "no timer-triggered job";
      }
    } else {
      note = TIMERS_UNKNOWN + ((Timers.Unknown) timers).why();
    }
    status.reason = why + "; " + note;
  }

  /** A varroa.dev/hibernate-now value not answered yet. */
  private static Optional<HibernateRequest> newHibernateRequest(Input in) {
    return in.hibernateNow().filter(r -> r.value() != null && !r.value().isEmpty())
        .filter(r -> in.previous() == null || !r.value().equals(in.previous().lastHibernateRequest));
  }

  private static void answer(HibernationStatus status, HibernateRequest request, String outcome) {
    status.lastHibernateRequest = request.value();
    status.lastHibernateOutcome = outcome;
  }

  private static String noIdleMinutes(HibernateRequest request) {
    return "Controller " + request.controller() + " has no spec.hibernation.idleMinutes, so it cannot hibernate; fix:"
        + " set spec.hibernation.idleMinutes";
  }

  private static String stopped(HibernateRequest request) {
    return "Controller " + request.controller() + " is stopped (spec.powerState Stopped), so there is nothing to park;"
        + " fix: set spec.powerState Running, then " + ASK_AGAIN;
  }

  /** Why an awake controller cannot be parked now, naming the Controller, what blocks and the fix. */
  private static String blockedBecause(Input in, HibernateRequest request) {
    String controller = "Controller " + request.controller();
    if (in.stopped()) {
      return stopped(request);
    }
    if (in.homeOperation()) {
      return controller + " has a restore or move of JENKINS_HOME under way (status.home), so it cannot hibernate now;"
          + " fix: " + ASK_AGAIN + " once it is done";
    }
    if (in.backupInProgress()) {
      return controller + " has a backup under way (status.backup.inProgress), so it cannot hibernate now; fix: "
          + ASK_AGAIN + " once the backup finished";
    }
    if (in.use().isEmpty()) {
      return controller + " is not Connected (its mite has no stream), so it cannot hibernate now; fix: " + ASK_AGAIN
          + " once status.phase is Connected";
    }
    Use use = in.use().get();
    if (use.busy()) {
      List<String> busy = new ArrayList<>();
      if (use.runningBuilds() > 0) {
        busy.add(builds(use.runningBuilds()) + " running");
      }
      if (use.queuedBuilds() > 0) {
        busy.add(builds(use.queuedBuilds()) + " queued");
      }
      return String.join(" and ", busy) + " on " + controller + ", so it cannot hibernate now; fix: " + ASK_AGAIN
          + " once no build runs or waits";
    }
    if (in.pendingDeliveries() > 0) {
      return controller + " has " + in.pendingDeliveries() + " kept webhook deliver"
          + (in.pendingDeliveries() == 1 ? "y" : "ies") + " to replay (status.hibernation.pendingDeliveries), so it"
          + " cannot hibernate now; fix: " + ASK_AGAIN + " once they are replayed";
    }
    return controller + " has a browser visit or webhook that woke it still waiting to be consumed, so it cannot"
        + " hibernate now; fix: " + ASK_AGAIN + " once it is Connected";
  }

  private static String builds(int count) {
    return count + (count == 1 ? " build" : " builds");
  }

  private static boolean newAnnotation(Input in) {
    return in.wakeAnnotation().filter(value -> !value.isEmpty())
        .filter(value -> in.previous() == null || !value.equals(in.previous().lastWakeRequest)).isPresent();
  }

  private static void recordAnnotation(HibernationStatus status, Input in) {
    in.wakeAnnotation().filter(value -> !value.isEmpty()).ifPresent(value -> status.lastWakeRequest = value);
  }

  private static void clearParking(HibernationStatus status) {
    status.since = null;
    status.reason = null;
    status.nextTimerWakeAt = null;
  }

  static Optional<Instant> nextTimerWake(HibernationStatus status) {
    return status == null ? Optional.empty() : parse(status.nextTimerWakeAt);
  }

  private static Integer count(int pending) {
    return pending == 0 ? null : pending;
  }

  private static boolean empty(HibernationStatus status) {
    return Stream.of(status.since, status.reason, status.lastActivityAt, status.nextTimerWakeAt, status.lastWakeSource,
        status.lastWakeAt, status.lastWakeRequest, status.lastHibernateRequest, status.lastHibernateOutcome,
        status.pendingDeliveries).allMatch(Objects::isNull);
  }

  private static Optional<Instant> latest(Stream<Optional<Instant>> instants) {
    return instants.flatMap(Optional::stream).max(Instant::compareTo);
  }

  /** Activity is kept to the minute, so a busy controller's status changes at most once a minute. */
  private static Instant minute(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MINUTES);
  }

  private static Optional<Instant> parse(String instant) {
    return instant == null ? Optional.empty() : Optional.of(Instant.parse(instant));
  }

  static HibernationStatus copy(HibernationStatus from) {
    HibernationStatus to = new HibernationStatus();
    if (from != null) {
      to.since = from.since;
      to.reason = from.reason;
      to.lastActivityAt = from.lastActivityAt;
      to.nextTimerWakeAt = from.nextTimerWakeAt;
      to.lastWakeSource = from.lastWakeSource;
      to.lastWakeAt = from.lastWakeAt;
      to.lastWakeRequest = from.lastWakeRequest;
      to.lastHibernateRequest = from.lastHibernateRequest;
      to.lastHibernateOutcome = from.lastHibernateOutcome;
      to.pendingDeliveries = from.pendingDeliveries;
    }
    return to;
  }
}

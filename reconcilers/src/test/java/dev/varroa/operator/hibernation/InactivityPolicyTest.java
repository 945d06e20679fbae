package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.HibernationStatus;
import dev.varroa.operator.hibernation.InactivityPolicy.Decision;
import dev.varroa.operator.hibernation.InactivityPolicy.Input;
import dev.varroa.operator.hibernation.InactivityPolicy.State;
import dev.varroa.operator.hibernation.InactivityPolicy.Timers;
import dev.varroa.operator.hibernation.InactivityPolicy.Use;
import dev.varroa.operator.hibernation.InactivityPolicy.WakeRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

class InactivityPolicyTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final Instant OPERATOR_START = NOW.minus(Duration.ofDays(1));

  private static Instant ago(int minutes) {
    return NOW.minus(Duration.ofMinutes(minutes));
  }

  /** Connected for two hours, nothing running, no UI use for an hour, 30 idle minutes allowed. */
  private static Input idle(UnaryOperator<Input> change) {
    return change.apply(new Input(Optional.of(30), 5, false, false, false, null, Optional.empty(),
        Optional.of(new Use(ago(120), 0, 0, Optional.of(ago(60)))), Optional.empty(), OPERATOR_START, List.of(), 0,
        NOW));
  }

  private static Input with(Input in, Optional<Use> use) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        in.previous(), in.wakeAnnotation(), use, in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now());
  }

  private static Input withPrevious(Input in, HibernationStatus previous) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        previous, in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now());
  }

  private static Input parked(UnaryOperator<Input> change) {
    HibernationStatus status = new HibernationStatus();
    status.since = ago(600).toString();
    status.reason = "idle";
    status.lastActivityAt = ago(640).toString();
    status.nextTimerWakeAt = NOW.plus(Duration.ofHours(3)).toString();
    status.lastWakeRequest = "monday";
    return change.apply(withPrevious(idle(in -> with(in, Optional.empty())), status));
  }

  private static Input annotated(Input in, String value) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        in.previous(), Optional.of(value), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now());
  }

  private static Input requests(Input in, List<WakeRequest> requests, int deliveries) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        in.previous(), in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), requests, deliveries,
        in.now());
  }

  private static Input flags(Input in, boolean stopped, boolean home, boolean backup) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), stopped, home, backup, in.previous(),
        in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now());
  }

  private static Input idleMinutes(Input in, Optional<Integer> minutes) {
    return new Input(minutes, in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        in.previous(), in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now());
  }

  private static Input at(Input in, Instant now, Instant watchingSince, Optional<Instant> lastSeenBusy) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        in.previous(), in.wakeAnnotation(), in.use(), lastSeenBusy, watchingSince, in.wakeRequests(),
        in.pendingDeliveries(), now);
  }

  @Test
  void parksAControllerIdleForIdleMinutesAndSaysWhy() {
    Input in = idle(i -> i);
    Decision ready = InactivityPolicy.decide(in);
    Decision parked = InactivityPolicy.park(in, ready, new Timers.Known(Optional.empty()));

    assertThat(ready.state()).isEqualTo(State.READY_TO_PARK);
    assertThat(parked.state()).isEqualTo(State.PARKED);
    assertThat(parked.status().since).isEqualTo(NOW.toString());
    assertThat(parked.status().reason).contains("no running or queued build and no UI or API use for 30 min")
        .contains("no timer-triggered job");
    assertThat(parked.status().lastActivityAt).isEqualTo(ago(60).toString());
    assertThat(parked.recheckAt()).isEmpty();
  }

  @Test
  void looksAgainWhenTheIdlePeriodEnds() {
    Decision decision = InactivityPolicy.decide(idle(in -> with(in, Optional.of(new Use(ago(120), 0, 0,
        Optional.of(ago(10)))))));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.recheckAt()).contains(ago(10).plus(Duration.ofMinutes(30)));
    assertThat(decision.status().lastActivityAt).isEqualTo(ago(10).toString());
  }

  @Test
  void doesNotParkAControllerConnectedForLessThanIdleMinutes() {
    Decision decision = InactivityPolicy.decide(idle(in -> with(in, Optional.of(new Use(ago(5), 0, 0,
        Optional.empty())))));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.recheckAt()).contains(ago(5).plus(Duration.ofMinutes(30)));
  }

  @Test
  void doesNotParkWhileABuildRunsOrWaitsAndCountsThatAsActivity() {
    Decision running = InactivityPolicy.decide(idle(in -> with(in, Optional.of(new Use(ago(120), 1, 0,
        Optional.of(ago(60)))))));
    Decision queued = InactivityPolicy.decide(idle(in -> with(in, Optional.of(new Use(ago(120), 0, 3,
        Optional.of(ago(60)))))));

    assertThat(running.state()).isEqualTo(State.AWAKE);
    assertThat(running.status().lastActivityAt).isEqualTo(NOW.toString());
    assertThat(queued.state()).isEqualTo(State.AWAKE);
    assertThat(queued.recheckAt()).as("the build's end changes the route: no timer needed").isEmpty();
  }

  @Test
  void countsTheIdlePeriodFromTheLastBuildThisOperatorSaw() {
    Decision decision = InactivityPolicy.decide(idle(in -> at(in, NOW, OPERATOR_START, Optional.of(ago(2)))));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.recheckAt()).contains(ago(2).plus(Duration.ofMinutes(30)));
  }

  @Test
  void countsTheIdlePeriodAgainAfterTheOperatorRestarts() {
    Decision decision = InactivityPolicy.decide(idle(in -> at(in, NOW, ago(1), Optional.empty())));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.recheckAt()).contains(ago(1).plus(Duration.ofMinutes(30)));
  }

  @Test
  void neverParksDuringARestoreAMoveABackupOrWhenStopped() {
    assertThat(InactivityPolicy.decide(idle(in -> flags(in, true, false, false))).state()).isEqualTo(State.AWAKE);
    assertThat(InactivityPolicy.decide(idle(in -> flags(in, false, true, false))).state()).isEqualTo(State.AWAKE);
    assertThat(InactivityPolicy.decide(idle(in -> flags(in, false, false, true))).state()).isEqualTo(State.AWAKE);
  }

  @Test
  void neverParksWithoutALiveStreamOrWhileKeptDeliveriesWait() {
    assertThat(InactivityPolicy.decide(idle(in -> with(in, Optional.empty()))).state()).isEqualTo(State.AWAKE);
    Decision waiting = InactivityPolicy.decide(idle(in -> requests(in,
        List.of(new WakeRequest(InactivityPolicy.SOURCE_WEBHOOK, ago(90))), 1)));

    assertThat(waiting.state()).isEqualTo(State.AWAKE);
    assertThat(waiting.status().pendingDeliveries).isEqualTo(1);
  }

  @Test
  void countsAVisitDuringTheWakeAsUse() {
    Decision decision = InactivityPolicy.decide(idle(in -> requests(in,
        List.of(new WakeRequest(InactivityPolicy.SOURCE_BROWSER, ago(3))), 0)));

    assertThat(decision.status().lastActivityAt).isEqualTo(ago(3).toString());
  }

  @Test
  void saysNothingOfAControllerWithoutAPolicy() {
    Decision decision = InactivityPolicy.decide(idle(in -> idleMinutes(with(in, Optional.of(new Use(ago(120), 0, 0,
        Optional.empty()))), Optional.empty())));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status()).isNull();
    assertThat(decision.recheckAt()).isEmpty();
  }

  @Test
  void staysUpForATimerJobDueWithinWakeAheadAndLooksAgainAfterIt() {
    Input in = idle(i -> i);
    Instant fire = NOW.plus(Duration.ofMinutes(4));

    Decision decision = InactivityPolicy.park(in, InactivityPolicy.decide(in), new Timers.Known(Optional.of(fire)));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.recheckAt()).contains(fire.plus(Duration.ofMinutes(1)));
  }

  @Test
  void parksWithAWakeAheadOfTheNextTimerJob() {
    Input in = idle(i -> i);
    Instant fire = NOW.plus(Duration.ofHours(2));

    Decision decision = InactivityPolicy.park(in, InactivityPolicy.decide(in), new Timers.Known(Optional.of(fire)));

    assertThat(decision.state()).isEqualTo(State.PARKED);
    assertThat(decision.status().nextTimerWakeAt).isEqualTo(fire.minus(Duration.ofMinutes(5)).toString());
    assertThat(decision.recheckAt()).contains(fire.minus(Duration.ofMinutes(5)));
    assertThat(decision.status().reason).contains("wakes 5 min before its next timer-triggered job at " + fire);
  }

  @Test
  void parksWhenTheTimersCannotBeKnownAndSaysSo() {
    Input in = idle(i -> i);

    Decision decision = InactivityPolicy.park(in, InactivityPolicy.decide(in),
        new Timers.Unknown("no recorder answered"));
    HibernationStatus learned = InactivityPolicy.timersLearned(decision.status(), 30, 5,
        new Timers.Known(Optional.of(NOW.plus(Duration.ofHours(1)))));

    assertThat(decision.state()).isEqualTo(State.PARKED);
    assertThat(decision.status().nextTimerWakeAt).isNull();
    assertThat(decision.status().reason).contains("unknown: no recorder answered");
    assertThat(learned.nextTimerWakeAt).isEqualTo(NOW.plus(Duration.ofMinutes(55)).toString());
    assertThat(learned.reason).doesNotContain("unknown");
  }

  @Test
  void refusesToParkAControllerThatIsNotReady() {
    Input in = idle(i -> with(i, Optional.empty()));

    assertThatThrownBy(() -> InactivityPolicy.park(in, InactivityPolicy.decide(in), new Timers.Unknown("x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void staysParkedUntilItsTimerWakeAndLooksAgainThen() {
    Decision decision = InactivityPolicy.decide(parked(in -> in));

    assertThat(decision.state()).isEqualTo(State.PARKED);
    assertThat(decision.recheckAt()).contains(NOW.plus(Duration.ofHours(3)));
    assertThat(decision.status().since).isEqualTo(ago(600).toString());
  }

  @Test
  void wakesOnANewWakeAnnotationValueOnly() {
    Decision same = InactivityPolicy.decide(parked(in -> annotated(in, "monday")));
    Decision fresh = InactivityPolicy.decide(parked(in -> annotated(in, "tuesday")));

    assertThat(same.state()).isEqualTo(State.PARKED);
    assertThat(fresh.state()).isEqualTo(State.AWAKE);
    assertThat(fresh.wokeBy()).contains(InactivityPolicy.SOURCE_ANNOTATION);
    assertThat(fresh.status().lastWakeRequest).isEqualTo("tuesday");
    assertThat(fresh.status().lastWakeSource).isEqualTo("annotation");
    assertThat(fresh.status().lastWakeAt).isEqualTo(NOW.toString());
    assertThat(fresh.status().since).isNull();
    assertThat(fresh.status().reason).isNull();
    assertThat(fresh.status().nextTimerWakeAt).isNull();
    assertThat(fresh.status().lastActivityAt).as("a wake is use: a whole idle period follows").isEqualTo(NOW.toString());
  }

  @Test
  void recordsTheAnnotationWhileAwakeSoItDoesNotWakeTheControllerLater() {
    Decision awake = InactivityPolicy.decide(idle(in -> annotated(with(in, Optional.of(new Use(ago(120), 1, 0,
        Optional.empty()))), "friday")));

    assertThat(awake.status().lastWakeRequest).isEqualTo("friday");
  }

  @Test
  void wakesOnTheOldestRequestTheWakerKept() {
    Decision decision = InactivityPolicy.decide(parked(in -> requests(in, List.of(
        new WakeRequest(InactivityPolicy.SOURCE_BROWSER, ago(1)),
        new WakeRequest(InactivityPolicy.SOURCE_WEBHOOK, ago(2))), 1)));

    assertThat(decision.wokeBy()).contains(InactivityPolicy.SOURCE_WEBHOOK);
    assertThat(decision.status().pendingDeliveries).isEqualTo(1);
  }

  @Test
  void wakesAtItsTimerWake() {
    Decision decision = InactivityPolicy.decide(parked(in -> at(in, NOW.plus(Duration.ofHours(3)), OPERATOR_START,
        Optional.empty())));

    assertThat(decision.wokeBy()).contains(InactivityPolicy.SOURCE_TIMER);
  }

  @Test
  void wakesWhenThePolicyIsRemoved() {
    assertThat(InactivityPolicy.decide(parked(in -> idleMinutes(in, Optional.empty()))).wokeBy())
        .contains(InactivityPolicy.SOURCE_POLICY);
  }

  @Test
  void aStoppedControllerIsNoLongerParkedButNotWokenEither() {
    Decision decision = InactivityPolicy.decide(parked(in -> annotated(flags(in, true, false, false), "tuesday")));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status().since).isNull();
    assertThat(decision.status().lastWakeSource).isNull();
    assertThat(decision.wokeBy()).isEmpty();
  }

  @Test
  void holdsAWakeWhileItsHomeIsRestoredOrMoved() {
    Decision decision = InactivityPolicy.decide(parked(in -> annotated(flags(in, false, true, false), "tuesday")));

    assertThat(decision.state()).isEqualTo(State.PARKED);
    assertThat(decision.status().lastWakeRequest).as("acted on once the home is back").isEqualTo("monday");
  }
}

package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.junit.jupiter.api.Test;

/** The varroa.dev/hibernate-now part of the inactivity policy: park now when nothing blocks, answer once either way. */
class HibernateNowPolicyTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final String CONTROLLER = "ci/a";

  private static Instant ago(int minutes) {
    return NOW.minus(Duration.ofMinutes(minutes));
  }

  /** Connected for two hours, used five minutes ago (far from idle), 30 idle minutes allowed. */
  private static Input busyWith(int running, int queued) {
    return new Input(Optional.of(30), 5, false, false, false, null, Optional.empty(),
        Optional.of(new Use(ago(120), running, queued, Optional.of(ago(5)))), Optional.empty(), ago(600), List.of(), 0,
        NOW);
  }

  private static Input recentlyUsed() {
    return busyWith(0, 0);
  }

  private static Input withPrevious(Input in, HibernationStatus previous) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), in.stopped(), in.homeOperation(), in.backupInProgress(),
        previous, in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now(), in.hibernateNow());
  }

  private static Input flags(Input in, boolean stopped, boolean home, boolean backup) {
    return new Input(in.idleMinutes(), in.wakeAheadMinutes(), stopped, home, backup, in.previous(),
        in.wakeAnnotation(), in.use(), in.lastSeenBusy(), in.watchingSince(), in.wakeRequests(),
        in.pendingDeliveries(), in.now(), in.hibernateNow());
  }

  private static Decision decideAndPark(Input in, Timers timers) {
    Decision decision = InactivityPolicy.decide(in);
    return decision.state() == State.READY_TO_PARK ? InactivityPolicy.park(in, decision, timers) : decision;
  }

  @Test
  void parksARecentlyUsedControllerAtOnceAndSaysItWasAsked() {
    Input in = recentlyUsed().withHibernateNow(CONTROLLER, "wave-7");

    Decision ready = InactivityPolicy.decide(in);
    Decision parked = InactivityPolicy.park(in, ready, new Timers.Known(Optional.empty()));

    assertThat(ready.state()).as("the idle period is not waited for").isEqualTo(State.READY_TO_PARK);
    assertThat(parked.state()).isEqualTo(State.PARKED);
    assertThat(parked.status().since).isEqualTo(NOW.toString());
    assertThat(parked.status().reason).startsWith("parked on request (varroa.dev/hibernate-now wave-7)")
        .contains("no timer-triggered job");
    assertThat(parked.status().lastHibernateRequest).isEqualTo("wave-7");
    assertThat(parked.status().lastHibernateOutcome).isEqualTo(InactivityPolicy.OUTCOME_PARKED);
  }

  @Test
  void withoutARequestARecentlyUsedControllerStaysUp() {
    Decision decision = InactivityPolicy.decide(recentlyUsed());

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status().lastHibernateRequest).isNull();
    assertThat(decision.status().lastHibernateOutcome).isNull();
  }

  @Test
  void answersOnceWithTheBuildsThatRunOrWait() {
    Decision running = InactivityPolicy.decide(busyWith(2, 0).withHibernateNow(CONTROLLER, "r1"));
    Decision both = InactivityPolicy.decide(busyWith(1, 1).withHibernateNow(CONTROLLER, "r1"));

    assertThat(running.state()).isEqualTo(State.AWAKE);
    assertThat(running.status().lastHibernateRequest).isEqualTo("r1");
    assertThat(running.status().lastHibernateOutcome).startsWith("2 builds running on Controller ci/a")
        .contains("fix: ask again with a new varroa.dev/hibernate-now value");
    assertThat(both.status().lastHibernateOutcome).startsWith("1 build running and 1 build queued on Controller ci/a");

    // the builds end: the same value is not acted on again, so the controller stays up
    Input later = withPrevious(recentlyUsed(), running.status()).withHibernateNow(CONTROLLER, "r1");
    Decision again = InactivityPolicy.decide(later);
    assertThat(again.state()).isEqualTo(State.AWAKE);
    assertThat(again.status().lastHibernateOutcome).isEqualTo(running.status().lastHibernateOutcome);

    // a new value parks it
    Input asked = withPrevious(recentlyUsed(), running.status()).withHibernateNow(CONTROLLER, "r2");
    Decision parked = decideAndPark(asked, new Timers.Known(Optional.empty()));
    assertThat(parked.state()).isEqualTo(State.PARKED);
    assertThat(parked.status().lastHibernateRequest).isEqualTo("r2");
    assertThat(parked.status().lastHibernateOutcome).isEqualTo("Parked");
  }

  @Test
  void refusesAControllerWithoutIdleMinutesNamingItTheFieldAndTheFix() {
    Input in = new Input(Optional.empty(), 5, false, false, false, null, Optional.empty(),
        Optional.of(new Use(ago(120), 0, 0, Optional.empty())), Optional.empty(), ago(600), List.of(), 0, NOW)
        .withHibernateNow(CONTROLLER, "now");

    Decision decision = InactivityPolicy.decide(in);

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status()).as("the answer is status to write").isNotNull();
    assertThat(decision.status().lastHibernateRequest).isEqualTo("now");
    assertThat(decision.status().lastHibernateOutcome).isEqualTo("Controller ci/a has no spec.hibernation.idleMinutes,"
        + " so it cannot hibernate; fix: set spec.hibernation.idleMinutes");
  }

  @Test
  void namesWhatBlocksAndItsFix() {
    assertThat(outcome(flags(recentlyUsed(), true, false, false))).contains("Controller ci/a is stopped")
        .contains("spec.powerState").contains("fix:");
    assertThat(outcome(flags(recentlyUsed(), false, true, false))).contains("Controller ci/a")
        .contains("JENKINS_HOME").contains("status.home").contains("fix:");
    assertThat(outcome(flags(recentlyUsed(), false, false, true))).contains("Controller ci/a")
        .contains("status.backup.inProgress").contains("fix:");
    Input disconnected = new Input(Optional.of(30), 5, false, false, false, null, Optional.empty(), Optional.empty(),
        Optional.empty(), ago(600), List.of(), 0, NOW);
    assertThat(outcome(disconnected)).contains("Controller ci/a is not Connected").contains("fix:");
    Input deliveries = new Input(Optional.of(30), 5, false, false, false, null, Optional.empty(),
        Optional.of(new Use(ago(120), 0, 0, Optional.empty())), Optional.empty(), ago(600),
        List.of(new WakeRequest(InactivityPolicy.SOURCE_WEBHOOK, ago(3))), 2, NOW);
    assertThat(outcome(deliveries)).contains("Controller ci/a has 2 kept webhook deliveries")
        .contains("status.hibernation.pendingDeliveries");
  }

  private static String outcome(Input in) {
    Decision decision = InactivityPolicy.decide(in.withHibernateNow(CONTROLLER, "x"));
    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status().lastHibernateRequest).isEqualTo("x");
    return decision.status().lastHibernateOutcome;
  }

  @Test
  void staysUpForATimerJobDueWithinWakeAheadAndSaysSo() {
    Instant fire = NOW.plus(Duration.ofMinutes(3));

    Decision decision = decideAndPark(recentlyUsed().withHibernateNow(CONTROLLER, "t"),
        new Timers.Known(Optional.of(fire)));

    assertThat(decision.state()).isEqualTo(State.AWAKE);
    assertThat(decision.status().lastHibernateOutcome).contains("Controller ci/a has a timer-triggered job due at "
        + fire).contains("spec.hibernation.wakeAheadMinutes (5 min)");
  }

  @Test
  void answersParkedForAControllerAlreadyParkedAndKeepsItParked() {
    HibernationStatus parked = new HibernationStatus();
    parked.since = ago(60).toString();
    parked.reason = "no running or queued build and no UI or API use for 30 min; no timer-triggered job";
    Input in = withPrevious(new Input(Optional.of(30), 5, false, false, false, null, Optional.empty(),
        Optional.empty(), Optional.empty(), ago(600), List.of(), 0, NOW), parked).withHibernateNow(CONTROLLER, "p");

    Decision decision = InactivityPolicy.decide(in);

    assertThat(decision.state()).isEqualTo(State.PARKED);
    assertThat(decision.status().since).isEqualTo(parked.since);
    assertThat(decision.status().lastHibernateRequest).isEqualTo("p");
    assertThat(decision.status().lastHibernateOutcome).isEqualTo("Parked");
  }

  @Test
  void aParkOnRequestKeepsItsReasonWhenItsTimersAreLearnedLater() {
    Input in = recentlyUsed().withHibernateNow(CONTROLLER, "w");
    Decision parked = InactivityPolicy.park(in, InactivityPolicy.decide(in), new Timers.Unknown("recorder away"));
    assertThat(InactivityPolicy.timersUnknown(parked.status())).isTrue();

    HibernationStatus learned = InactivityPolicy.timersLearned(parked.status(), 30, 5,
        new Timers.Known(Optional.empty()));

    assertThat(learned.reason).isEqualTo("parked on request (varroa.dev/hibernate-now w) with no running or queued"
        + " build; no timer-triggered job");
    assertThat(learned.lastHibernateOutcome).isEqualTo("Parked");
  }
}

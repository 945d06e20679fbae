package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HibernationStatus;
import dev.varroa.operator.render.Parking;
import dev.varroa.operator.render.RenderFixtures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The hibernation steps of a Controller pass without a control channel or informers (docs/controllers.md, "Status:
 * who writes what": hibernation-plan → Hibernated phase and what the render parks; hibernation → status.hibernation and
 * a recheck): {@link Hibernator#plan} is pure then, and so is {@link Hibernator#complete} for a Controller that is
 * neither parked nor woken. HibernationIT parks and wakes through the operator with a played gateway.
 */
class HibernatorTest {
  private static final Instant NOW = Instant.parse("2026-12-04T12:00:00Z");
  private final Hibernator hibernator = new Hibernator(Clock.fixed(NOW, ZoneOffset.UTC), null, JobSchedules.NONE,
      HibernationSettings.withoutWakerService(), (c, reason) -> { }, (c, source) -> { }, id -> { });

  @Test
  void aControllerWithoutAnInactivityPolicyIsNotHibernatedReportsNothingAndAsksForNoRecheck() {
    Controller controller = RenderFixtures.controller("{}");

    Hibernator.Plan plan = hibernator.plan(controller, RenderFixtures.resolved(controller), new ControllerStatus(), null);

    assertThat(plan.hibernated()).isFalse();
    assertThat(plan.parking()).isEqualTo(new Parking(false, false));
    assertThat(plan.decision().state()).isEqualTo(InactivityPolicy.State.AWAKE);
    // neither parked, routed nor woken: completing it sends no request, so it needs no client
    Hibernator.Outcome outcome = hibernator.complete(null, controller, plan);
    assertThat(outcome.status()).isNull();
    assertThat(outcome.recheck()).isEmpty();
  }

  @Test
  void anIdlePolicyWithoutAMiteToReportUseNeverParks() {
    Controller controller = RenderFixtures.controller("hibernation: {idleMinutes: 30}");

    Hibernator.Plan plan = hibernator.plan(controller, RenderFixtures.resolved(controller), new ControllerStatus(), null);

    assertThat(plan.hibernated()).isFalse();
    assertThat(plan.parking().serviceToWaker()).isFalse();
    Hibernator.Outcome outcome = hibernator.complete(null, controller, plan);
    assertThat(outcome.recheck()).as("the mite's connection is an event: no timer").isEmpty();
  }

  @Test
  void aParkedControllerStaysHibernatedWithItsServiceOnTheWakerUntilItsNextTimerJob() {
    Controller controller = RenderFixtures.controller("hibernation: {idleMinutes: 30}");
    Instant nextTimer = NOW.plus(Duration.ofHours(2));

    Hibernator.Plan plan = hibernator.plan(controller, RenderFixtures.resolved(controller),
        parked(nextTimer, null), null);

    assertThat(plan.hibernated()).isTrue();
    assertThat(plan.wasParked()).isTrue();
    assertThat(plan.parking()).isEqualTo(new Parking(true, true));
    assertThat(plan.decision().state()).isEqualTo(InactivityPolicy.State.PARKED);
    assertThat(plan.decision().status().since).isEqualTo(NOW.minus(Duration.ofHours(1)).toString());
    assertThat(plan.decision().recheckAt()).as("woken ahead of its next timer-triggered job").contains(nextTimer);
    assertThat(plan.decision().wokeBy()).isEmpty();
  }

  @Test
  void aParkedControllerWithANewWakeAnnotationWakesAndLeavesTheWaker() {
    Controller controller = RenderFixtures.controller("hibernation: {idleMinutes: 30}");
    controller.getMetadata().setAnnotations(Map.of(ControllerAnnotations.WAKE, "second"));

    Hibernator.Plan plan = hibernator.plan(controller, RenderFixtures.resolved(controller), parked(null, "first"),
        null);

    assertThat(plan.hibernated()).isFalse();
    assertThat(plan.parking()).isEqualTo(new Parking(false, false));
    assertThat(plan.decision().wokeBy()).contains(InactivityPolicy.SOURCE_ANNOTATION);
    assertThat(plan.decision().status().since).isNull();
    assertThat(plan.decision().status().lastWakeRequest).isEqualTo("second");
  }

  @Test
  void aParkedControllerSetToStoppedIsStoppedNotHibernated() {
    Controller controller = RenderFixtures.controller("powerState: Stopped\nhibernation: {idleMinutes: 30}");

    Hibernator.Plan plan = hibernator.plan(controller, RenderFixtures.resolved(controller), parked(null, null), null);

    assertThat(plan.hibernated()).isFalse();
    assertThat(plan.parking().serviceToWaker()).isFalse();
    assertThat(plan.decision().wokeBy()).as("a stop is no wake").isEmpty();
  }

  /** Status of a Controller parked an hour ago. */
  private static ControllerStatus parked(Instant nextTimerWake, String lastWakeRequest) {
    ControllerStatus status = new ControllerStatus();
    status.hibernation = new HibernationStatus();
    status.hibernation.since = NOW.minus(Duration.ofHours(1)).toString();
    status.hibernation.reason = "idle for 30 minutes";
    status.hibernation.nextTimerWakeAt = nextTimerWake == null ? null : nextTimerWake.toString();
    status.hibernation.lastWakeRequest = lastWakeRequest;
    return status;
  }
}

package dev.varroa.plugin.claims;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ClaimGateTest {

  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<ClaimRequest> asked = new ArrayList<>();
  private final Deque<ClaimDecision> answers = new ArrayDeque<>();
  private final Function<ClaimRequest, ClaimDecision> ledger = request -> {
    asked.add(request);
    return answers.isEmpty() ? ClaimDecisions.unavailable("the mite is not connected") : answers.removeFirst();
  };
  private final ClaimGate gate = new ClaimGate(true, ledger, scheduler);

  @Test
  void answersAtOnceFromTheCacheAndAsksOnlyOnceInTheBackground() {
    answers.add(granted(31));

    GateAnswer first = gate.canRun(5, "run-5", "team/app", 1);
    GateAnswer second = gate.canRun(5, "run-5", "team/app", 1);

    assertThat(first).isEqualTo(new GateAnswer.Held("waiting for the build ledger's decision"));
    assertThat(second).isEqualTo(first);
    assertThat(asked).isEmpty();
    assertThat(scheduler.waiting()).isEqualTo(1);

    scheduler.runNext();

    assertThat(asked).containsExactly(ClaimRequest.newBuilder().setQueueId(5).setRunId("run-5").setJob("team/app").build());
    assertThat(gate.canRun(5, "run-5", "team/app", 1)).isEqualTo(new GateAnswer.Granted(31));
    assertThat(gate.canRun(5, "run-5", "team/app", 1).mayRun()).isTrue();
    assertThat(scheduler.waiting()).isZero();
  }

  @Test
  void asksAgainAfterOneTwoFiveTenThenEveryThirtySecondsWhileUnavailable() {
    gate.canRun(8, "run-8", "team/app", 1);
    for (int i = 0; i < 7; i++) {
      scheduler.runNext();
    }

    assertThat(scheduler.delays()).containsExactly(seconds(1), seconds(2), seconds(5), seconds(10), seconds(30),
        seconds(30), seconds(30));
    assertThat(asked).hasSize(7);
    GateAnswer held = gate.canRun(8, "run-8", "team/app", 1);
    assertThat(held.mayRun()).isFalse();
    assertThat(((GateAnswer.Held) held).reason())
        .isEqualTo("no claim decision (UNAVAILABLE: the mite is not connected); asking again in 30 s");
  }

  @Test
  void aLongerRetryAfterWinsAndAShorterOneKeepsTheSchedule() {
    answers.add(retry(7000));
    answers.add(retry(500));
    gate.canRun(9, "run-9", "team/app", 1);
    scheduler.runNext();
    scheduler.runNext();

    assertThat(scheduler.delays()).containsExactly(seconds(7), seconds(2));
    assertThat(((GateAnswer.Held) gate.canRun(9, "run-9", "team/app", 1)).reason())
        .isEqualTo("the build ledger asks to retry (database busy); asking again in 2 s");

    answers.add(granted(4));
    scheduler.runNext();
    assertThat(gate.canRun(9, "run-9", "team/app", 1)).isEqualTo(new GateAnswer.Granted(4));
  }

  @Test
  void aRefusalHoldsTheItemWithTheLedgersReasonAndIsAskedAgainLater() {
    answers.add(ClaimDecision.newBuilder().setDecision("refused").setCode("OK").setReason("job held: release freeze").build());
    gate.canRun(3, "run-3", "team/app", 1);
    scheduler.runNext();

    assertThat(gate.canRun(3, "run-3", "team/app", 1))
        .isEqualTo(new GateAnswer.Held("the build ledger refused this build: job held: release freeze"));
    assertThat(scheduler.delays()).containsExactly(seconds(30));
  }

  @Test
  void anItemThatLeftTheQueueIsForgottenAndNotAskedAgain() {
    gate.canRun(11, "run-11", "team/app", 1);
    scheduler.runNext();
    assertThat(scheduler.waiting()).isEqualTo(1);

    gate.forget(11, true);
    scheduler.runNext();

    assertThat(asked).hasSize(1);
    assertThat(gate.tracked()).isZero();
    assertThat(scheduler.waiting()).isZero();
  }

  @Test
  void aLedgerThatThrowsIsNoDecisionNotAnExceptionForJenkins() {
    ClaimGate throwing = new ClaimGate(true, request -> {
      throw new IllegalStateException("boom");
    }, scheduler);
    throwing.canRun(1, "run-1", "team/app", 1);
    scheduler.runNext();

    assertThat(((GateAnswer.Held) throwing.canRun(1, "run-1", "team/app", 1)).reason()).contains("UNAVAILABLE", "boom");
  }

  @Test
  void anOffGateLetsEverythingRunWithoutAsking() {
    ClaimGate off = new ClaimGate(false, ledger, scheduler);

    assertThat(off.canRun(1, "run-1", "team/app", 1)).isEqualTo(new GateAnswer.Open());
    assertThat(scheduler.waiting()).isZero();
    assertThat(asked).isEmpty();
  }

  @Test
  void letsOneGrantedItemOfAJobGoAtATimeUntilItsNumberIsTaken() {
    answers.add(granted(40));
    answers.add(granted(41));
    gate.canRun(1, "run-1", "team/app", 39);
    gate.canRun(2, "run-2", "team/app", 39);
    scheduler.runNext();
    scheduler.runNext();

    assertThat(gate.canRun(1, "run-1", "team/app", 39)).isEqualTo(new GateAnswer.Granted(40));
    // The glue made 40 the next number; item 2 must wait until a run has taken it.
    assertThat(gate.canRun(2, "run-2", "team/app", 40)).isEqualTo(
        new GateAnswer.Held("granted build number 41; waiting for build 40 of this job to start first"));
    assertThat(gate.canRun(7, "run-7", "team/lib", 1).mayRun()).isFalse();
    gate.forget(1, false);
    assertThat(gate.canRun(2, "run-2", "team/app", 40).mayRun()).isFalse();

    assertThat(gate.canRun(2, "run-2", "team/app", 41)).isEqualTo(new GateAnswer.Granted(41));
  }

  @Test
  void theLowerGrantedNumberGoesFirst() {
    answers.add(granted(41));
    answers.add(granted(40));
    gate.canRun(2, "run-2", "team/app", 39);
    gate.canRun(1, "run-1", "team/app", 39);
    scheduler.runNext();
    scheduler.runNext();

    assertThat(gate.canRun(2, "run-2", "team/app", 39)).isEqualTo(
        new GateAnswer.Held("granted build number 41; waiting for build 40 of this job to start first"));
    assertThat(gate.canRun(1, "run-1", "team/app", 39)).isEqualTo(new GateAnswer.Granted(40));
    gate.forget(1, false);
    assertThat(gate.canRun(2, "run-2", "team/app", 41)).isEqualTo(new GateAnswer.Granted(41));
  }

  @Test
  void aCancelledGrantedItemLetsTheNextOneGo() {
    answers.add(granted(40));
    answers.add(granted(41));
    gate.canRun(1, "run-1", "team/app", 39);
    gate.canRun(2, "run-2", "team/app", 39);
    scheduler.runNext();
    scheduler.runNext();
    assertThat(gate.canRun(1, "run-1", "team/app", 39).mayRun()).isTrue();
    assertThat(gate.canRun(2, "run-2", "team/app", 40).mayRun()).isFalse();

    gate.forget(1, true);

    assertThat(gate.canRun(2, "run-2", "team/app", 40)).isEqualTo(new GateAnswer.Granted(41));
  }

  private static ClaimDecision granted(long number) {
    return ClaimDecision.newBuilder().setDecision("granted").setCode("OK").setBuildNumber(number).build();
  }

  private static ClaimDecision retry(long afterMillis) {
    return ClaimDecision.newBuilder().setDecision("retry").setCode("OK").setReason("database busy")
        .setRetryAfterMillis(afterMillis).build();
  }

  private static Duration seconds(long seconds) {
    return Duration.ofSeconds(seconds);
  }
}

package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.ControllerStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What decides whether a pass patches status: what a reader sees, nothing else. */
class StatusComparisonTest {
  private static ControllerStatus status(String reason) {
    ControllerStatus status = new ControllerStatus();
    status.phase = ControllerStatus.Phase.Running;
    status.conditions = List.of(new Condition(Condition.READY, Condition.Status.True, reason, "phase Running"));
    return status;
  }

  @Test
  void equalContentIsTheSameStatusThoughTheObjectsDiffer() {
    assertThat(StatusComparison.same(status("Running"), status("Running"))).isTrue();
  }

  @Test
  void aChangedConditionReasonIsAChange() {
    assertThat(StatusComparison.same(status("Running"), status("Connected"))).isFalse();
  }

  @Test
  void anEmptyStatusDiffersFromOneWithAPhase() {
    assertThat(StatusComparison.same(new ControllerStatus(), status("Running"))).isFalse();
  }

  @Test
  void aCopyIsDeepSoAPassNeverEditsTheCachedStatus() {
    ControllerStatus cached = status("Running");
    ControllerStatus copy = StatusComparison.copy(cached);
    copy.conditions.get(0).reason = "Edited";
    copy.phase = ControllerStatus.Phase.Failed;
    assertThat(cached.conditions.get(0).reason).isEqualTo("Running");
    assertThat(cached.phase).isEqualTo(ControllerStatus.Phase.Running);
    assertThat(StatusComparison.same(StatusComparison.copy(cached), cached)).isTrue();
  }
}

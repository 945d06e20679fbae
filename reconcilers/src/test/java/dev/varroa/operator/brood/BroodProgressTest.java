package dev.varroa.operator.brood;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import dev.varroa.api.v1alpha1.BroodOperationStatus.Target;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import io.fabric8.kubernetes.api.model.IntOrString;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BroodProgressTest {
  @Test
  void maxConcurrentIsACountOrAPercentageRoundedDownButAtLeastOne() {
    BroodOperationSpec.Strategy strategy = new BroodOperationSpec.Strategy();
    assertThat(BroodProgress.concurrency(null, 10)).isEqualTo(1);
    strategy.maxConcurrent = new IntOrString(50);
    assertThat(BroodProgress.concurrency(strategy, 10)).isEqualTo(50);
    strategy.maxConcurrent = new IntOrString("25%");
    assertThat(BroodProgress.concurrency(strategy, 10)).isEqualTo(2);
    assertThat(BroodProgress.concurrency(strategy, 3)).isEqualTo(1);
  }

  @Test
  void startsPendingTargetsInOrderIntoTheFreeSlotsOnly() {
    BroodOperationSpec spec = spec(2, null, null);
    List<Target> targets = targets(TargetPhase.Succeeded, TargetPhase.Running, TargetPhase.Pending, TargetPhase.Pending);
    assertThat(BroodProgress.toStart(spec, targets)).containsExactly(2);
    targets.get(1).phase = TargetPhase.Unknown;
    assertThat(BroodProgress.toStart(spec, targets)).as("a silent cluster's target keeps its slot").containsExactly(2);
    spec.suspend = true;
    assertThat(BroodProgress.toStart(spec, targets)).isEmpty();
  }

  @Test
  void eachFailurePolicyStopsWhereItSays() {
    List<Target> targets = targets(TargetPhase.Failed, TargetPhase.Pending, TargetPhase.Pending);
    assertThat(BroodProgress.toStart(spec(3, null, null), targets)).isEmpty();
    assertThat(BroodProgress.over(spec(3, null, null), targets)).isTrue();
    assertThat(BroodProgress.toStart(spec(3, "Continue", null), targets)).containsExactly(1, 2);
    assertThat(BroodProgress.toStart(spec(3, "StopAfterFailures", 2), targets)).containsExactly(1, 2);
    targets.get(1).phase = TargetPhase.Failed;
    assertThat(BroodProgress.toStart(spec(3, "StopAfterFailures", 2), targets)).isEmpty();
  }

  private static BroodOperationSpec spec(int max, String policy, Integer maxFailures) {
    BroodOperationSpec spec = new BroodOperationSpec();
    spec.strategy = new BroodOperationSpec.Strategy();
    spec.strategy.maxConcurrent = new IntOrString(max);
    spec.strategy.failurePolicy = policy;
    spec.strategy.maxFailures = maxFailures;
    return spec;
  }

  private static List<Target> targets(TargetPhase... phases) {
    List<Target> targets = new ArrayList<>();
    for (TargetPhase phase : phases) {
      Target target = new Target();
      target.phase = phase;
      targets.add(target);
    }
    return targets;
  }
}

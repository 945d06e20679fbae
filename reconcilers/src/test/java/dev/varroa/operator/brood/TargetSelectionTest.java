package dev.varroa.operator.brood;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.api.v1alpha1.BroodOperationSpec;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TargetSelectionTest {
  private static final Map<String, TargetSelection.ClusterList> LISTS = Map.of(
      "core", new TargetSelection.ClusterList.Arrived(List.of(
          new ControllerFacts("ci", "b", "Connected", Map.of("tier", "prod")),
          new ControllerFacts("ci", "a", "Connected", Map.of("tier", "dev")),
          new ControllerFacts("qa", "c", "Hibernated", Map.of("tier", "prod")))),
      "member-1", new TargetSelection.ClusterList.Arrived(List.of(
          new ControllerFacts("ci", "d", "Connected", Map.of("tier", "prod")),
          new ControllerFacts("ci", "e", "Failed", Map.of()))),
      "member-2", new TargetSelection.ClusterList.Missing("list unavailable: no answer within 2000 ms"));

  @Test
  void everyFieldNarrowsAndTheOrderIsClusterNamespaceName() {
    BroodOperationSpec.Targets targets = new BroodOperationSpec.Targets();
    targets.clusters = List.of("*");
    targets.phases = List.of("Connected");
    targets.selector = new LabelSelectorBuilder().withMatchLabels(Map.of("tier", "prod")).build();

    TargetSelection.Selected selected = TargetSelection.select(targets, LISTS);

    assertThat(selected.targets()).containsExactly(new TargetRef("core", "ci", "b"), new TargetRef("member-1", "ci", "d"));
    assertThat(selected.unresolved()).containsOnlyKeys("member-2");
  }

  @Test
  void matchExpressionsAreReadAsTheApiServerReadsThem() {
    BroodOperationSpec.Targets targets = new BroodOperationSpec.Targets();
    targets.selector = new LabelSelectorBuilder().addNewMatchExpression().withKey("tier").withOperator("NotIn")
        .withValues("dev").endMatchExpression().build();
    assertThat(TargetSelection.select(targets, Map.of("core", LISTS.get("core"))).targets())
        .extracting(TargetRef::name).containsExactly("b", "c");

    targets.selector = new LabelSelectorBuilder().addNewMatchExpression().withKey("tier").withOperator("Like")
        .endMatchExpression().build();
    assertThatThrownBy(() -> TargetSelection.select(targets, Map.of("core", LISTS.get("core"))))
        .isInstanceOf(InvalidSelection.class).hasMessageContaining("matchExpressions").hasMessageContaining("Like");
  }

  @Test
  void omittedClustersMeanTheHoldingOneAndTheStarEveryRegisteredOne() {
    BroodOperationSpec.Targets targets = new BroodOperationSpec.Targets();
    targets.namespaces = List.of("ci");
    assertThat(TargetSelection.clusters(targets, "core", Set.of("core", "member-1"))).containsExactly("core");
    targets.clusters = List.of("*");
    assertThat(TargetSelection.clusters(targets, "core", Set.of("member-1", "member-2")))
        .containsExactly("core", "member-1", "member-2");
    targets.clusters = List.of("member-1");
    assertThat(TargetSelection.clusters(targets, "core", Set.of())).containsExactly("member-1");
  }
}

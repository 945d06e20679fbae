package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.dashboard.access.Target;
import org.junit.jupiter.api.Test;

/** The places a BroodOperation's spec.targets reach, which broodop-create authorizes one by one. */
class BroodTargetReachTest {

  @Test
  void namespacesOfTheHoldingClusterWhenClustersAreOmitted() throws Exception {
    assertThat(BroodTargetReach.of("spec: {targets: {namespaces: [team-a, team-b, team-a]}}", "core"))
        .containsExactly(Target.namespaced("core", "team-a"), Target.namespaced("core", "team-b"));
  }

  @Test
  void omittedNamespacesReachTheWholeOfEachCluster() throws Exception {
    assertThat(BroodTargetReach.of("spec:\n  targets:\n    clusters: [east, west]\n    names: [ci]\n", "core"))
        .containsExactly(Target.cluster("east"), Target.cluster("west"));
  }

  @Test
  void everyClusterStandsAloneAndReadsAsJsonToo() throws Exception {
    assertThat(BroodTargetReach.of("{\"spec\": {\"targets\": {\"clusters\": [\"east\", \"*\"],"
        + " \"namespaces\": [\"ci\"]}}}", "core")).containsExactly(Target.namespaced("*", "ci"));
    assertThat(Target.namespaced("*", "ci").describe()).isEqualTo("namespace ci in every cluster");
  }

  @Test
  void aManifestWithoutTargetsReachesTheHoldingClusterAndTheApiServerRefusesIt() throws Exception {
    assertThat(BroodTargetReach.of("kind: BroodOperation", "core")).containsExactly(Target.cluster("core"));
  }

  @Test
  void unreadableShapesAreRefusedNamingTheField() {
    assertThatThrownBy(() -> BroodTargetReach.of("spec: {targets: {clusters: east}}", "core"))
        .isInstanceOf(ActionRefused.class).hasMessageContaining("spec.targets.clusters must be a list");
    assertThatThrownBy(() -> BroodTargetReach.of("spec: [1]", "core"))
        .isInstanceOf(ActionRefused.class).hasMessageContaining("spec must be a mapping");
    assertThatThrownBy(() -> BroodTargetReach.of("spec: {targets: [", "core"))
        .isInstanceOf(ActionRefused.class).hasMessageContaining("cannot be read as YAML or JSON");
  }
}

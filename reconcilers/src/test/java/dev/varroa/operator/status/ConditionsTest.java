package dev.varroa.operator.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Condition;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The kstatus trio comes from one state, and a condition keeps its transition time while its status stays. */
class ConditionsTest {
  private static Condition.Status status(List<Condition> conditions, String type) {
    return conditions.stream().filter(c -> type.equals(c.type)).findFirst().orElseThrow().status;
  }

  @Test
  void eachStateSetsExactlyOneOfTheTrioTrue() {
    for (Kstatus state : List.of(Kstatus.READY, Kstatus.RECONCILING, Kstatus.STALLED)) {
      List<Condition> set = new Conditions(List.of(), 1, "2026-01-01T00:00:00Z").kstatus(state, "R", "m").build();
      assertThat(set).extracting(c -> c.type)
          .containsExactly(Condition.READY, Condition.RECONCILING, Condition.STALLED);
      assertThat(set.stream().filter(c -> c.status == Condition.Status.True)).hasSize(1);
      assertThat(status(set, Condition.READY)).isEqualTo(state.ready());
      assertThat(status(set, Condition.STALLED)).isEqualTo(state.stalled());
    }
  }

  @Test
  void suspendedIsNeitherReconcilingNorStalledAndKeepsReady() {
    List<Condition> set = new Conditions(List.of(), 1, "t").kstatus(Kstatus.suspended(Condition.Status.Unknown),
        "Suspended", "spec.suspend is true").build();
    assertThat(status(set, Condition.READY)).isEqualTo(Condition.Status.Unknown);
    assertThat(status(set, Condition.RECONCILING)).isEqualTo(Condition.Status.False);
    assertThat(status(set, Condition.STALLED)).isEqualTo(Condition.Status.False);
  }

  @Test
  void eachConditionCarriesItsOwnWording() {
    List<Condition> set = new Conditions(List.of(), 1, "t").kstatus(Kstatus.RECONCILING,
        new Kstatus.Wording("SourceUnavailable", "git unreachable"), new Kstatus.Wording("SourceUnavailable", "retrying"),
        new Kstatus.Wording("SourceUnavailable", "git unreachable")).build();
    assertThat(set).extracting(c -> c.message).containsExactly("git unreachable", "retrying", "git unreachable");
  }

  @Test
  void aConditionWhoseStatusStaysKeepsItsTransitionTime() {
    List<Condition> first = new Conditions(List.of(), 1, "2026-01-01T00:00:00Z").kstatus(Kstatus.READY, "Ok", "m")
        .build();
    List<Condition> second = new Conditions(first, 2, "2026-01-02T00:00:00Z").kstatus(Kstatus.STALLED, "Bad", "m")
        .build();
    assertThat(second.get(0).lastTransitionTime).isEqualTo("2026-01-02T00:00:00Z");
    assertThat(second.get(1).lastTransitionTime).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(second).allSatisfy(c -> assertThat(c.observedGeneration).isEqualTo(2L));
  }
}

package dev.varroa.operator.cell;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Placement: stable for teams that have a cell, least loaded for the others, oldest first when room is short. */
class TeamPlacementTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  private static TeamPlacement.Wanting team(String name, int minute) {
    return new TeamPlacement.Wanting(name, T0.plusSeconds(60L * minute));
  }

  @Test
  void newTeamsGoToTheLeastLoadedCellLowestOrdinalFirst() {
    TeamPlacement.Result result = TeamPlacement.place(List.of("p-0", "p-1", "p-2"), Map.of(),
        List.of(team("a", 0), team("b", 1), team("c", 2), team("d", 3)), 5);

    assertThat(result.teamsOfCell()).containsExactly(Map.entry("p-0", List.of("a", "d")),
        Map.entry("p-1", List.of("b")), Map.entry("p-2", List.of("c")));
    assertThat(result.moved()).containsExactlyInAnyOrder("a", "b", "c", "d");
  }

  @Test
  void aPlacedTeamStaysEvenWhenAnotherCellIsEmptier() {
    TeamPlacement.Result result = TeamPlacement.place(List.of("p-0", "p-1"),
        Map.of("a", "p-0", "b", "p-0", "c", "p-0"), List.of(team("a", 0), team("b", 1), team("c", 2), team("d", 3)), 5);

    assertThat(result.teamsOfCell().get("p-0")).containsExactly("a", "b", "c");
    assertThat(result.teamsOfCell().get("p-1")).containsExactly("d");
    assertThat(result.moved()).containsExactly("d");
  }

  @Test
  void teamsOfACellThatGoesMoveAndAFullPoolTurnsAwayTheNewestTeam() {
    TeamPlacement.Result result = TeamPlacement.place(List.of("p-0"),
        Map.of("a", "p-0", "b", "p-1", "c", "p-1"), List.of(team("a", 0), team("b", 1), team("c", 2)), 2);

    assertThat(result.teamsOfCell()).containsExactly(Map.entry("p-0", List.of("a", "b")));
    assertThat(result.unplaced()).containsExactly("c");
    assertThat(result.cellOf("b")).isEqualTo("p-0");
    assertThat(result.cellOf("c")).isNull();
  }

  @Test
  void aLoweredCapacityKeepsTheOldestTeamsOnTheirCell() {
    TeamPlacement.Result result = TeamPlacement.place(List.of("p-0", "p-1"),
        Map.of("a", "p-0", "b", "p-0", "c", "p-0"), List.of(team("c", 2), team("b", 1), team("a", 0)), 2);

    assertThat(result.teamsOfCell().get("p-0")).containsExactly("a", "b");
    assertThat(result.teamsOfCell().get("p-1")).containsExactly("c");
  }

  @Test
  void aTeamThatLeftThePoolFreesItsPlace() {
    TeamPlacement.Result result = TeamPlacement.place(List.of("p-0"), Map.of("gone", "p-0", "a", "p-0"),
        List.of(team("a", 0), team("b", 1)), 2);

    assertThat(result.teamsOfCell().get("p-0")).containsExactly("a", "b");
  }

  @Test
  void cellNamesCarryTheirOrdinal() {
    assertThat(CellRenderer.name("shared", 12)).isEqualTo("shared-12");
    assertThat(CellRenderer.ordinal("shared", "shared-12")).contains(12);
    assertThat(CellRenderer.ordinal("shared", "shared-x")).isEmpty();
    assertThat(CellRenderer.ordinal("shared", "shared-01")).isEmpty();
    assertThat(CellRenderer.ordinal("shared", "other-1")).isEmpty();
  }
}

package dev.varroa.operator.cell;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which cell hosts each Team of a pool. Stable: a team stays on its cell while that cell stays and has room; teams of
 * cells that go, teams beyond a lowered capacity and new teams go to the least loaded cell with room (the lowest
 * ordinal on a tie), oldest team first. Pure.
 */
public final class TeamPlacement {
  /** A Team that wants the pool; older teams are placed first, so a full pool turns away the newest. */
  public record Wanting(String team, Instant created) {}

  /**
   * @param teamsOfCell every staying cell, in ordinal order, with the teams it hosts (sorted by name)
   * @param unplaced teams no cell has room for, oldest first
   * @param moved teams that were on another cell (or none) before
   */
  public record Result(Map<String, List<String>> teamsOfCell, List<String> unplaced, Set<String> moved) {
    public String cellOf(String team) {
      return teamsOfCell.entrySet().stream().filter(e -> e.getValue().contains(team)).map(Map.Entry::getKey)
          .findFirst().orElse(null);
    }
  }

  private static final Comparator<Wanting> OLDEST_FIRST = Comparator.comparing(Wanting::created)
      .thenComparing(Wanting::team);

  private TeamPlacement() {}

  /**
   * @param cells the cells that stay, in ordinal order
   * @param current the cell each team is on now (teams of cells that go included)
   * @param wanting the Teams that want the pool now
   * @param capacity teams per cell
   */
  public static Result place(List<String> cells, Map<String, String> current, List<Wanting> wanting, int capacity) {
    Map<String, List<String>> placed = new LinkedHashMap<>();
    cells.forEach(cell -> placed.put(cell, new ArrayList<>()));
    List<Wanting> ordered = wanting.stream().sorted(OLDEST_FIRST).toList();
    List<Wanting> homeless = new ArrayList<>();
    for (Wanting team : ordered) {
      List<String> cell = placed.get(current.get(team.team()));
      if (cell != null && cell.size() < capacity) {
        cell.add(team.team());
      } else {
        homeless.add(team);
      }
    }
    List<String> unplaced = new ArrayList<>();
    Set<String> moved = new java.util.TreeSet<>();
    for (Wanting team : homeless) {
      String target = null;
      for (Map.Entry<String, List<String>> cell : placed.entrySet()) {
        if (cell.getValue().size() < capacity && (target == null
            || cell.getValue().size() < placed.get(target).size())) {
          target = cell.getKey();
        }
      }
      if (target == null) {
        unplaced.add(team.team());
      } else {
        placed.get(target).add(team.team());
        moved.add(team.team());
      }
    }
    Map<String, List<String>> sorted = new LinkedHashMap<>();
    placed.forEach((cell, teams) -> sorted.put(cell, teams.stream().sorted().toList()));
    return new Result(sorted, List.copyOf(unplaced), Set.copyOf(moved));
  }
}

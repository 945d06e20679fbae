package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.api.v1alpha1.Team;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a cell renders beyond any Controller (docs/cells.md, "The generated layer"): the Teams it hosts, the subjects
 * of the Teams allowed to call them, its plugin list with the pool's plugins, and the pin on a pool plugin it ignored.
 *
 * @param teams the hosted Teams, sorted by name
 * @param callers the subjects of each Team a hosted Team names in spec.callableBy, by {@link #callerKey}; a Team that does not
 *     exist is absent and gets nothing
 * @param pluginsText the bundle's plugins.txt with the pool's plugins at the versions the cell uses
 * @param ignoredPin a pin on a pool plugin from another layer that the cell ignored, worded for status; empty: none
 * @param draining the pool scales this cell away: its jobs stay for the builds queued on it, without their triggers
 * @param pool the CellPool that owns the cell (spec.cell.pool)
 */
public record CellLayer(List<Team> teams, Map<String, List<Subject>> callers, String pluginsText,
    Optional<String> ignoredPin, boolean draining, String pool) {
  public CellLayer {
    teams = teams.stream().sorted(Comparator.comparing(t -> t.getMetadata().getName())).toList();
    callers = java.util.Collections.unmodifiableMap(new TreeMap<>(callers));
    java.util.Objects.requireNonNull(pluginsText, "pluginsText");
    java.util.Objects.requireNonNull(ignoredPin, "ignoredPin");
  }

  /** A cell that stays. */
  public CellLayer(List<Team> teams, Map<String, List<Subject>> callers, String pluginsText,
      Optional<String> ignoredPin) {
    this(teams, callers, pluginsText, ignoredPin, false, "");
  }

  /** How {@code callers} keys a Team: namespace/name, whatever namespace the naming Team is in. */
  public static String callerKey(dev.varroa.api.v1alpha1.TeamRef team) {
    return team.namespace() + "/" + team.name();
  }

  /** Every subject a folder grants to (hosted Teams' and callers'): each needs Overall/Read to reach it at all. */
  public List<Subject> subjects() {
    return java.util.stream.Stream.concat(teams.stream().filter(t -> t.getSpec() != null && t.getSpec().subjects != null)
        .flatMap(t -> t.getSpec().subjects.stream()), callers.values().stream().flatMap(List::stream)).toList();
  }
}

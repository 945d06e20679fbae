package dev.varroa.operator.render;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.render.resolve.CellPlugins;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * A cell's generated layer from its inputs (docs/cells.md): the hosted Teams (spec.cell.teams) and the Teams they let
 * call them, checked, and the cell's plugin list. The operator looks Teams up in its cache, {@code varroactl render
 * controller} in its files. A Team spec.cell.teams names that is gone is left out: the CellPool reconciler drops it
 * from the list.
 */
public final class CellLayerResolver {
  /** The layer, or why the cell cannot render, naming the Team or plugin, the field and the fix. */
  public record Resolution(Optional<CellLayer> layer, Optional<String> blocked) {}

  private CellLayerResolver() {}

  /**
   * Empty layer and no block for a Controller that is no cell.
   *
   * @param teams a Team by its key in the cell: its name in the cell's namespace, else namespace/name
   * @param bundleName how messages name the bundle, e.g. {@code ComposedBundle team-a}
   */
  public static Resolution resolve(Controller controller, Function<String, Optional<Team>> teams,
      RenderedBundle rendered, String bundleName, JenkinsVersionProfile profile, Optional<UpdateCenter> updateCenter) {
    if (controller.getSpec() == null || controller.getSpec().cell == null) {
      return new Resolution(Optional.empty(), Optional.empty());
    }
    List<Team> hosted = new ArrayList<>();
    for (String name : new TreeSet<>(hosted(controller))) {
      teams.apply(name).ifPresent(hosted::add);
    }
    List<String> problems = hosted.stream().flatMap(t -> TeamFolderCheck.problems(t).stream()).toList();
    if (!problems.isEmpty()) {
      return new Resolution(Optional.empty(), Optional.of(String.join("; ", problems)));
    }
    Map<String, List<Subject>> callers = new TreeMap<>();
    String cellNamespace = controller.getMetadata().getNamespace();
    for (Team team : hosted) {
      for (String caller : team.getSpec() == null || team.getSpec().callableBy == null ? List.<String>of()
          : team.getSpec().callableBy) {
        // a caller is named from the calling-to Team's namespace, looked up as the cell names Teams
        TeamRef ref = TeamRef.parse(caller, team.getMetadata().getNamespace());
        teams.apply(ref.key(cellNamespace)).filter(t -> t.getSpec() != null && t.getSpec().subjects != null)
            .ifPresent(t -> callers.put(CellLayer.callerKey(ref), t.getSpec().subjects));
      }
    }
    CellPlugins.Outcome plugins = CellPlugins.resolve(rendered, bundleName, profile, updateCenter);
    if (plugins instanceof CellPlugins.Refused refused) {
      return new Resolution(Optional.empty(), Optional.of(refused.message()));
    }
    CellPlugins.Resolved resolved = (CellPlugins.Resolved) plugins;
    String pool = java.util.Objects.toString(controller.getSpec().cell.pool, "");
    return new Resolution(Optional.of(new CellLayer(hosted, callers, resolved.pluginsText(), resolved.ignoredPin(),
        Boolean.TRUE.equals(controller.getSpec().cell.draining), pool)), Optional.empty());
  }

  /** The Teams a Controller hosts by its spec.cell; none for a Controller that is no cell. */
  public static List<String> hosted(Controller controller) {
    return controller.getSpec() == null || controller.getSpec().cell == null || controller.getSpec().cell.teams == null
        ? List.of() : controller.getSpec().cell.teams;
  }
}

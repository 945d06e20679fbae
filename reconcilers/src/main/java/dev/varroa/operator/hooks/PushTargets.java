package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Team;
import java.util.List;

/** What a push can re-check: the objects the operator follows, and how one is re-checked now. */
public interface PushTargets {
  List<ComposedBundle> bundles();

  List<CatalogSource> catalogSources();

  /** Re-checks the bundle's sources now and says so on the bundle; {@code why} names the push. */
  void recheck(ComposedBundle bundle, String why);

  void recheck(CatalogSource source, String why);

  /** The Teams whose pipelines a push may run (spec.pipelines[].triggers.push); none where cells are not served. */
  default List<Team> teams() {
    return List.of();
  }

  /** Queues one build of the Team's pipeline on its cell, waking the cell if parked; what happened, for the log. */
  default String run(Team team, String pipeline, String why) {
    return "not run: this operator runs no pipelines";
  }
}

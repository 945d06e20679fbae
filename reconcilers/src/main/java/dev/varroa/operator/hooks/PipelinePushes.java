package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.Team;
import java.util.List;

/** The Teams a push may run pipelines of, and how a run is queued (the operator's cells, docs/pipelines.md). */
public interface PipelinePushes {
  /** Where no cell is served (no control channel yet): a push runs nothing. */
  PipelinePushes NONE = new PipelinePushes() {
    @Override
    public List<Team> teams() {
      return List.of();
    }

    @Override
    public String run(Team team, String pipeline, String why) {
      return "not run: this operator has no control channel to reach a cell";
    }
  };

  List<Team> teams();

  /** Queues one build of the pipeline on the Team's cell, waking the cell first if parked; the outcome, for the log. */
  String run(Team team, String pipeline, String why);
}

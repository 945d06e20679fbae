package dev.varroa.dashboard.reads;

import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.clusters.ClusterLists;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.bus.v1.CellPoolRows;
import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GET /pipelines: every pipeline of every Team the caller may list pipelines of, from the same operator answer as
 * /teams (varroa.clusters.&lt;c&gt;.cellpools), each with the newest run of its job on the Team's cell from the
 * record store. Authorization is decided on the Team's cluster and namespace, not on the cell: a tenant sees the
 * last run of its own pipelines without seeing the cell Controller. Nothing here changes anything.
 */
public final class PipelineReads {

  private final DashboardReads reads;
  private final RecordReads records;

  PipelineReads(DashboardReads reads, RecordReads records) {
    this.reads = reads;
    this.records = records;
  }

  /** A row per pipeline in cluster, namespace, Team, spec order; {@code team} narrows to one Team's pipelines. */
  public Map<String, Object> list(Caller caller, Parameters query) throws ReadRefused {
    Optional<String> team = query.team("team");
    Permission list = Permission.of(Permission.LIST, Permission.PIPELINES);
    CellReads.Listed listed = reads.cells().ask(caller, query, list, true);
    List<Map<String, Object>> pipelines = new ArrayList<>();
    for (ClusterLists.Reply<CellPoolRows> reply : listed.answers().replies()) {
      for (TeamRow row : reply.value().getTeamsList()) {
        boolean otherTeam = team.isPresent() && !team.get().equals(row.getName());
        if (otherTeam || !listed.shows(reply.cluster(), row.getNamespace())) {
          continue;
        }
        for (PipelineRow pipeline : row.getPipelineRowsList()) {
          pipelines.add(PipelineViews.pipeline(reply.cluster(), reads.coreCluster(), row, pipeline,
              lastRun(reply.cluster(), row, pipeline)));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("pipelines", pipelines);
    out.put("recordStore", records.enabled());
    out.put("clusters", DashboardReads.answers(listed.answers().clusters(), listed.grants(), list, listed.cluster()));
    return out;
  }

  // The newest run of the job on the Team's cell; the Team's grant already allowed the read, so no run is filtered.
  private Map<String, Object> lastRun(String cluster, TeamRow team, PipelineRow pipeline) throws ReadRefused {
    if (!records.enabled() || team.getCell().isEmpty() || team.getCellNamespace().isEmpty()) {
      return null;
    }
    List<Map<String, Object>> newest = records.runs(new RecordReads.RunQuery(Optional.of(cluster),
        Optional.of(team.getCellNamespace()), Optional.of(team.getCell()), Optional.of(pipeline.getJob()),
        Optional.empty(), Optional.empty(), 1), run -> true);
    return newest.isEmpty() ? null : PipelineViews.lastRun(newest.get(0));
  }
}

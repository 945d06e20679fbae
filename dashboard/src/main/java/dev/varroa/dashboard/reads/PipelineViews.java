package dev.varroa.dashboard.reads;

import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.LinkedHashMap;
import java.util.Map;

/** A Team's pipeline as GET /pipelines shows it, from the operator's row and the newest recorded run: pure. */
public final class PipelineViews {

  /** The generated layer makes every pipeline of a Team on the core a Pipeline job (docs/cells.md). */
  public static final String KIND_PIPELINE = "pipeline";
  /** The core does not read a member Team's composed bundle, so it cannot say what the job is (seed 002). */
  public static final String KIND_UNKNOWN = "unknown";

  private PipelineViews() {
  }

  public static Map<String, Object> pipeline(String cluster, String coreCluster, TeamRow team, PipelineRow pipeline,
      Map<String, Object> lastRun) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", team.getNamespace());
    out.put("team", team.getName());
    out.put("pipeline", pipeline.getName());
    out.put("cell", orNull(team.getCell()));
    out.put("cellNamespace", orNull(team.getCellNamespace()));
    out.put("job", pipeline.getJob());
    out.put("repository", pipeline.getRepository());
    out.put("branch", orNull(pipeline.getBranch()));
    out.put("scriptPath", orNull(pipeline.getScriptPath()));
    out.put("kind", cluster.equals(coreCluster) ? KIND_PIPELINE : KIND_UNKNOWN);
    Map<String, Object> triggers = new LinkedHashMap<>();
    triggers.put("cron", orNull(pipeline.getCron()));
    triggers.put("pollScm", orNull(pipeline.getPollScm()));
    triggers.put("push", pipeline.getPush());
    out.put("triggers", triggers);
    out.put("lastRun", lastRun);
    out.put("nextRun", orNull(pipeline.getNextRun()));
    return out;
  }

  /** The fields of a run the list shows; running while it has no completedAt. */
  public static Map<String, Object> lastRun(Map<String, Object> run) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("runId", run.get("runId"));
    out.put("build", run.get("build"));
    out.put("result", run.get("result"));
    out.put("durationMillis", run.get("durationMillis"));
    out.put("queuedAt", run.get("queuedAt"));
    out.put("startedAt", run.get("startedAt"));
    out.put("completedAt", run.get("completedAt"));
    return out;
  }

  private static String orNull(String value) {
    return value.isEmpty() ? null : value;
  }
}

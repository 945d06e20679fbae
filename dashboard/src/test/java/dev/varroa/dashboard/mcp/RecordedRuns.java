package dev.varroa.dashboard.mcp;

import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.reads.DashboardReads.ControllerKey;
import dev.varroa.dashboard.reads.ReadRefused;
import dev.varroa.dashboard.reads.RecordReads;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A build record store in memory with two runs (team-a/orders, team-b/search), their activity and one console log:
 * the MCP tests need runs to filter, and the Postgres-backed reads (RunRecords, Backfill, ConsoleLogs) are wired into
 * RecordReads on the records branch. The filtering by binding under test is DashboardReads', not this class'.
 */
final class RecordedRuns extends RecordReads {

  static final String ORDERS_RUN = "6f1c2a9e-orders-deploy-7";
  static final String SEARCH_RUN = "9a0d4e11-search-index-3";
  static final String LOG = "Started by user alice\n[Pipeline] stage Build\nFinished: OK";

  private static final ControllerKey ORDERS = new ControllerKey(BffStack.CLUSTER, "team-a", "orders");
  private static final ControllerKey SEARCH = new ControllerKey(BffStack.CLUSTER, "team-b", "search");

  @Override
  public boolean enabled() {
    return true;
  }

  @Override
  public List<Map<String, Object>> runs(RunQuery query, Predicate<ControllerKey> allowed) {
    // newest first, as the store orders them
    return List.of(run(SEARCH_RUN, SEARCH, "index", 3), run(ORDERS_RUN, ORDERS, "deploy", 7)).stream()
        .filter(r -> allowed.test(keyOf(r)))
        .filter(r -> query.namespace().map(ns -> ns.equals(r.get("namespace"))).orElse(true))
        .limit(query.limit()).toList();
  }

  @Override
  public Optional<RunView> run(String runId) {
    if (!ORDERS_RUN.equals(runId)) {
      return Optional.empty();
    }
    Map<String, Object> body = run(ORDERS_RUN, ORDERS, "deploy", 7);
    Map<String, Object> stage = new LinkedHashMap<>();
    stage.put("id", "6");
    stage.put("name", "Build");
    stage.put("parallelBranch", "");
    stage.put("status", "SUCCESS");
    stage.put("startedAt", "2026-12-01T10:00:05Z");
    stage.put("endedAt", "2026-12-01T10:01:05Z");
    stage.put("durationMillis", 60000);
    body.put("stages", List.of(stage));
    body.put("tests", Map.of("total", 12, "failed", 0, "skipped", 1));
    return Optional.of(new RunView(ORDERS, body));
  }

  @Override
  public List<Map<String, Object>> activity(ActivityQuery query, Predicate<ControllerKey> allowed) {
    return List.of(event("e2", SEARCH, "2026-12-01T10:02:00Z"), event("e1", ORDERS, "2026-12-01T10:01:00Z")).stream()
        .filter(e -> allowed.test(keyOf(e))).limit(query.limit()).toList();
  }

  /** The log tail as ConsoleLogs would cut it (this log is ASCII, so every byte is a whole character). */
  static McpLogTail.LogTail tail(Caller caller, RunView run, int maxBytes) throws ReadRefused {
    if (!ORDERS_RUN.equals(run.body().get("runId"))) {
      throw ReadRefused.notFound("run " + run.body().get("runId") + " has no console log");
    }
    byte[] bytes = LOG.getBytes(StandardCharsets.UTF_8);
    int from = Math.max(0, bytes.length - maxBytes);
    return new McpLogTail.LogTail(new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8), from,
        bytes.length, true);
  }

  private static Map<String, Object> run(String runId, ControllerKey key, String job, long build) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("runId", runId);
    run.put("cluster", key.cluster());
    run.put("namespace", key.namespace());
    run.put("controller", key.name());
    run.put("job", job);
    run.put("build", build);
    run.put("result", "SUCCESS");
    run.put("cause", "user alice");
    run.put("node", null);
    run.put("queuedAt", "2026-12-01T10:00:00Z");
    run.put("startedAt", "2026-12-01T10:00:02Z");
    run.put("completedAt", "2026-12-01T10:01:10Z");
    run.put("durationMillis", 68000L);
    run.put("queuedMillis", 2000L);
    return run;
  }

  private static Map<String, Object> event(String id, ControllerKey key, String at) {
    Map<String, Object> event = new LinkedHashMap<>();
    event.put("id", id);
    event.put("cluster", key.cluster());
    event.put("namespace", key.namespace());
    event.put("controller", key.name());
    event.put("kind", "ControllerReady");
    event.put("actor", "operator");
    event.put("summary", key.namespace() + "/" + key.name() + " is ready");
    event.put("occurredAt", at);
    event.put("attributes", Map.of());
    return event;
  }

  private static ControllerKey keyOf(Map<String, Object> row) {
    return new ControllerKey((String) row.get("cluster"), (String) row.get("namespace"),
        (String) row.get("controller"));
  }
}

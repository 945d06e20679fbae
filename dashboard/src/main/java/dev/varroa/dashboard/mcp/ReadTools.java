package dev.varroa.dashboard.mcp;

import static dev.varroa.dashboard.mcp.ToolSchemas.array;
import static dev.varroa.dashboard.mcp.ToolSchemas.bool;
import static dev.varroa.dashboard.mcp.ToolSchemas.input;
import static dev.varroa.dashboard.mcp.ToolSchemas.integer;
import static dev.varroa.dashboard.mcp.ToolSchemas.object;
import static dev.varroa.dashboard.mcp.ToolSchemas.props;
import static dev.varroa.dashboard.mcp.ToolSchemas.string;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.api.JsonResponses;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.dashboard.reads.Parameters;
import dev.varroa.dashboard.reads.ReadRefused;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MCP tools: each one is a read of {@link DashboardReads} as the caller the bearer token names, so a tool sees
 * exactly what the HTTP API would show that caller. Answers are the API's JSON, as structured content and as text.
 */
final class ReadTools {

  /** get_run_log_tail's default and largest maxBytes. */
  static final int LOG_TAIL_DEFAULT_BYTES = 16 * 1024;
  static final int LOG_TAIL_MAX_BYTES = 1024 * 1024;

  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  private static final McpSchema.ToolAnnotations READ_ONLY = new McpSchema.ToolAnnotations(null, true, false, true,
      false, null);

  /** One tool's read: the caller and the checked arguments in, the answer's JSON object out. */
  @FunctionalInterface
  private interface Read {
    Map<String, Object> answer(Caller caller, Parameters arguments) throws ReadRefused;
  }

  private final DashboardReads reads;
  private final Optional<McpLogTail> logs;

  ReadTools(DashboardReads reads, Optional<McpLogTail> logs) {
    this.reads = reads;
    this.logs = logs;
  }

  List<SyncToolSpecification> all() {
    return List.of(listControllers(), getController(), listBroodOperations(), listCells(), listPipelines(),
        listActivity(), listRuns(),
        getRun(), getRunLogTail());
  }

  private SyncToolSpecification listControllers() {
    return tool("list_controllers", "List Jenkins controllers",
        "Jenkins Controllers the caller may list, across every registered cluster, with phase, needs-attention "
            + "signal, bundle and last apply; `clusters` says how each cluster answered (a cluster whose list did not"
            + " arrive is named with ok false and a reason, and contributes no rows).",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace"),
            "attention", bool("true: only Controllers that need attention; false: only those that do not")),
            List.of()),
        object(props("controllers", array(ToolSchemas.CONTROLLER_ROW), "clusters",
            array(ToolSchemas.CLUSTER_ANSWER)), List.of("controllers", "clusters")),
        (caller, arguments) -> {
          Map<String, Object> answer = reads.controllers(caller, arguments);
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("controllers", answer.get("items"));
          out.put("clusters", answer.get("clusters"));
          return out;
        });
  }

  private SyncToolSpecification listBroodOperations() {
    return tool("list_brood_operations", "List brood operations",
        "BroodOperations (maintenance runs over many Controllers: backups, safe restarts, ...) the caller may list,"
            + " across every registered cluster, with phase, steps and how many targets are in each phase; `clusters`"
            + " says how each cluster answered (a cluster whose list did not arrive is named with ok false and a"
            + " reason, and contributes no rows).",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace")), List.of()),
        object(props("operations", array(ToolSchemas.BROOD_OPERATION_ROW), "clusters",
            array(ToolSchemas.CLUSTER_ANSWER)), List.of("operations", "clusters")),
        (caller, arguments) -> reads.brood().operations(caller, arguments));
  }

  private SyncToolSpecification listCells() {
    return tool("list_cells", "List cell pools",
        "CellPools (pools of shared Jenkins cells hosting teams) the caller may list, a block per pool per registered"
            + " cluster: replicas, ready cells, each cell's phase, hosted teams and load (teams / teamsPerCell), and"
            + " the teams still without a cell; `clusters` says how each cluster answered (a cluster whose list did"
            + " not arrive is named with ok false and a reason, and contributes no pools).",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace")), List.of()),
        object(props("pools", array(ToolSchemas.CELL_POOL), "clusters", array(ToolSchemas.CLUSTER_ANSWER)),
            List.of("pools", "clusters")),
        (caller, arguments) -> reads.cells().pools(caller, arguments));
  }

  private SyncToolSpecification listPipelines() {
    return tool("list_pipelines", "List team pipelines",
        "Every pipeline of every Team the caller may list pipelines of, across every registered cluster: team, cell,"
            + " the job's name, kind, triggers, the newest recorded run (result, duration, when) and the next cron"
            + " run; `clusters` says how each cluster answered (a cluster whose list did not arrive is named with ok"
            + " false and a reason, and contributes no rows).",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace"), "team",
            string("only this Team")), List.of()),
        object(props("pipelines", array(ToolSchemas.PIPELINE), "recordStore",
            bool("whether the build record store is enabled (lastRun is null without it)"), "clusters",
            array(ToolSchemas.CLUSTER_ANSWER)), List.of("pipelines", "clusters")),
        (caller, arguments) -> reads.pipelines().list(caller, arguments));
  }

  private SyncToolSpecification getController() {
    return tool("get_controller", "Get one Jenkins controller",
        "One Controller in full: its row, spec, status with conditions and their times, the resolved settings, the "
            + "version profile and the plugin lock.",
        input(props("namespace", string("the Controller's namespace"), "name", string("the Controller's name"),
            "cluster", string("its cluster; default: the core cluster")), List.of("namespace", "name")),
        ToolSchemas.CONTROLLER_DETAIL,
        (caller, arguments) -> reads.controller(caller, required(arguments, "namespace"), required(arguments, "name"),
            arguments));
  }

  private SyncToolSpecification listActivity() {
    return tool("list_activity", "List activity",
        "What happened to Controllers, newest first, from the build record store; recordStore false (and no items) "
            + "when the store is not enabled.",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace"),
            "controller", string("only this Controller (name)"),
            "since", string("only events at or after this time, RFC 3339, e.g. 2026-12-01T10:00:00Z"),
            "limit", integer("how many events at most", 1, 1000, 100)), List.of()),
        object(props("items", array(ToolSchemas.ACTIVITY_EVENT), "recordStore",
            bool("whether the build record store is enabled")), List.of("items", "recordStore")),
        reads::activity);
  }

  private SyncToolSpecification listRuns() {
    return tool("list_runs", "List Jenkins runs",
        "Recorded builds, newest first; recordStore false (and no items) when the build record store is not enabled.",
        input(props("cluster", string("only this cluster"), "namespace", string("only this namespace"),
            "controller", string("only this Controller (name)"), "job", string("only this job (full name)"),
            "build", ToolSchemas.props("type", "integer", "minimum", 1, "description", "only this build number"),
            "before", string("only runs queued before this time, RFC 3339 (to page back)"),
            "limit", integer("how many runs at most", 1, 500, 50)), List.of()),
        object(props("items", array(ToolSchemas.RUN), "recordStore",
            bool("whether the build record store is enabled")), List.of("items", "recordStore")),
        reads::runs);
  }

  private SyncToolSpecification getRun() {
    return tool("get_run", "Get one Jenkins run",
        "One recorded run with its stages (parallel branches included) and its test totals.",
        input(props("runId", string("the run's id, as list_runs gives it")), List.of("runId")),
        ToolSchemas.RUN_DETAIL,
        (caller, arguments) -> reads.run(caller, required(arguments, "runId")));
  }

  private SyncToolSpecification getRunLogTail() {
    return tool("get_run_log_tail", "Get the end of a run's console log",
        "The last maxBytes bytes of a run's console log (whole UTF-8 characters), with where the tail starts, the "
            + "log's size and whether the run finished.",
        input(props("runId", string("the run's id, as list_runs gives it"),
            "maxBytes", integer("how many bytes from the end at most", 1, LOG_TAIL_MAX_BYTES, LOG_TAIL_DEFAULT_BYTES)),
            List.of("runId")),
        object(props("runId", string("the run"), "text", string("the log's last bytes"),
            "from", integer("byte offset the text starts at"), "size", integer("the log's size in bytes so far"),
            "complete", bool("the run finished; the log will not grow"),
            "truncated", bool("the log is longer than the text (from > 0)")),
            List.of("runId", "text", "from", "size", "complete", "truncated")),
        (caller, arguments) -> {
          String runId = required(arguments, "runId");
          int maxBytes = arguments.integer("maxBytes", LOG_TAIL_DEFAULT_BYTES, 1, LOG_TAIL_MAX_BYTES);
          McpLogTail reader = logs.orElseThrow(() -> ReadRefused.unavailable("console logs are not served by this "
              + "BFF: it has no build record store with a log blob store (docs/build-logs.md)"));
          McpLogTail.LogTail tail = reader.tail(caller,
              reads.authorizedRun(caller, runId, Permission.of(Permission.GET, Permission.LOGS)), maxBytes);
          Map<String, Object> out = new LinkedHashMap<>();
          out.put("runId", runId);
          out.put("text", tail.text());
          out.put("from", tail.from());
          out.put("size", tail.size());
          out.put("complete", tail.complete());
          out.put("truncated", tail.from() > 0);
          return out;
        });
  }

  private static SyncToolSpecification tool(String name, String title, String description,
      Map<String, Object> input, Map<String, Object> output, Read read) {
    McpSchema.Tool tool = McpSchema.Tool.builder().name(name).title(title).description(description)
        .inputSchema(input).outputSchema(output).annotations(READ_ONLY).build();
    return SyncToolSpecification.builder().tool(tool)
        .callHandler((exchange, request) -> call(exchange, request, input, read)).build();
  }

  private static McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request,
      Map<String, Object> input, Read read) {
    // the filter put the token's caller into this request's transport context; without it nothing is read
    if (!(exchange.transportContext().get(BearerTokenFilter.CALLER_ATTRIBUTE) instanceof Caller caller)) {
      return failure(Map.of("error", "unauthenticated", "message", "no caller: send 'Authorization: Bearer <ID "
          + "token>' with every MCP request"));
    }
    try {
      Map<String, Object> answer = read.answer(caller, arguments(request.arguments(), input));
      Map<String, Object> structured = JsonResponses.JSON.convertValue(answer, OBJECT);
      return McpSchema.CallToolResult.builder().structuredContent(structured)
          .addTextContent(JsonResponses.JSON.writeValueAsString(structured)).isError(false).build();
    } catch (ReadRefused refused) {
      return failure(refused.body());
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return failure(Map.of("error", "internal", "message", "the answer could not be written as JSON: "
          + e.getMessage()));
    }
  }

  /** isError with the refusal's message first, then its JSON body (error, message, parameter or missing). */
  private static McpSchema.CallToolResult failure(Map<String, Object> body) {
    String json;
    try {
      json = JsonResponses.JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      json = "{}";
    }
    return McpSchema.CallToolResult.builder().addTextContent(String.valueOf(body.get("message")))
        .addTextContent(json).isError(true).build();
  }

  /** The tool's arguments as the API's query parameters, so the same checks refuse the same values. */
  @SuppressWarnings("unchecked")
  static Parameters arguments(Map<String, Object> arguments, Map<String, Object> input) throws ReadRefused {
    Map<String, Object> known = (Map<String, Object>) input.get("properties");
    Map<String, String> values = new HashMap<>();
    for (Map.Entry<String, Object> argument : (arguments == null ? Map.<String, Object>of() : arguments).entrySet()) {
      String name = argument.getKey();
      if (!known.containsKey(name)) {
        throw ReadRefused.badParameter(name, "unknown argument " + name + "; this tool takes "
            + String.join(", ", known.keySet()));
      }
      Object value = argument.getValue();
      if (value == null) {
        continue;
      }
      if (value instanceof Number number) {
        values.put(name, new BigDecimal(number.toString()).stripTrailingZeros().toPlainString());
      } else if (value instanceof String || value instanceof Boolean) {
        values.put(name, value.toString());
      } else {
        throw ReadRefused.badParameter(name, name + " must be a string, number or boolean, not " + value);
      }
    }
    return new Parameters(values);
  }

  private static String required(Parameters arguments, String name) throws ReadRefused {
    return arguments.text(name).orElseThrow(() -> ReadRefused.badParameter(name, name + " is required"));
  }
}

package dev.varroa.dashboard.mcp;

import static dev.varroa.dashboard.mcp.ToolSchemas.input;
import static dev.varroa.dashboard.mcp.ToolSchemas.object;
import static dev.varroa.dashboard.mcp.ToolSchemas.props;
import static dev.varroa.dashboard.mcp.ToolSchemas.string;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.dashboard.actions.Action;
import dev.varroa.dashboard.actions.ActionRefused;
import dev.varroa.dashboard.actions.ClusterActions;
import dev.varroa.dashboard.api.JsonResponses;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.dashboard.reads.PipelineRunReads;
import dev.varroa.dashboard.reads.ReadRefused;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The MCP side of pipeline runs (docs/pipelines.md): run_pipeline is the pipeline-run action of POST /actions (same
 * authorization, audit and answer), get_pipeline_run the GET /pipeline-runs/{requestId} read.
 */
final class PipelineTools {

  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  /** Not read-only, not destructive (a build runs), idempotent by request id, talks to the cluster (closed world). */
  private static final McpSchema.ToolAnnotations RUNS_A_BUILD = new McpSchema.ToolAnnotations(null, false, false,
      true, false, null);
  private static final McpSchema.ToolAnnotations READ_ONLY = new McpSchema.ToolAnnotations(null, true, false, true,
      false, null);
  private static final Set<String> RUN_ARGUMENTS = Set.of("cluster", "namespace", "team", "pipeline", "parameters",
      "requestId");

  private final ClusterActions actions;
  private final PipelineRunReads runs;

  PipelineTools(ClusterActions actions, PipelineRunReads runs) {
    this.actions = actions;
    this.runs = runs;
  }

  List<SyncToolSpecification> all() {
    return List.of(runPipeline(), getPipelineRun());
  }

  private SyncToolSpecification runPipeline() {
    Map<String, Object> inputSchema = input(props(
        "cluster", string("the cluster that holds the Team (list_cells names the teams and their clusters)"),
        "namespace", string("the Team's namespace"),
        "team", string("the Team's name"),
        "pipeline", string("the pipeline's name in the Team's spec.pipelines"),
        "parameters", Map.of("type", "object", "additionalProperties", Map.of("type", "string"), "description",
            "build parameters by name, string values; they travel and are stored in the clear: never a secret"),
        "requestId", string("a fresh UUID for this run; send the same one again to retry without a second run;"
            + " default: a new one")),
        List.of("cluster", "namespace", "team", "pipeline"));
    Map<String, Object> outputSchema = object(props(
        "requestId", string("the run request's id: get_pipeline_run follows it"),
        "outcome", string("accepted, refused or failed"), "message", string("what happened, for people"),
        "pipeline", string("the pipeline"), "cell", string("the cell Controller hosting the Team"),
        "cellNamespace", string("the cell's namespace"), "job", string("the job's full name on the cell"),
        "wake", string("what the cell wake found: woken, not-parked, refused or unanswered")),
        List.of("requestId", "outcome", "message"));
    McpSchema.Tool tool = McpSchema.Tool.builder().name("run_pipeline").title("Run a team's pipeline")
        .description("Starts one build of a Team's pipeline on the Team's cell, waking the cell if it is parked."
            + " Answers once the run is accepted; get_pipeline_run with the requestId says when it is queued,"
            + " running and finished, and gives the runId for get_run_log_tail. Needs the VarroaRole verb trigger"
            + " on pipelines in the Team's namespace.")
        .inputSchema(inputSchema).outputSchema(outputSchema).annotations(RUNS_A_BUILD).build();
    return SyncToolSpecification.builder().tool(tool).callHandler(this::run).build();
  }

  private SyncToolSpecification getPipelineRun() {
    Map<String, Object> inputSchema = input(props("requestId", string("the requestId run_pipeline answered")),
        List.of("requestId"));
    Map<String, Object> outputSchema = object(props(
        "requestId", string("the run request"),
        "state", string("requested, queued, running, finished or failed"),
        "message", string("why it failed, or what it waits for"),
        "runId", string("the run, once it started: get_run and get_run_log_tail take it"),
        "result", string("once finished: SUCCESS, UNSTABLE, FAILURE, NOT_BUILT or ABORTED")),
        List.of("requestId", "state"));
    McpSchema.Tool tool = McpSchema.Tool.builder().name("get_pipeline_run").title("Where a requested pipeline run is")
        .description("The state of a run run_pipeline requested: requested (the cell may be waking), queued in"
            + " Jenkins, running, finished with its result, or failed before it ran (message says why). Needs get"
            + " runs or trigger pipelines in the Team's namespace.")
        .inputSchema(inputSchema).outputSchema(outputSchema).annotations(READ_ONLY).build();
    return SyncToolSpecification.builder().tool(tool).callHandler(this::status).build();
  }

  private McpSchema.CallToolResult run(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    if (!(exchange.transportContext().get(BearerTokenFilter.CALLER_ATTRIBUTE) instanceof Caller caller)) {
      return unauthenticated();
    }
    Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
    for (String name : arguments.keySet()) {
      if (!RUN_ARGUMENTS.contains(name)) {
        return failure(Map.of("error", "bad_request", "field", name, "message", "unknown argument " + name
            + "; run_pipeline takes cluster, namespace, team, pipeline, parameters, requestId"));
      }
    }
    ObjectNode body = JsonResponses.JSON.createObjectNode();
    Object requestId = arguments.get("requestId");
    body.put("requestId", requestId == null ? UUID.randomUUID().toString() : String.valueOf(requestId));
    body.put("verb", "pipeline-run");
    body.putObject("target").put("cluster", text(arguments, "cluster")).put("namespace", text(arguments,
        "namespace")).put("name", text(arguments, "team"));
    // the action's own checks refuse a non-text pipeline or a parameter that is not a string, naming it
    body.set("pipeline", JsonResponses.JSON.valueToTree(arguments.getOrDefault("pipeline", "")));
    if (arguments.get("parameters") != null) {
      body.set("parameters", JsonResponses.JSON.valueToTree(arguments.get("parameters")));
    }
    try {
      return success(actions.run(Action.parse(body, caller)));
    } catch (ActionRefused refused) {
      return failure(refused.body());
    }
  }

  private McpSchema.CallToolResult status(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    if (!(exchange.transportContext().get(BearerTokenFilter.CALLER_ATTRIBUTE) instanceof Caller caller)) {
      return unauthenticated();
    }
    Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
    for (String name : arguments.keySet()) {
      if (!"requestId".equals(name)) {
        return failure(Map.of("error", "bad_request", "parameter", name, "message", "unknown argument " + name
            + "; get_pipeline_run takes requestId"));
      }
    }
    try {
      return success(runs.status(caller, text(arguments, "requestId")));
    } catch (ReadRefused refused) {
      return failure(refused.body());
    }
  }

  private static String text(Map<String, Object> arguments, String name) {
    Object value = arguments.get(name);
    return value == null ? "" : String.valueOf(value);
  }

  private static McpSchema.CallToolResult success(Map<String, Object> answer) {
    Map<String, Object> structured = JsonResponses.JSON.convertValue(answer, OBJECT);
    try {
      return McpSchema.CallToolResult.builder().structuredContent(structured)
          .addTextContent(JsonResponses.JSON.writeValueAsString(structured)).isError(false).build();
    } catch (JsonProcessingException e) {
      return failure(Map.of("error", "internal", "message", "the answer could not be written as JSON: "
          + e.getMessage()));
    }
  }

  private static McpSchema.CallToolResult unauthenticated() {
    return failure(Map.of("error", "unauthenticated", "message", "no caller: send 'Authorization: Bearer <ID "
        + "token>' with every MCP request"));
  }

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
}

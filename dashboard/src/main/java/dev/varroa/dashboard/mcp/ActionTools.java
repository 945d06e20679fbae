package dev.varroa.dashboard.mcp;

import static dev.varroa.dashboard.mcp.ToolSchemas.bool;
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
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The MCP side of actions (docs/actions.md): drain_cluster carries the same action as POST /actions, with the same
 * request id, authorization, audit and answer.
 */
final class ActionTools {

  private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {};
  /** Not read-only, destructive, idempotent by request id, talks to the cluster's operator (open world: no). */
  private static final McpSchema.ToolAnnotations DESTRUCTIVE = new McpSchema.ToolAnnotations(null, false, true, true,
      false, null);
  private static final Set<String> ARGUMENTS = Set.of("cluster", "requestId", "cancel", "preview");

  private final ClusterActions actions;

  ActionTools(ClusterActions actions) {
    this.actions = actions;
  }

  List<SyncToolSpecification> all() {
    Map<String, Object> inputSchema = input(props(
        "cluster", string("the member cluster to drain (list_controllers names the clusters)"),
        "requestId", string("a fresh UUID for this action; send the same one again to retry without a second run"),
        "cancel", bool("true: stop the drain under way (deleted Controllers stay deleted)"),
        "preview", bool("true: only say what the drain would delete and what each volume's reclaim policy does")),
        List.of("cluster", "requestId"));
    Map<String, Object> outputSchema = object(props(
        "requestId", string("the action's id"), "verb", string("drain or cancel-drain"),
        "outcome", string("accepted, done, refused or failed"), "message", string("what happened, for people"),
        "state", string("the cluster's drain state: Draining, Drained, DrainCancelled or empty"),
        "replayed", bool("the request id was answered before; nothing ran again")),
        List.of("requestId", "outcome", "message"));
    McpSchema.Tool tool = McpSchema.Tool.builder().name("drain_cluster").title("Drain a member cluster")
        .description("Deletes every Controller of a member cluster and their resources, one by one, with their"
            + " JENKINS_HOME claims: Jenkins data is not migrated, and a volume whose reclaim policy is Delete loses"
            + " its data. Preview first (preview: true) and show the volumes to the user. The core cluster is never"
            + " drained. Needs the VarroaRole verb drain on clusters.")
        .inputSchema(inputSchema).outputSchema(outputSchema).annotations(DESTRUCTIVE).build();
    return List.of(SyncToolSpecification.builder().tool(tool).callHandler(this::call).build());
  }

  private McpSchema.CallToolResult call(McpSyncServerExchange exchange, McpSchema.CallToolRequest request) {
    if (!(exchange.transportContext().get(BearerTokenFilter.CALLER_ATTRIBUTE) instanceof Caller caller)) {
      return failure(Map.of("error", "unauthenticated", "message", "no caller: send 'Authorization: Bearer <ID "
          + "token>' with every MCP request"));
    }
    Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
    for (String name : arguments.keySet()) {
      if (!ARGUMENTS.contains(name)) {
        return failure(Map.of("error", "bad_request", "field", name, "message", "unknown argument " + name
            + "; drain_cluster takes cluster, requestId, cancel, preview"));
      }
    }
    ObjectNode body = JsonResponses.JSON.createObjectNode();
    body.put("requestId", String.valueOf(arguments.getOrDefault("requestId", "")));
    body.put("verb", Boolean.TRUE.equals(arguments.get("cancel")) ? "cancel-drain" : "drain");
    body.putObject("target").put("cluster", String.valueOf(arguments.getOrDefault("cluster", "")));
    if (arguments.containsKey("preview")) {
      body.set("preview", JsonResponses.JSON.valueToTree(arguments.get("preview")));
    }
    try {
      Map<String, Object> answer = JsonResponses.JSON.convertValue(actions.run(Action.parse(body, caller)), OBJECT);
      return McpSchema.CallToolResult.builder().structuredContent(answer)
          .addTextContent(JsonResponses.JSON.writeValueAsString(answer)).isError(false).build();
    } catch (ActionRefused refused) {
      return failure(refused.body());
    } catch (JsonProcessingException e) {
      return failure(Map.of("error", "internal", "message", "the answer could not be written as JSON: "
          + e.getMessage()));
    }
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

package dev.varroa.dashboard.mcp;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON Schemas of the MCP tools' inputs and outputs, in the shapes of docs/dashboard-api.md. Output objects allow
 * extra fields so a row that gains one does not break a client validating against an older schema.
 */
final class ToolSchemas {

  private ToolSchemas() {}

  static final Map<String, Object> CLUSTER_ANSWER = object(props(
      "name", string("the registered cluster"),
      "ok", bool("whether its controller list arrived in time and could be read"),
      "reason", nullable("string", "why its rows are missing: 'list unavailable', or that its answer"
          + " could not be read ('invalid controller row', 'invalid brood operation row', 'invalid cell pool row')")),
      List.of("name", "ok"));

  static final Map<String, Object> LAST_APPLY = Map.of("type", List.of("object", "null"),
      "description", "the last desired state applied or refused; null before the first",
      "properties", props("succeeded", bool("applied (true) or refused (false)"), "message", string("what happened"),
          "appliedAt", string("RFC 3339")));

  private static Map<String, Object> rowProperties() {
    return props(
        "cluster", string("the cluster the Controller runs in"),
        "namespace", string("its namespace"),
        "name", string("its name"),
        "uid", string("its Kubernetes uid"),
        "phase", string("Pending, Provisioning, Running, Connected, Stopped, Hibernated or Failed; empty before the "
            + "first status"),
        "attention", string("the needs-attention signal, e.g. Blocked; empty when none"),
        "bundle", string("the bundle it runs"),
        "revision", string("digest of the last desired state applied"),
        "lastApply", LAST_APPLY,
        "lastReconciledAt", string("RFC 3339"),
        "jenkinsVersion", string("the Jenkins version it runs"),
        "url", string("the Jenkins URL"),
        "labels", Map.of("type", "object", "additionalProperties", Map.of("type", "string")),
        "createdAt", string("RFC 3339"));
  }

  static final Map<String, Object> CONTROLLER_ROW = object(rowProperties(), List.of("cluster", "namespace", "name"));

  static final Map<String, Object> CONTROLLER_DETAIL = detail();

  static final Map<String, Object> BROOD_OPERATION_ROW = object(props(
      "cluster", string("the cluster holding the BroodOperation"),
      "namespace", string("its namespace"),
      "name", string("its name"),
      "phase", string("Pending, Running, Paused, Succeeded, Failed or Cancelled; empty before the first status"),
      "message", string("why it is in its phase"),
      "dryRun", bool("true: it only lists its targets, nothing is touched"),
      "steps", Map.of("type", "array", "items", Map.of("type", "string"),
          "description", "the steps, in order"),
      "counts", object(props("total", integer("targets"), "pending", integer("not started"), "running",
          integer("under way"), "paused", integer("waiting for a person"), "succeeded", integer("done"), "failed",
          integer("failed"), "unknown", integer("their cluster does not answer"), "cancelled", integer("cancelled")),
          List.of("total")),
      "createdAt", nullable("string", "RFC 3339"),
      "startedAt", nullable("string", "RFC 3339; null before it started"),
      "completedAt", nullable("string", "RFC 3339; null before it ended"),
      "schedule", nullable("string", "the BroodSchedule that created it; null when a person did")),
      List.of("cluster", "namespace", "name"));

  static final Map<String, Object> CELL_POOL = object(props(
      "cluster", string("the cluster the CellPool is in"),
      "namespace", string("its namespace (the tenant)"),
      "name", string("its name"),
      "replicas", integer("cells wanted (spec.replicas, the scale subresource)"),
      "ready", integer("cells Connected"),
      "teamsPerCell", integer("teams one cell hosts at most"),
      "teams", integer("teams hosted by its cells"),
      "load", Map.of("type", "number", "description", "teams hosted over the room of the existing cells, 0 to 1"),
      "cells", array(object(props("name", string("the cell Controller, <pool>-<ordinal>"),
          "phase", string("the cell Controller's phase; empty before the pool wrote one"),
          "teams", Map.of("type", "array", "items", Map.of("type", "string"), "description", "hosted teams"),
          "draining", bool("its teams are being moved away before it is deleted"),
          "load", Map.of("type", "number", "description", "hosted teams over teamsPerCell, 0 to 1")),
          List.of("name", "teams"))),
      "unplacedTeams", Map.of("type", "array", "items", Map.of("type", "string"),
          "description", "teams that want this pool and have no cell (every cell is full)"),
      "createdAt", nullable("string", "RFC 3339")),
      List.of("cluster", "namespace", "name", "cells"));

  static final Map<String, Object> PIPELINE = object(props(
      "cluster", string("the cluster the Team is in"),
      "namespace", string("the Team's namespace (the tenant)"),
      "team", string("the Team"),
      "pipeline", string("the pipeline's name in spec.pipelines"),
      "cell", nullable("string", "the cell Controller hosting the Team; null while the Team waits for a cell"),
      "cellNamespace", nullable("string", "the cell's namespace (its pool's)"),
      "job", string("the job's full name in the cell: <team folder>/<pipeline>"),
      "repository", string("the Git repository"),
      "branch", nullable("string", "the branch; null: main"),
      "scriptPath", nullable("string", "the Pipeline script's path; null: Jenkinsfile"),
      "kind", string("'pipeline' for a Team on the core cluster; 'unknown' for a member's Team (the core does not"
          + " read a member Team's composed bundle)"),
      "triggers", object(props("cron", nullable("string", "Jenkins cron spec"), "pollScm",
          nullable("string", "Jenkins cron spec for SCM polling"), "push", bool("a push trigger is set")), List.of()),
      "lastRun", Map.of("type", List.of("object", "null"), "description",
          "the newest recorded run of the job on the cell; null without one or without a record store",
          "properties", props("runId", string("the run's id (get_run)"), "build", nullable("integer", "build number"),
              "result", nullable("string", "SUCCESS, FAILURE, ...; null while it runs"),
              "durationMillis", nullable("integer", "how long it ran"), "queuedAt", nullable("string", "RFC 3339"),
              "startedAt", nullable("string", "RFC 3339"), "completedAt", nullable("string", "RFC 3339"))),
      "nextRun", nullable("string", "the next time the cron trigger fires, RFC 3339 UTC; null without one")),
      List.of("cluster", "namespace", "team", "pipeline", "job", "kind"));

  private static Map<String, Object> detail() {
    Map<String, Object> properties = rowProperties();
    properties.put("spec", Map.of("type", "object", "description", "the Controller's spec"));
    properties.put("status", Map.of("type", "object", "description", "the Controller's status"));
    properties.put("conditions", array(object(props("type", string("condition type"), "status",
        string("True, False or Unknown"), "reason", string("CamelCase reason"), "message", string("what it means"),
        "lastTransitionTime", string("RFC 3339")), List.of("type", "status"))));
    properties.put("generation", nullable("integer", "metadata.generation"));
    properties.put("settings", nullable("object", "the resolved settings the operator renders from"));
    properties.put("versionProfile", nullable("string", "the version profile resolved"));
    properties.put("lock", Map.of("type", "object", "description", "plugin name to locked version",
        "additionalProperties", Map.of("type", "string")));
    properties.put("resolutionProblem", nullable("string", "why the settings could not be resolved; empty if they were"));
    return object(properties, List.of("cluster", "namespace", "name"));
  }

  private static Map<String, Object> runProperties() {
    return props(
        "runId", string("the run's id (give it to get_run and get_run_log_tail)"),
        "cluster", string("cluster"), "namespace", string("namespace"), "controller", string("Controller name"),
        "job", string("Jenkins job full name"), "build", nullable("integer", "build number"),
        "result", nullable("string", "SUCCESS, UNSTABLE, FAILURE, ABORTED or NOT_BUILT; null while it runs"),
        "cause", nullable("string", "what started it"), "node", nullable("string", "the agent it ran on"),
        "queuedAt", nullable("string", "RFC 3339"), "startedAt", nullable("string", "RFC 3339"),
        "completedAt", nullable("string", "RFC 3339"), "durationMillis", nullable("integer", "run time"),
        "queuedMillis", nullable("integer", "time in the queue"));
  }

  static final Map<String, Object> RUN = object(runProperties(), List.of("runId"));

  static final Map<String, Object> RUN_DETAIL = runDetail();

  private static Map<String, Object> runDetail() {
    Map<String, Object> properties = runProperties();
    properties.put("stages", array(object(props("id", string("stage node id"), "name", string("stage name"),
        "parallelBranch", string("the parallel branch; empty outside one"), "status", nullable("string", "status"),
        "startedAt", nullable("string", "RFC 3339"), "endedAt", nullable("string", "RFC 3339"),
        "durationMillis", nullable("integer", "stage time")), List.of())));
    properties.put("tests", Map.of("type", List.of("object", "null"), "description", "test totals; null when none",
        "properties", props("total", integer("tests run"), "failed", integer("failed"), "skipped",
            integer("skipped"))));
    return object(properties, List.of("runId"));
  }

  static final Map<String, Object> ACTIVITY_EVENT = object(props(
      "id", string("the event's id"), "cluster", string("cluster"), "namespace", string("namespace; may be empty"),
      "controller", string("Controller; may be empty"), "kind", string("what happened, e.g. ControllerReady"),
      "actor", string("who or what did it"), "summary", string("one line"), "occurredAt", string("RFC 3339"),
      "attributes", Map.of("type", "object", "additionalProperties", Map.of("type", "string"))), List.of("id"));

  static Map<String, Object> object(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", properties);
    if (!required.isEmpty()) {
      schema.put("required", required);
    }
    return schema;
  }

  /** A tool's input: only the named arguments, each optional unless listed. */
  static Map<String, Object> input(Map<String, Object> properties, List<String> required) {
    Map<String, Object> schema = object(properties, required);
    schema.put("additionalProperties", false);
    return schema;
  }

  static Map<String, Object> props(Object... namesAndSchemas) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (int i = 0; i < namesAndSchemas.length; i += 2) {
      out.put((String) namesAndSchemas[i], namesAndSchemas[i + 1]);
    }
    return out;
  }

  static Map<String, Object> array(Map<String, Object> items) {
    return Map.of("type", "array", "items", items);
  }

  static Map<String, Object> string(String description) {
    return Map.of("type", "string", "description", description);
  }

  static Map<String, Object> nullable(String type, String description) {
    return Map.of("type", List.of(type, "null"), "description", description);
  }

  static Map<String, Object> bool(String description) {
    return Map.of("type", "boolean", "description", description);
  }

  static Map<String, Object> integer(String description) {
    return Map.of("type", "integer", "description", description);
  }

  static Map<String, Object> integer(String description, int minimum, int maximum, int fallback) {
    return Map.of("type", "integer", "description", description, "minimum", minimum, "maximum", maximum,
        "default", fallback);
  }
}

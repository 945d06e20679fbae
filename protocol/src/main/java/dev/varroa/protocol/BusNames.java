package dev.varroa.protocol;

/**
 * NATS subjects, JetStream streams and key-value buckets shared by the operator and the gateways.
 * Schemas are in bus.proto; docs/reference/protocol.md describes who writes and reads each.
 */
public final class BusNames {

  /** KV: bootstrap token records, keyed by the token's SHA-256. */
  public static final String BOOTSTRAP_TOKENS_BUCKET = "varroa_bootstrap_tokens";
  /** KV: which gateway holds which mite, keyed by {@link ControllerIdentity#routeKey()}. */
  public static final String MITE_ROUTES_BUCKET = "varroa_mite_routes";
  /** KV: live gateways; entries expire unless refreshed. */
  public static final String GATEWAYS_BUCKET = "varroa_gateways";
  /** JetStream work queue of one-shot commands (no credentials). */
  public static final String COMMANDS_STREAM = "varroa_commands";
  /** Queue group the operator replicas answer Jenkins token requests in. */
  public static final String OPERATOR_QUEUE_GROUP = "varroa-operator";
  /** JetStream stream of build events and job-schedule inventories (seed 001), payload BuildEventGroup. */
  public static final String BUILDS_STREAM = "varroa_builds";
  /** The recorder's durable consumer on {@link #BUILDS_STREAM}; created with the stream so no event lacks interest. */
  public static final String RECORDER_CONSUMER = "varroa-recorder";
  /** Queue group the recorder replicas answer ledger claims in. */
  public static final String RECORDER_QUEUE_GROUP = "varroa-recorder";
  /** Subject the ledger answers build claims on; payload LedgerClaim, reply ClaimDecision. */
  public static final String LEDGER_CLAIM_SUBJECT = "varroa.ledger.claim";

  /**
   * Subject the recorder answers a controller's job schedules on (queue group {@link #RECORDER_QUEUE_GROUP});
   * payload JobSchedulesRequest, reply JobSchedules. The operator asks when it parks a controller.
   */
  public static final String JOB_SCHEDULES_SUBJECT = "varroa.recorder.job-schedules";

  /**
   * Subject the recorder takes a CellPool's team placements on (queue group {@link #RECORDER_QUEUE_GROUP}); payload
   * TeamPlacements (the pool's whole placement), reply TeamPlacementsRecorded. Every cluster's operator sends here.
   */
  public static final String TEAM_PLACEMENTS_SUBJECT = "varroa.recorder.team-placements";

  /**
   * Subject the recorder takes a pipeline run on from the BFF (queue group {@link #RECORDER_QUEUE_GROUP}); payload
   * ActionRequest with verb pipeline-run, reply ActionResult. The recorder wakes the Team's cell if it is parked and
   * sends the run to the Team's cluster's operator on {@link #clusterActions(String)} (seed 002).
   */
  public static final String PIPELINE_RUNS_SUBJECT = "varroa.recorder.pipeline-runs";

  /**
   * Subject the recorder takes a queued pipeline run's Jenkins queue item on (PipelineRunQueued, reply
   * PipelineRunStatus, queue group {@link #RECORDER_QUEUE_GROUP}); every cluster's operator sends here.
   */
  public static final String PIPELINE_RUN_QUEUED_SUBJECT = "varroa.recorder.pipeline-run-queued";

  /**
   * Subject the recorder answers where a requested pipeline run is on (PipelineRunStatusRequest, reply
   * PipelineRunStatus, queue group {@link #RECORDER_QUEUE_GROUP}); the BFF asks.
   */
  public static final String PIPELINE_RUN_STATUS_SUBJECT = "varroa.recorder.pipeline-run-status";

  /**
   * Subject the recorder takes a cross-tenant step's call on (PipelineCall, reply PipelineCallAnswer, queue group
   * {@link #RECORDER_QUEUE_GROUP}); only gateways publish here, for the mite whose stream they hold.
   */
  public static final String PIPELINE_CALLS_SUBJECT = "varroa.recorder.pipeline-calls";

  /** JetStream stream (seed 001): the recorder's fixed 72-hour buffer of every activity subject, payload ActivityEvent. */
  public static final String ACTIVITY_STREAM = "varroa_activity";
  /** How long {@link #ACTIVITY_STREAM} keeps an event, drained into the PostgreSQL activity table or not. */
  public static final java.time.Duration ACTIVITY_BUFFER = java.time.Duration.ofHours(72);
  /** The recorder's durable consumer on {@link #ACTIVITY_STREAM}. */
  public static final String ACTIVITY_CONSUMER = "varroa-recorder-activity";
  /** The token that stands for "no controller" in {@link #activityGlobal(String)}. */
  public static final String ACTIVITY_GLOBAL_TOKEN = "_global";

  /**
   * KV: the Controllers that exist, keyed by {@link #liveControllerKey(String, ControllerIdentity)}, value the UID;
   * the operator writes and deletes them, the gateway checks a mite's certificate against them on stream open.
   */
  public static final String LIVE_CONTROLLERS_BUCKET = "varroa_controllers";

  /** KV: registered clusters (payload ClusterPresence); entries expire unless their operator refreshes them. */
  public static final String CLUSTERS_BUCKET = "varroa_clusters";
  /** KV: who may read what (payload AccessPolicy under {@link #ACCESS_POLICY_KEY}), written by the core's operator. */
  public static final String ACCESS_BUCKET = "varroa_access";
  public static final String ACCESS_POLICY_KEY = "policy";

  /**
   * Prefix of the operator's reply subjects (requests, JetStream API answers, KV watches). Only the operator user may
   * subscribe under it, so no other component reads a Jenkins token grant or a command result meant for the operator.
   */
  public static final String OPERATOR_INBOX_PREFIX = "_INBOX_varroa_operator.";
  /** Prefix of the gateway's reply subjects: only the gateway user may subscribe under it. */
  public static final String GATEWAY_INBOX_PREFIX = "_INBOX_varroa_gateway.";

  /**
   * The operator's reply prefix in one cluster: {@link #OPERATOR_INBOX_PREFIX}&lt;cluster&gt;. Only that cluster's
   * operator user may subscribe under it, so a member's operator reads no other cluster's replies.
   */
  public static String operatorInboxPrefix(String cluster) {
    return OPERATOR_INBOX_PREFIX + token(cluster) + ".";
  }

  /**
   * The gateway's reply prefix in one cluster: {@link #GATEWAY_INBOX_PREFIX}&lt;cluster&gt;. Jenkins token grants
   * arrive under it, so a member's gateway may not read another cluster's.
   */
  public static String gatewayInboxPrefix(String cluster) {
    return GATEWAY_INBOX_PREFIX + token(cluster) + ".";
  }

  private BusNames() {
  }

  /** Request subject a cluster's operator answers with its controller rows (ControllerRows). */
  public static String clusterControllers(String cluster) {
    return "varroa.clusters." + token(cluster) + ".controllers";
  }

  /** Request subject a cluster's operator answers with one Controller in full (ControllerDetail). */
  public static String clusterController(String cluster) {
    return "varroa.clusters." + token(cluster) + ".controller";
  }

  /**
   * Request subject a cluster's operator answers actions on (ActionRequest, reply ActionResult, queue group
   * {@link #OPERATOR_QUEUE_GROUP}); only the BFF and (for pipeline-run) the core's recorder publish here, only
   * that cluster's operator subscribes.
   */
  public static String clusterActions(String cluster) {
    return "varroa.clusters." + token(cluster) + ".actions";
  }

  /** Request subject a cluster's operator answers with the check of a Controller manifest (ManifestCheckAnswer). */
  public static String clusterManifestCheck(String cluster) {
    return "varroa.clusters." + token(cluster) + ".manifest-check";
  }

  /**
   * Request subject a cluster's operator answers with its BroodOperations (BroodOperationsRequest, reply
   * BroodOperationRows); only the BFF publishes here.
   */
  public static String clusterBroodOperations(String cluster) {
    return "varroa.clusters." + token(cluster) + ".brood-operations";
  }

  /** Request subject a cluster's operator answers with its BroodSchedules (BroodSchedulesRequest, reply BroodScheduleRows). */
  public static String clusterBroodSchedules(String cluster) {
    return "varroa.clusters." + token(cluster) + ".brood-schedules";
  }

  /**
   * Request subject a cluster's operator answers with its CellPools and Teams (CellPoolsRequest, reply CellPoolRows,
   * queue group {@link #OPERATOR_QUEUE_GROUP}); only the BFF publishes here.
   */
  public static String clusterCellPools(String cluster) {
    return "varroa.clusters." + token(cluster) + ".cellpools";
  }

  /**
   * Request subject a cluster's operator takes brood operation targets on from the core's operator (BroodTargetRequest,
   * reply BroodTargetReport, queue group {@link #OPERATOR_QUEUE_GROUP}); only the core's operator publishes here.
   */
  public static String clusterBroodTargets(String cluster) {
    return "varroa.clusters." + token(cluster) + ".brood-targets";
  }

  /**
   * Request subject a cluster's operator wakes the cell hosting a team on (CellWake, reply CellWakeResult, queue group
   * {@link #OPERATOR_QUEUE_GROUP}); only the core's recorder publishes here, only that cluster's operator answers.
   */
  public static String clusterCellWake(String cluster) {
    return "varroa.clusters." + token(cluster) + ".cell-wake";
  }

  /** Activity of one controller (seed 001): activity.&lt;cluster&gt;.&lt;namespace&gt;.&lt;name&gt;. */
  public static String activity(String cluster, String namespace, String name) {
    return "activity." + token(cluster) + "." + namespace + "." + name;
  }

  /** Installation-wide activity of one cluster: activity.&lt;cluster&gt;._global. */
  public static String activityGlobal(String cluster) {
    return "activity." + token(cluster) + "." + ACTIVITY_GLOBAL_TOKEN;
  }

  /** Filter of every activity subject: the subjects of {@link #ACTIVITY_STREAM}. */
  public static String activityFilter() {
    return "activity.>";
  }

  /** Core NATS subject announcing new bytes of one run's console log (payload LogAppended); never JetStream. */
  public static String logAppended(String cluster, ControllerIdentity controller, String runId) {
    return "varroa.logs." + token(cluster) + "." + controller.routeKey() + "." + token(runId);
  }

  /** Filter of every console log announcement of one controller. */
  public static String logAppendedFilter(String cluster, ControllerIdentity controller) {
    return "varroa.logs." + token(cluster) + "." + controller.routeKey() + ".*";
  }

  /** Filter of every console log announcement. */
  public static String logAppendedFilter() {
    return "varroa.logs.>";
  }

  /**
   * Subject the operators of one cluster answer Jenkins token requests on (queue group
   * {@link #OPERATOR_QUEUE_GROUP}); payload JenkinsTokenGrantRequest, reply JenkinsTokenGrant.
   */
  public static String jenkinsTokenRequests(String cluster) {
    return "varroa.operator." + token(cluster) + ".jenkins-token";
  }

  /**
   * Request subject of one cluster's gateway holding a mite; payload GatewayCommand (desired state may carry
   * credentials), reply CommandResult. Only the operator publishes here.
   */
  public static String gatewayCommands(String cluster, String gatewayId) {
    return "varroa.gateway." + token(cluster) + "." + token(gatewayId) + ".commands";
  }

  /** Notices that the command queue holds work for a mite this gateway holds; payload ControllerRef. */
  public static String gatewayQueuedNotices(String cluster, String gatewayId) {
    return "varroa.gateway." + token(cluster) + "." + token(gatewayId) + ".queued";
  }

  /** Subject a one-shot command for this controller of this cluster is queued on. */
  public static String queuedCommands(String cluster, ControllerIdentity controller) {
    return "varroa.commands." + token(cluster) + "." + controller.routeKey();
  }

  /** Filter of every queued command subject: the subjects of {@link #COMMANDS_STREAM}. */
  public static String queuedCommandsFilter() {
    return "varroa.commands.>";
  }

  /** Subject the result of a queued command for this controller of this cluster is published on. */
  public static String queuedCommandResults(String cluster, ControllerIdentity controller) {
    return "varroa.results." + token(cluster) + "." + controller.routeKey();
  }

  /** Filter of every queued command result of one cluster: what that cluster's operator reads. */
  public static String queuedCommandResultsFilter(String cluster) {
    return "varroa.results." + token(cluster) + ".>";
  }

  /** Key of a Controller in {@link #LIVE_CONTROLLERS_BUCKET}: &lt;cluster&gt;.&lt;namespace&gt;.&lt;name&gt;. */
  public static String liveControllerKey(String cluster, ControllerIdentity controller) {
    return token(cluster) + "." + controller.routeKey();
  }

  /** Subject a gateway publishes a controller's build event groups on. */
  public static String builds(ControllerIdentity controller) {
    return "varroa.builds." + controller.routeKey();
  }

  /** Filter of every build events subject: the subjects of {@link #BUILDS_STREAM}. */
  public static String buildsFilter() {
    return "varroa.builds.>";
  }

  /** A gateway id made safe as one subject token and one KV key. */
  public static String token(String id) {
    return id.replaceAll("[^A-Za-z0-9_-]", "_");
  }
}

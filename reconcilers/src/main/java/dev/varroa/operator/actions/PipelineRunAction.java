package dev.varroa.operator.actions;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.channel.CommandQueue;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.RunJob;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline-run action the core's recorder forwards (docs/actions.md, "Run a pipeline"): finds the Team, its
 * pipeline and the cell hosting it, queues a RunJob for the cell's mite on JetStream (so it waits while the cell is
 * parked) and answers at once; the RunJob's result goes to the recorder later ({@link PipelineRunReporter}).
 */
public final class PipelineRunAction {

  public static final String VERB = "pipeline-run";
  /** Activity kind on the cell when a run is accepted (docs/activity.md). */
  public static final String REQUESTED = "pipeline.requested";
  /** Prefix of the RunJob's command id; the request id follows, so a resent request is one JetStream message. */
  public static final String COMMAND_PREFIX = "pipeline-run-";
  private static final Logger LOG = LoggerFactory.getLogger(PipelineRunAction.class);

  private final KubernetesClient client;
  private final String cluster;
  private final CommandQueue queue;
  private final PipelineRunReporter reporter;
  private final ActivityPublisher activity;
  private final PipelineRunSettings settings;
  private final Clock clock;

  /** @param queue the control channel's command queue; null refuses every run (an operator without a channel) */
  public PipelineRunAction(KubernetesClient client, String cluster, CommandQueue queue, PipelineRunReporter reporter,
      ActivityPublisher activity, PipelineRunSettings settings, Clock clock) {
    this.client = client;
    this.cluster = cluster;
    this.queue = queue;
    this.reporter = reporter;
    this.activity = activity;
    this.settings = settings;
    this.clock = clock;
  }

  /** What is wrong with the request before anything is read, or null. */
  public String problem(ActionRequest request) {
    if (request.getNamespace().isEmpty() || request.getName().isEmpty()) {
      return VERB + " needs the Team's namespace and name (namespace, name): varroactl run pipeline TEAM/PIPELINE -n"
          + " NAMESPACE";
    }
    if (request.getPipeline().isEmpty()) {
      return VERB + " needs the pipeline's name (pipeline), one of Team " + request.getNamespace() + "/"
          + request.getName() + "'s spec.pipelines";
    }
    String parameters = PipelineRunParameters.problem(request.getParametersMap());
    if (parameters != null) {
      return parameters;
    }
    if (queue == null) {
      return "the operator of cluster " + cluster + " runs without its control channel (VARROA_NATS_URL unset), so it"
          + " cannot send a job to a cell";
    }
    return null;
  }

  /** Queues the run when the Team, the pipeline and the cell are there; else refused naming what is missing. */
  public ActionResult.Builder act(ActionRequest request) {
    String which = request.getNamespace() + "/" + request.getName();
    Team team = client.resources(Team.class).inNamespace(request.getNamespace()).withName(request.getName()).get();
    if (team == null) {
      return refused(request, "no Team " + which + " in cluster " + cluster + "; varroactl get teams -n "
          + request.getNamespace() + " lists the Teams there").setNotFound(true);
    }
    String notCallable = notCallable(request, team);
    if (notCallable != null) {
      return refused(request, notCallable);
    }
    List<String> pipelines = team.getSpec() == null || team.getSpec().pipelines == null ? List.of()
        : team.getSpec().pipelines.stream().map(p -> p.name).filter(Objects::nonNull).toList();
    if (!pipelines.contains(request.getPipeline())) {
      return refused(request, "Team " + which + " has no pipeline '" + request.getPipeline() + "' in spec.pipelines; "
          + (pipelines.isEmpty() ? "it has none: add one to the Team" : "its pipelines: "
              + String.join(", ", pipelines))).setNotFound(true);
    }
    TeamStatus status = team.getStatus();
    if (status == null || status.cell == null || status.cell.isEmpty()) {
      String why = status == null || status.message == null || status.message.isEmpty()
          ? "it has no cell yet (status.cell is empty)" : status.message;
      return refused(request, "Team " + which + " is not placed: " + why);
    }
    String cellNamespace = status.cellNamespace == null || status.cellNamespace.isEmpty()
        ? TeamRef.poolNamespace(team) : status.cellNamespace;
    Controller cell = client.resources(Controller.class).inNamespace(cellNamespace).withName(status.cell).get();
    if (cell == null) {
      return refused(request, "Team " + which + " is placed on cell " + status.cell + ", but no Controller "
          + cellNamespace + "/" + status.cell + " exists in cluster " + cluster + "; its CellPool recreates it");
    }
    String job = TeamRef.folder(team) + "/" + request.getPipeline();
    ControllerIdentity identity = new ControllerIdentity(cellNamespace, status.cell, cell.getMetadata().getUid());
    Command command = Command.newBuilder().setCommandId(COMMAND_PREFIX + request.getRequestId())
        .setDeadlineEpochMillis(clock.instant().plus(settings.deadline()).toEpochMilli())
        .setRunJob(RunJob.newBuilder().setJob(job).addAllParameters(PipelineRunParameters.ordered(
            request.getParametersMap())).setReason(VERB + " " + which + "/" + request.getPipeline() + " by "
            + request.getUser() + ", request " + request.getRequestId()))
        .build();
    CompletableFuture<CommandResult> result = queue.queue(identity, command);
    reporter.reportWhenDone(new PipelineRunReporter.Run(request.getRequestId(), cluster, cellNamespace, status.cell,
        job), result, settings.deadlineText());
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("team", which);
    attributes.put("pipeline", request.getPipeline());
    attributes.put("job", job);
    attributes.put("requestedBy", request.getUser());
    attributes.put("requestId", request.getRequestId());
    // parameter values stay out of the feed: only how many there were
    attributes.put("parameters", String.valueOf(request.getParametersCount()));
    if (!request.getCallerTeam().isEmpty()) {
      attributes.put("callerTeam", request.getCallerTeam());
      attributes.put("callerCluster", request.getCallerCluster());
    }
    activity.controller(cellNamespace, status.cell, REQUESTED, request.getUser() + " requested pipeline "
        + request.getPipeline() + " of Team " + which + " (job " + job + ")", attributes);
    LOG.info("event=pipeline_run_queued_command cluster={} team={} pipeline={} cell={}/{} job={} request_id={}"
        + " parameters={}", cluster, which, request.getPipeline(), cellNamespace, status.cell, job,
        request.getRequestId(), request.getParametersCount());
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.ACCEPTED)
        .setMessage("pipeline " + request.getPipeline() + " of Team " + which + " goes to cell " + cellNamespace + "/"
            + status.cell + " as job " + job + "; the cell's Jenkins queues it within " + settings.deadlineText())
        .setNamespace(request.getNamespace()).setName(request.getName()).setCell(status.cell)
        .setCellNamespace(cellNamespace).setJob(job);
  }

  /**
   * Why the calling Team of a cross-tenant call may not run this Team's pipelines, or null (also for a run from the
   * core, which has no caller). spec.callableBy names no cluster: an entry allows that Team from any cluster.
   */
  static String notCallable(ActionRequest request, Team called) {
    if (request.getCallerTeam().isEmpty()) {
      return null;
    }
    String home = called.getMetadata().getNamespace();
    TeamRef caller = TeamRef.parse(request.getCallerTeam(), home);
    List<String> callableBy = called.getSpec() == null || called.getSpec().callableBy == null ? List.of()
        : called.getSpec().callableBy;
    if (callableBy.stream().filter(Objects::nonNull).anyMatch(entry -> TeamRef.parse(entry, home).equals(caller))) {
      return null;
    }
    String calledName = home + "/" + called.getMetadata().getName();
    return "Team " + calledName + " does not let Team " + caller.namespace() + "/" + caller.name()
        + " call its pipelines (spec.callableBy: [" + String.join(", ", callableBy) + "]); fix: add "
        + caller.key(home) + " to spec.callableBy of Team " + calledName;
  }

  private ActionResult.Builder refused(ActionRequest request, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(ClusterActionResponder.REFUSED)
        .setMessage(message).setNamespace(request.getNamespace()).setName(request.getName());
  }
}

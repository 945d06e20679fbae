package dev.varroa.operator.actions;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers varroa.clusters.&lt;cluster&gt;.actions in the operator replicas' queue group: the actions the BFF
 * authorized for this cluster (docs/actions.md): drain and cancel-drain, the BroodOperation verbs
 * ({@link BroodOperationActions}), cellpool-scale ({@link CellPoolScaleAction}) and pipeline-run
 * ({@link PipelineRunAction}). A request id already answered gets the first answer back and runs nothing; the core
 * cluster refuses to be drained.
 */
public final class ClusterActionResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterActionResponder.class);
  public static final String DRAIN = "drain";
  public static final String CANCEL_DRAIN = "cancel-drain";
  public static final String ACCEPTED = "accepted";
  public static final String DONE = "done";
  public static final String REFUSED = "refused";
  public static final String FAILED = "failed";
  public static final String DRAIN_STARTED = "cluster.drain_started";
  public static final String DRAIN_CANCELLED = "cluster.drain_cancelled";

  private final Connection nats;
  private final String cluster;
  private final ClusterRole role;
  private final ActionLedger ledger;
  private final ClusterDrain drain;
  private final ActivityPublisher activity;
  private final BroodOperationActions brood;
  private final CellPoolScaleAction cellPools;
  private final PipelineRunAction pipelineRuns;
  private Dispatcher dispatcher;

  public ClusterActionResponder(Connection nats, String cluster, ClusterRole role, ActionLedger ledger,
      ClusterDrain drain, ActivityPublisher activity, BroodOperationActions brood) {
    this(nats, cluster, role, ledger, drain, activity, brood, null);
  }

  /** @param cellPools the cellpool-scale action; null refuses it (a responder built before cells existed) */
  public ClusterActionResponder(Connection nats, String cluster, ClusterRole role, ActionLedger ledger,
      ClusterDrain drain, ActivityPublisher activity, BroodOperationActions brood, CellPoolScaleAction cellPools) {
    this(nats, cluster, role, ledger, drain, activity, brood, cellPools, null);
  }

  /** @param pipelineRuns the pipeline-run action; null refuses it (a responder built before pipelines ran) */
  public ClusterActionResponder(Connection nats, String cluster, ClusterRole role, ActionLedger ledger,
      ClusterDrain drain, ActivityPublisher activity, BroodOperationActions brood, CellPoolScaleAction cellPools,
      PipelineRunAction pipelineRuns) {
    this.brood = brood;
    this.cellPools = cellPools;
    this.pipelineRuns = pipelineRuns;
    this.nats = nats;
    this.cluster = cluster;
    this.role = role;
    this.ledger = ledger;
    this.drain = drain;
    this.activity = activity;
  }

  public synchronized void start() {
    dispatcher = nats.createDispatcher(this::answer);
    dispatcher.subscribe(BusNames.clusterActions(cluster), BusNames.OPERATOR_QUEUE_GROUP);
  }

  private void answer(Message request) {
    if (request.getReplyTo() == null) {
      return;
    }
    ActionResult result;
    try {
      result = act(ActionRequest.parseFrom(request.getData()));
    } catch (InvalidProtocolBufferException e) {
      result = ActionResult.newBuilder().setOutcome(REFUSED).setMessage("not an ActionRequest: " + e.getMessage())
          .build();
    } catch (RuntimeException e) {
      LOG.warn("event=cluster_action_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      result = ActionResult.newBuilder().setOutcome(FAILED).setMessage("the operator of cluster " + cluster
          + " could not act: " + e.getMessage()).build();
    }
    nats.publish(request.getReplyTo(), result.toByteArray());
  }

  /** Decides and runs one action; the result is remembered under its request id unless it was a preview. */
  ActionResult act(ActionRequest request) {
    String problem = problem(request);
    if (problem != null) {
      return result(request, REFUSED, problem).build();
    }
    if (BroodOperationActions.VERBS.contains(request.getVerb())) {
      return broodAction(request);
    }
    if (CellPoolScaleAction.VERB.equals(request.getVerb())) {
      return cellPoolAction(request);
    }
    if (PipelineRunAction.VERB.equals(request.getVerb())) {
      return pipelineRunAction(request);
    }
    if (role == ClusterRole.CORE) {
      return result(request, REFUSED, "cluster " + cluster + " is the core cluster: it runs the BFF, the recorder"
          + " and NATS every member needs, so it is never drained; drain member clusters only").build();
    }
    if (request.getPreview()) {
      var controllers = drain.controllers();
      return result(request, DONE, controllers.size() + " Controllers would be deleted")
          .setControllersLeft(controllers.size())
          .addAllVolumes(drain.volumes().fates(controllers)).build();
    }
    var before = ledger.answered(request.getRequestId());
    if (before.isPresent()) {
      return before.get().toBuilder().setReplayed(true).build();
    }
    ActionResult result = DRAIN.equals(request.getVerb()) ? startDrain(request) : cancelDrain(request);
    ledger.remember(result);
    drain.nudge();
    LOG.info("event=cluster_action cluster={} verb={} request_id={} user={} outcome={}", cluster, request.getVerb(),
        request.getRequestId(), request.getUser(), result.getOutcome());
    return result;
  }

  /** A BroodOperation verb: no preview, remembered under its request id like a drain. */
  private ActionResult broodAction(ActionRequest request) {
    String problem = brood.problem(request);
    if (problem != null) {
      return result(request, REFUSED, problem).build();
    }
    if (request.getPreview()) {
      return result(request, REFUSED, request.getVerb() + " has no preview; broodop create --dry-run lists the targets"
          + " of an operation without touching them").build();
    }
    var before = ledger.answered(request.getRequestId());
    if (before.isPresent()) {
      return before.get().toBuilder().setReplayed(true).build();
    }
    ActionResult result = brood.act(request).build();
    ledger.remember(result);
    LOG.info("event=cluster_action cluster={} verb={} request_id={} user={} namespace={} name={} outcome={}", cluster,
        request.getVerb(), request.getRequestId(), request.getUser(), result.getNamespace(), result.getName(),
        result.getOutcome());
    return result;
  }

  /** cellpool-scale: no preview, remembered under its request id like the brood verbs. */
  private ActionResult cellPoolAction(ActionRequest request) {
    String problem = cellPools == null ? "the operator of cluster " + cluster + " does not scale CellPools" : cellPools
        .problem(request);
    if (problem != null) {
      return result(request, REFUSED, problem).build();
    }
    if (request.getPreview()) {
      return result(request, REFUSED, CellPoolScaleAction.VERB + " has no preview; varroactl get cellpools shows the"
          + " pool's cells and load").build();
    }
    var before = ledger.answered(request.getRequestId());
    if (before.isPresent()) {
      return before.get().toBuilder().setReplayed(true).build();
    }
    ActionResult result = cellPools.act(request).build();
    ledger.remember(result);
    LOG.info("event=cluster_action cluster={} verb={} request_id={} user={} namespace={} name={} replicas={}"
        + " outcome={}", cluster, request.getVerb(), request.getRequestId(), request.getUser(), request.getNamespace(),
        request.getName(), request.getReplicas(), result.getOutcome());
    return result;
  }

  /** pipeline-run: no preview; remembered under its request id, so a resent request queues nothing again. */
  private ActionResult pipelineRunAction(ActionRequest request) {
    String problem = pipelineRuns == null ? "the operator of cluster " + cluster + " does not run pipelines"
        : pipelineRuns.problem(request);
    if (problem != null) {
      return result(request, REFUSED, problem).build();
    }
    if (request.getPreview()) {
      return result(request, REFUSED, PipelineRunAction.VERB + " has no preview; varroactl get teams shows a Team's"
          + " pipelines and its cell").build();
    }
    var before = ledger.answered(request.getRequestId());
    if (before.isPresent()) {
      return before.get().toBuilder().setReplayed(true).build();
    }
    ActionResult result = pipelineRuns.act(request).build();
    ledger.remember(result);
    LOG.info("event=cluster_action cluster={} verb={} request_id={} user={} namespace={} name={} pipeline={}"
        + " outcome={}", cluster, request.getVerb(), request.getRequestId(), request.getUser(), request.getNamespace(),
        request.getName(), request.getPipeline(), result.getOutcome());
    return result;
  }

  private ActionResult startDrain(ActionRequest request) {
    int left = drain.controllers().size();
    if (ledger.drain().state() == DrainState.DRAINING) {
      return result(request, ACCEPTED, "cluster " + cluster + " is already draining (" + left + " Controllers left)")
          .setState(DrainState.DRAINING.value()).setControllersLeft(left).build();
    }
    ledger.setDrain(DrainState.DRAINING, request.getUser());
    activity.global(DRAIN_STARTED, request.getUser() + " started draining cluster " + cluster,
        Map.of("requestId", request.getRequestId(), "user", request.getUser(), "controllers", String.valueOf(left)));
    return result(request, ACCEPTED, "cluster " + cluster + " is draining: " + left
        + " Controllers to delete, one by one").setState(DrainState.DRAINING.value()).setControllersLeft(left)
        .build();
  }

  private ActionResult cancelDrain(ActionRequest request) {
    DrainState state = ledger.drain().state();
    int left = drain.controllers().size();
    if (state != DrainState.DRAINING) {
      return result(request, REFUSED, "cluster " + cluster + " is not draining (state "
          + (state == DrainState.NONE ? "none" : state.value()) + "); nothing to cancel")
          .setState(state.value()).setControllersLeft(left).build();
    }
    ledger.setDrain(DrainState.CANCELLED, request.getUser());
    activity.global(DRAIN_CANCELLED, request.getUser() + " cancelled the drain of cluster " + cluster,
        Map.of("requestId", request.getRequestId(), "user", request.getUser(), "left", String.valueOf(left)));
    return result(request, DONE, "drain of cluster " + cluster + " cancelled: " + left + " Controllers stay;"
        + " the ones already deleted stay deleted").setState(DrainState.CANCELLED.value()).setControllersLeft(left)
        .build();
  }

  private String problem(ActionRequest request) {
    try {
      UUID.fromString(request.getRequestId());
    } catch (IllegalArgumentException e) {
      return "request_id '" + request.getRequestId() + "' is not a UUID; send a fresh UUID per action";
    }
    if (!DRAIN.equals(request.getVerb()) && !CANCEL_DRAIN.equals(request.getVerb())
        && !BroodOperationActions.VERBS.contains(request.getVerb())
        && !CellPoolScaleAction.VERB.equals(request.getVerb()) && !PipelineRunAction.VERB.equals(request.getVerb())) {
      return "verb '" + request.getVerb() + "' is not an action of cluster " + cluster + "; use drain or"
          + " cancel-drain, " + CellPoolScaleAction.VERB + ", " + PipelineRunAction.VERB + ", or a BroodOperation verb: "
          + String.join(", ", new java.util.TreeSet<>(BroodOperationActions.VERBS));
    }
    if (!cluster.equals(request.getCluster())) {
      return "the action names cluster '" + request.getCluster() + "' but reached cluster " + cluster;
    }
    return null;
  }

  private ActionResult.Builder result(ActionRequest request, String outcome, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(outcome).setMessage(message)
        .setState(drain.state().value());
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
  }
}

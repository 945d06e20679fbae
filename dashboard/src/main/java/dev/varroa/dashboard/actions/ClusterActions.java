package dev.varroa.dashboard.actions;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.dashboard.access.Forbidden;
import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Target;
import dev.varroa.dashboard.clusters.ClusterRoster;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.VolumeFate;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.impl.Headers;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out an action for a caller: authorizes it with their VarroaRoleBindings, refuses the core cluster and an
 * unregistered one, sends it over NATS to the target cluster's operator, and records a user-action activity event
 * (who, what, target, outcome) for every action that was not a preview or a replay.
 */
public final class ClusterActions {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterActions.class);
  /** How long the target's operator has to answer; a drain answers once it is recorded, not once it is done. */
  public static final Duration OPERATOR_ANSWER_WAIT = Duration.ofSeconds(5);
  /** How long the recorder has to answer a pipeline-run: it asks the cell to wake, then the operator (docs/pipelines.md). */
  public static final Duration RECORDER_ANSWER_WAIT = Duration.ofSeconds(12);
  /** The activity kind of the audit event. */
  public static final String USER_ACTION = "user.action";

  private final Supplier<Connection> nats;
  private final ClusterRoster roster;
  private final String coreCluster;
  private final Function<dev.varroa.dashboard.identity.Caller, Grants> grants;
  private final Clock clock;

  public ClusterActions(Supplier<Connection> nats, String coreCluster,
      Function<dev.varroa.dashboard.identity.Caller, Grants> grants, Clock clock) {
    this.nats = nats;
    this.roster = new ClusterRoster(nats);
    this.coreCluster = coreCluster;
    this.grants = grants;
    this.clock = clock;
  }

  /** The answer body of an action that was carried out (or previewed, or replayed). */
  public Map<String, Object> run(Action action) throws ActionRefused {
    try {
      Map<String, Object> answer = decide(action);
      if (!action.preview() && !Boolean.TRUE.equals(answer.get("replayed"))) {
        audit(action, (String) answer.get("outcome"), (String) answer.get("message"));
      }
      return answer;
    } catch (ActionRefused refused) {
      // a replayed refusal was audited when it was first answered
      if (!action.preview() && !Boolean.TRUE.equals(refused.body().get("replayed"))) {
        audit(action, refused.outcome(), refused.getMessage());
      }
      throw refused;
    }
  }

  private Map<String, Object> decide(Action action) throws ActionRefused {
    String cluster = action.target().cluster();
    try {
      Grants granted = grants.apply(action.caller());
      // pipeline-run: trigger pipelines on the Team's namespace, whichever cell (and namespace) hosts it
      granted.require(action.verb().permission(), action.verb().namespaced()
          ? Target.namespaced(cluster, action.target().namespace()) : Target.cluster(cluster));
      if (action.verb() == ActionVerb.BROODOP_CREATE) {
        // the operation acts where its targets are, not where it is stored
        for (Target reached : BroodTargetReach.of(action.manifest(), cluster)) {
          granted.require(action.verb().permission(), reached);
        }
      }
    } catch (Forbidden denied) {
      throw ActionRefused.forbidden(denied);
    }
    if (action.verb().namespaced()) {
      return sendNamespaced(action);
    }
    if (cluster.equals(coreCluster)) {
      throw ActionRefused.conflict("cluster " + cluster + " is the core cluster: it runs the BFF, the recorder and"
          + " the NATS every member needs, so it is never drained; drain member clusters only", Map.of());
    }
    if (registered().stream().noneMatch(p -> p.getName().equals(cluster))) {
      throw ActionRefused.notFound("cluster " + cluster + " is not registered (or its operator stopped refreshing"
          + " its entry); `varroactl get clusters` lists the registered ones");
    }
    ActionResult result = send(action);
    Map<String, Object> answer = body(action, result);
    if (ClusterActionOutcome.REFUSED.equals(result.getOutcome())) {
      throw ActionRefused.conflict(result.getMessage(), answer);
    }
    if (ClusterActionOutcome.FAILED.equals(result.getOutcome())) {
      throw ActionRefused.unavailable(result.getMessage());
    }
    return answer;
  }

  /** A verb on one object (a BroodOperation, a CellPool): any registered cluster, the core included. */
  private Map<String, Object> sendNamespaced(Action action) throws ActionRefused {
    String cluster = action.target().cluster();
    if (registered().stream().noneMatch(p -> p.getName().equals(cluster))) {
      throw ActionRefused.notFound("cluster " + cluster + " is not registered (or its operator stopped refreshing"
          + " its entry); `varroactl get clusters` lists the registered ones");
    }
    ActionResult result = send(action);
    Map<String, Object> answer = body(action, result);
    if (ClusterActionOutcome.REFUSED.equals(result.getOutcome())) {
      if (result.getNotFound()) {
        throw ActionRefused.notFound(result.getMessage(), answer);
      }
      throw ActionRefused.conflict(result.getMessage(), answer);
    }
    if (ClusterActionOutcome.FAILED.equals(result.getOutcome())) {
      throw ActionRefused.unavailable(result.getMessage());
    }
    return answer;
  }

  private List<ClusterPresence> registered() throws ActionRefused {
    try {
      return roster.clusters();
    } catch (java.io.IOException | io.nats.client.JetStreamApiException e) {
      throw ActionRefused.unavailable("the cluster registry could not be read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ActionRefused.unavailable("interrupted");
    }
  }

  private ActionResult send(Action action) throws ActionRefused {
    ActionRequest.Builder request = ActionRequest.newBuilder()
        .setRequestId(action.requestId())
        .setVerb(action.verb().value())
        .setCluster(action.target().cluster())
        .setNamespace(action.target().namespace())
        .setName(action.target().name())
        .setUser(action.caller().user())
        .addAllGroups(action.caller().groups())
        .setPreview(action.preview())
        .setManifestYaml(action.manifest());
    action.replicas().ifPresent(request::setReplicas);
    if (action.verb() == ActionVerb.PIPELINE_RUN) {
      return sendToRecorder(action, request.setPipeline(action.pipeline()).putAllParameters(action.parameters())
          .build());
    }
    String subject = BusNames.clusterActions(action.target().cluster());
    try {
      Message reply = nats.get().requestWithTimeout(subject, request.build().toByteArray(), OPERATOR_ANSWER_WAIT)
          .get(OPERATOR_ANSWER_WAIT.toMillis() + 100, TimeUnit.MILLISECONDS);
      return ActionResult.parseFrom(reply.getData());
    } catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException e) {
      throw ActionRefused.unavailable("the operator of cluster " + action.target().cluster() + " did not answer "
          + subject + " within " + OPERATOR_ANSWER_WAIT.toSeconds() + " s; nothing is known to have run: retry with"
          + " the same request id " + action.requestId());
    } catch (InvalidProtocolBufferException e) {
      throw ActionRefused.unavailable("the operator of cluster " + action.target().cluster()
          + " answered something that is not an ActionResult: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ActionRefused.unavailable("interrupted");
    }
  }

  /**
   * A pipeline-run goes to the recorder, which records it, wakes the cell and asks the operator: without a recorder
   * (no record store) nothing can carry it, which NATS says at once (no responders).
   */
  private ActionResult sendToRecorder(Action action, ActionRequest request) throws ActionRefused {
    String subject = BusNames.PIPELINE_RUNS_SUBJECT;
    try {
      Message reply = nats.get().requestWithTimeout(subject, request.toByteArray(), RECORDER_ANSWER_WAIT)
          .get(RECORDER_ANSWER_WAIT.toMillis() + 100, TimeUnit.MILLISECONDS);
      return ActionResult.parseFrom(reply.getData());
    } catch (java.util.concurrent.CancellationException e) {
      throw ActionRefused.noResponder("no recorder answers " + subject + ": is recordStore.enabled? A pipeline run"
          + " is recorded before it is sent; nothing was sent for request " + action.requestId());
    } catch (TimeoutException | ExecutionException e) {
      if (e.getCause() instanceof java.util.concurrent.CancellationException
          || e.getCause() instanceof io.nats.client.JetStreamStatusException) {
        throw ActionRefused.noResponder("no recorder answers " + subject + ": is recordStore.enabled? A pipeline run"
            + " is recorded before it is sent; nothing was sent for request " + action.requestId());
      }
      throw ActionRefused.unavailable("the recorder did not answer " + subject + " within "
          + RECORDER_ANSWER_WAIT.toSeconds() + " s; the run may have been sent: ask `varroactl run pipeline ... "
          + "--request-id " + action.requestId() + "` again (the same id never runs twice)");
    } catch (InvalidProtocolBufferException e) {
      throw ActionRefused.unavailable("the recorder answered something that is not an ActionResult: "
          + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ActionRefused.unavailable("interrupted");
    }
  }

  static Map<String, Object> body(Action action, ActionResult result) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("requestId", action.requestId());
    out.put("verb", action.verb().value());
    if (action.verb().namespaced()) {
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("cluster", action.target().cluster());
      // what the operator created or changed: a create names it only here
      target.put("namespace", result.getNamespace().isEmpty() ? action.target().namespace() : result.getNamespace());
      target.put("name", result.getName().isEmpty() ? action.target().name() : result.getName());
      out.put("target", target);
    } else {
      out.put("target", Map.of("cluster", action.target().cluster()));
    }
    action.replicas().ifPresent(replicas -> out.put("replicas", replicas));
    if (action.verb() == ActionVerb.PIPELINE_RUN) {
      out.put("pipeline", action.pipeline());
      out.put("cell", result.getCell());
      out.put("cellNamespace", result.getCellNamespace());
      out.put("job", result.getJob());
      out.put("wake", result.getWake());
    }
    out.put("preview", action.preview());
    out.put("outcome", result.getOutcome());
    out.put("message", result.getMessage());
    out.put("state", result.getState());
    out.put("controllersLeft", result.getControllersLeft());
    out.put("replayed", result.getReplayed());
    List<Map<String, Object>> volumes = new ArrayList<>();
    for (VolumeFate fate : result.getVolumesList()) {
      Map<String, Object> volume = new LinkedHashMap<>();
      volume.put("namespace", fate.getNamespace());
      volume.put("controller", fate.getController());
      volume.put("claim", fate.getClaim());
      volume.put("storageClass", fate.getStorageClass());
      volume.put("volume", fate.getVolume());
      volume.put("reclaimPolicy", fate.getReclaimPolicy());
      volumes.add(volume);
    }
    out.put("volumes", volumes);
    return out;
  }

  /** A pipeline-run's pipeline and its parameters' names: values may be anything the user typed, so never audited. */
  private static Map<String, String> runAttributes(Action action) {
    if (action.verb() != ActionVerb.PIPELINE_RUN) {
      return Map.of();
    }
    return Map.of("pipeline", action.pipeline(), "parameters", String.join(",", action.parameters().keySet()));
  }

  /**
   * The user-action event on the core's installation-wide activity subject: the actor is the user, the attributes
   * say what, on which target, and how it ended. Published at once, not queued: an audit event is not dropped silently.
   */
  private void audit(Action action, String outcome, String message) {
    ActivityEvent event = ActivityEvent.newBuilder()
        .setId(UUID.randomUUID().toString())
        .setCluster(coreCluster)
        .setKind(USER_ACTION)
        .setActor(action.caller().user())
        .setSummary(action.caller().user() + " " + action.verb().value() + " " + action.target().describe() + ": "
            + outcome)
        .setOccurredAtEpochMillis(clock.millis())
        .putAttributes("requestId", action.requestId())
        .putAttributes("verb", action.verb().value())
        .putAttributes("targetCluster", action.target().cluster())
        .putAttributes("targetNamespace", action.target().namespace())
        .putAttributes("targetName", action.target().name())
        .putAttributes("outcome", outcome)
        .putAllAttributes(action.replicas().map(r -> Map.of("replicas", String.valueOf(r))).orElse(Map.of()))
        .putAllAttributes(runAttributes(action))
        .putAttributes("message", message == null ? "" : message)
        .putAttributes("groups", String.join(",", action.caller().groups()))
        .build();
    try {
      nats.get().publish(BusNames.activityGlobal(coreCluster), new Headers()
          .put(ActivityPublisher.MESSAGE_ID_HEADER, event.getId()), event.toByteArray());
    } catch (RuntimeException e) {
      LOG.error("event=user_action_audit_failed request_id={} user={} verb={} target={} outcome={} error=\"{}\"",
          action.requestId(), action.caller().user(), action.verb().value(), action.target().cluster(), outcome,
          e.getMessage());
      return;
    }
    LOG.info("event=user_action request_id={} user={} verb={} target={} outcome={}", action.requestId(),
        action.caller().user(), action.verb().value(), action.target().cluster(), outcome);
  }
}

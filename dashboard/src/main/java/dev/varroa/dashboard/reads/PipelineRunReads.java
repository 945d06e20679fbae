package dev.varroa.dashboard.reads;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.dashboard.access.Forbidden;
import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.access.Target;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * GET /pipeline-runs/{requestId} (docs/dashboard-api.md): where a requested pipeline run is, as the recorder joins its
 * request with the run. The caller needs get runs or trigger pipelines on the request's Team namespace.
 */
public final class PipelineRunReads {

  /** The recorder answers from one indexed row and its run. */
  public static final Duration RECORDER_ANSWER_WAIT = Duration.ofSeconds(5);
  static final Permission GET_RUNS = Permission.of(Permission.GET, Permission.RUNS);
  static final Permission TRIGGER_PIPELINES = Permission.of(Permission.TRIGGER, Permission.PIPELINES);

  private final Supplier<Connection> nats;
  private final java.util.function.Function<Caller, Grants> grants;

  public PipelineRunReads(Supplier<Connection> nats, java.util.function.Function<Caller, Grants> grants) {
    this.nats = nats;
    this.grants = grants;
  }

  public Map<String, Object> status(Caller caller, String requestId) throws ReadRefused {
    String id = requestId(requestId);
    Grants granted = grants.apply(caller);
    if (!granted.anywhere(GET_RUNS) && !granted.anywhere(TRIGGER_PIPELINES)) {
      throw forbidden(granted, java.util.Optional.empty(), "no binding grants " + GET_RUNS + " or " + TRIGGER_PIPELINES
          + " anywhere; a pipeline run's status needs one of them on the Team's namespace");
    }
    PipelineRunStatus status = ask(id);
    if (status.getState().isEmpty()) {
      throw ReadRefused.notFound("no pipeline run was requested with id " + id + "; `varroactl run pipeline` prints"
          + " the id of the run it requested");
    }
    Target team = Target.namespaced(status.getCluster(), status.getNamespace());
    if (!granted.allows(GET_RUNS, team) && !granted.allows(TRIGGER_PIPELINES, team)) {
      throw forbidden(granted, java.util.Optional.of(team), "pipeline run " + id + " is Team " + status.getNamespace() + "/"
          + status.getTeam() + "'s in cluster " + status.getCluster() + ": reading it needs " + GET_RUNS + " or "
          + TRIGGER_PIPELINES + " on namespace " + status.getNamespace());
    }
    return body(status);
  }

  private static ReadRefused forbidden(Grants granted, java.util.Optional<Target> target, String message) {
    return ReadRefused.forbidden(new Forbidden(message + " (bindings of " + granted.caller().user() + ": "
        + (granted.bindings().isEmpty() ? "none" : String.join(", ", granted.bindings())) + "); fix: add a rule with"
        + " verbs [trigger] and resources [pipelines] (or verbs [get] and resources [runs]) to a bound VarroaRole",
        GET_RUNS, target));
  }

  private static String requestId(String requestId) throws ReadRefused {
    try {
      UUID parsed = UUID.fromString(requestId);
      if (parsed.toString().equalsIgnoreCase(requestId)) {
        return requestId.toLowerCase(Locale.ROOT);
      }
    } catch (IllegalArgumentException e) {
      // answered below with the parameter's name
    }
    throw ReadRefused.badParameter("requestId", "requestId '" + requestId + "' is not a UUID; give the id"
        + " `varroactl run pipeline` printed (or the requestId the run was POSTed with)");
  }

  private PipelineRunStatus ask(String id) throws ReadRefused {
    String subject = BusNames.PIPELINE_RUN_STATUS_SUBJECT;
    try {
      Message reply = nats.get().requestWithTimeout(subject, PipelineRunStatusRequest.newBuilder().setRequestId(id)
          .build().toByteArray(), RECORDER_ANSWER_WAIT)
          .get(RECORDER_ANSWER_WAIT.toMillis() + 100, TimeUnit.MILLISECONDS);
      return PipelineRunStatus.parseFrom(reply.getData());
    } catch (CancellationException e) {
      throw noRecorder(subject);
    } catch (ExecutionException | TimeoutException e) {
      if (e.getCause() instanceof CancellationException
          || e.getCause() instanceof io.nats.client.JetStreamStatusException) {
        throw noRecorder(subject);
      }
      throw ReadRefused.unavailable("the recorder did not answer " + subject + " within "
          + RECORDER_ANSWER_WAIT.toSeconds() + " s; ask again");
    } catch (InvalidProtocolBufferException e) {
      throw ReadRefused.unavailable("the recorder answered something that is not a PipelineRunStatus: "
          + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }

  private static ReadRefused noRecorder(String subject) {
    return ReadRefused.unavailable("no recorder answers " + subject + ": is recordStore.enabled? Pipeline runs are"
        + " recorded there");
  }

  /** The status as JSON, field names in camelCase as the API's other reads. */
  static Map<String, Object> body(PipelineRunStatus status) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("requestId", status.getRequestId());
    out.put("state", status.getState());
    out.put("message", status.getMessage());
    out.put("cluster", status.getCluster());
    out.put("namespace", status.getNamespace());
    out.put("team", status.getTeam());
    out.put("pipeline", status.getPipeline());
    out.put("cellNamespace", status.getCellNamespace());
    out.put("cell", status.getCell());
    out.put("job", status.getJob());
    out.put("queueId", status.getQueueId());
    out.put("runId", status.getRunId());
    out.put("buildNumber", status.getBuildNumber());
    out.put("result", status.getResult());
    out.put("requestedBy", status.getRequestedBy());
    out.put("requestedAtEpochMillis", status.getRequestedAtEpochMillis());
    out.put("startedAtEpochMillis", status.getStartedAtEpochMillis());
    out.put("finishedAtEpochMillis", status.getFinishedAtEpochMillis());
    out.put("durationMillis", status.getDurationMillis());
    out.put("wake", status.getWake());
    return out;
  }
}

package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.CellFolders;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineCall;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.recorder.store.DatabaseErrors;
import dev.varroa.recorder.store.PipelineRequests;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cross-tenant pipeline calls (docs/pipelines.md, "Call another team's pipeline"), in the queue group
 * {@code varroa-recorder}: a call from a cell's build becomes the pipeline-run request of the called Team, with the
 * call's id as its request id and the calling Team derived here from the calling job's folder (never taken from the
 * call), and is answered with where that run is. The called Team's operator decides whether the caller may.
 */
final class PipelineCallsResponder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineCallsResponder.class);
  static final String OK = "OK";
  static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
  static final String UNAVAILABLE = "UNAVAILABLE";
  /** A call waits for a wake and an operator, as a run from the core does; status questions only read PostgreSQL. */
  static final int CALL_WORKERS = 4;

  private final PipelineRunsResponder runs;
  private final PipelineRequests requests;
  private final String dashboardUrl;
  private final ExecutorService callWorkers = PipelineRunsResponder.workers("varroa-recorder-pipeline-calls",
      CALL_WORKERS);
  private final ExecutorService statusWorkers = PipelineRunsResponder.workers("varroa-recorder-pipeline-call-status",
      PipelineRunsResponder.STATUS_WORKERS);
  private volatile Dispatcher dispatcher;

  /** @param dashboardUrl the core dashboard's public URL, "" when unknown (answers then carry no link) */
  PipelineCallsResponder(PipelineRunsResponder runs, PipelineRequests requests, String dashboardUrl) {
    this.runs = runs;
    this.requests = requests;
    this.dashboardUrl = dashboardUrl;
  }

  /** Subscribes on the connection; called again with a replacement connection. */
  void subscribe(Connection connection) {
    Dispatcher next = connection.createDispatcher(message -> {
      boolean statusOnly = isStatusOnly(message.getData());
      (statusOnly ? statusWorkers : callWorkers).execute(() -> PipelineRunsResponder.reply(connection, message,
          call(connection, message.getData()).toByteArray()));
    });
    next.subscribe(BusNames.PIPELINE_CALLS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    dispatcher = next;
    LOG.info("event=pipeline_calls_subscribed subject={} queueGroup={}", BusNames.PIPELINE_CALLS_SUBJECT,
        BusNames.RECORDER_QUEUE_GROUP);
  }

  private static boolean isStatusOnly(byte[] data) {
    try {
      return PipelineCall.parseFrom(data).getStatusOnly();
    } catch (InvalidProtocolBufferException e) {
      return true; // answered at once with what is wrong: no need to hold a call worker
    }
  }

  /** A call (or, status_only, a question about one) as the calling cell's gateway sent it. */
  PipelineCallAnswer call(Connection connection, byte[] data) {
    PipelineCall asked;
    try {
      asked = PipelineCall.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      return invalid("the request is not a varroa.bus.v1.PipelineCall: " + e.getMessage());
    }
    Optional<String> problem = problem(asked);
    if (problem.isPresent()) {
      LOG.warn("event=pipeline_call_invalid call={} problem=\"{}\"", asked.getCall().getCallId(), problem.get());
      return invalid(problem.get());
    }
    PipelineCallRequest call = asked.getCall();
    String callerController = asked.getController().getNamespace() + "/" + asked.getController().getName();
    UUID id = UUID.fromString(call.getCallId());
    // a question names only the call_id: the cell that asks must be the one that called
    if (asked.getStatusOnly()) {
      return whereItIs(id, asked.getCluster(), callerController, PipelineCallAnswer.newBuilder().setState("failed")
          .setCode(OK).setMessage("no pipeline call " + id + " is recorded: the step starts a call with a fresh"
              + " call_id before asking where it is").build());
    }
    Optional<String> callerNamespace = CellFolders.teamNamespace(call.getJob(), asked.getController().getNamespace());
    if (callerNamespace.isEmpty()) {
      return refused("the calling job " + call.getJob() + " is in no Team's folder on cell " + callerController
          + " of cluster " + asked.getCluster() + ": only a Team's pipeline may call another Team's pipeline");
    }
    String folder = call.getJob().substring(0, call.getJob().indexOf('/'));
    String callerTeam = callerNamespace.get() + "/" + folder.substring(folder.indexOf('_') + 1);
    String calleeCluster = call.getCluster().isEmpty() ? asked.getCluster() : call.getCluster();
    int slash = call.getTeam().indexOf('/');
    String calleeNamespace = slash < 0 ? callerNamespace.get() : call.getTeam().substring(0, slash);
    String calleeName = call.getTeam().substring(slash + 1);
    ActionResult result = runs.request(connection, ActionRequest.newBuilder()
        .setRequestId(call.getCallId()).setVerb(PipelineRunsResponder.VERB).setCluster(calleeCluster)
        .setNamespace(calleeNamespace).setName(calleeName).setPipeline(call.getPipeline())
        .putAllParameters(call.getParametersMap())
        .setUser("team " + callerTeam + " (cluster " + asked.getCluster() + ", job " + call.getJob() + " run "
            + call.getRunId() + ")")
        .setCallerTeam(callerTeam).setCallerCluster(asked.getCluster())
        .build(), callerController);
    LOG.info("event=pipeline_call caller={} caller_cluster={} call={} callee={}/{} cluster={} pipeline={} outcome={}"
        + " replayed={}", callerTeam, asked.getCluster(), call.getCallId(), calleeNamespace, calleeName,
        calleeCluster, call.getPipeline(), result.getOutcome(), result.getReplayed());
    // not recorded: refused before (a bad parameter), or the record store failed (the step sends the call again)
    PipelineCallAnswer unrecorded = "refused".equals(result.getOutcome()) ? refused(result.getMessage())
        : PipelineCallAnswer.newBuilder().setState("").setCode(UNAVAILABLE).setMessage(result.getMessage()).build();
    return whereItIs(id, asked.getCluster(), callerController, unrecorded);
  }

  /** The recorded call's state, for the cell that made it only; unrecorded when no call has this id. */
  private PipelineCallAnswer whereItIs(UUID id, String cluster, String controller, PipelineCallAnswer unrecorded) {
    try {
      Optional<PipelineRequests.Caller> caller = requests.caller(id);
      Optional<PipelineRunStatus> status = requests.status(id);
      if (caller.isEmpty() || status.isEmpty()) {
        return unrecorded;
      }
      if (!caller.get().cluster().equals(cluster) || !caller.get().controller().equals(controller)) {
        LOG.warn("event=pipeline_call_not_yours call={} asker={}/{} caller={}/{}", id, cluster, controller,
            caller.get().cluster(), caller.get().controller());
        return refused("not your call: pipeline call " + id + " was made by another cell; a step reads only the calls"
            + " it made");
      }
      return answer(status.get(), "refused".equals(caller.get().outcome()));
    } catch (SQLException e) {
      LOG.warn("event=pipeline_call_unreadable call={} error=\"{}\"", id, DatabaseErrors.describe(e));
      return PipelineCallAnswer.newBuilder().setState("").setCode(UNAVAILABLE).setMessage("the record store cannot"
          + " be read now (" + DatabaseErrors.describe(e) + "); the step asks again").build();
    }
  }

  private PipelineCallAnswer answer(PipelineRunStatus status, boolean refused) {
    PipelineCallAnswer.Builder answer = PipelineCallAnswer.newBuilder()
        .setState(refused ? "refused" : status.getState()).setCode(OK).setMessage(status.getMessage())
        .setCluster(status.getCluster()).setNamespace(status.getNamespace()).setTeam(status.getTeam())
        .setPipeline(status.getPipeline()).setRunId(status.getRunId()).setBuildNumber(status.getBuildNumber())
        .setResult(status.getResult());
    if (!dashboardUrl.isEmpty() && !status.getRunId().isEmpty()) {
      answer.setUrl(dashboardUrl + "/ui/runs/" + status.getRunId());
    }
    return answer.build();
  }

  /** What is wrong with a call, naming the field and the fix; empty when it can be handled. */
  static Optional<String> problem(PipelineCall asked) {
    if (asked.getController().getNamespace().isEmpty() || asked.getController().getName().isEmpty()
        || asked.getCluster().isEmpty()) {
      return Optional.of("PipelineCall.controller and PipelineCall.cluster must name the calling cell as its gateway"
          + " authenticated it");
    }
    PipelineCallRequest call = asked.getCall();
    if (!PipelineRequests.isUuid(call.getCallId())) {
      return Optional.of("PipelineCallRequest.call_id '" + call.getCallId() + "' is not a UUID: send a fresh UUID"
          + " per call");
    }
    if (asked.getStatusOnly()) {
      return Optional.empty();
    }
    String[][] required = {{"job", call.getJob(), "the calling job's full name"},
        {"team", call.getTeam(), "the called Team, name or namespace/name"},
        {"pipeline", call.getPipeline(), "a pipeline of the called Team's spec.pipelines"}};
    for (String[] field : required) {
      if (field[1].isEmpty()) {
        return Optional.of("PipelineCallRequest." + field[0] + " of call " + call.getCallId() + " is empty: set it to "
            + field[2]);
      }
    }
    String team = call.getTeam();
    int slash = team.indexOf('/');
    if (slash == 0 || slash == team.length() - 1 || team.indexOf('/', slash + 1) >= 0) {
      return Optional.of("PipelineCallRequest.team '" + team + "' of call " + call.getCallId() + " is not a Team:"
          + " give name (a Team of the calling Team's namespace) or namespace/name");
    }
    return Optional.empty();
  }

  private static PipelineCallAnswer invalid(String message) {
    return PipelineCallAnswer.newBuilder().setState("").setCode(INVALID_ARGUMENT).setMessage(message).build();
  }

  private static PipelineCallAnswer refused(String message) {
    return PipelineCallAnswer.newBuilder().setState("refused").setCode(OK).setMessage(message).build();
  }

  @Override
  public void close() throws InterruptedException {
    Dispatcher current = dispatcher;
    if (current != null) {
      try {
        current.unsubscribe(BusNames.PIPELINE_CALLS_SUBJECT);
      } catch (IllegalStateException alreadyClosed) {
        // The connection closed first: nothing left to unsubscribe.
      }
    }
    callWorkers.shutdown();
    statusWorkers.shutdown();
    callWorkers.awaitTermination(5, TimeUnit.SECONDS);
    statusWorkers.awaitTermination(5, TimeUnit.SECONDS);
  }
}

package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import dev.varroa.recorder.store.DatabaseErrors;
import dev.varroa.recorder.store.PipelineRequests;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pipeline runs requested from the core (docs/pipelines.md), in the queue group {@code varroa-recorder}: records each
 * run request in pipeline_requests, wakes the Team's cell, forwards the request to the Team's cluster's operator and
 * answers its ActionResult; takes the operator's PipelineRunQueued; answers where a requested run is.
 */
final class PipelineRunsResponder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PipelineRunsResponder.class);
  static final String VERB = "pipeline-run";
  /** How long the operator has to answer a forwarded run: it reads cached objects and queues one command. */
  static final Duration OPERATOR_ANSWER_WAIT = Duration.ofSeconds(5);
  /** A run request waits for a wake and an operator (up to twice five seconds): several at once, each on its own. */
  static final int RUN_WORKERS = 4;
  /** Queued reports and status questions only touch PostgreSQL; kept apart so a slow operator never delays them. */
  static final int STATUS_WORKERS = 2;
  private static final Duration SUBSCRIBE_FLUSH = Duration.ofSeconds(2);
  private static final List<String> SUBJECTS = List.of(BusNames.PIPELINE_RUNS_SUBJECT,
      BusNames.PIPELINE_RUN_QUEUED_SUBJECT, BusNames.PIPELINE_RUN_STATUS_SUBJECT);

  private final PipelineRequests requests;
  private final CellWakes wakes;
  private final Duration operatorWait;
  private final ExecutorService runWorkers = workers("varroa-recorder-pipeline-runs", RUN_WORKERS);
  private final ExecutorService statusWorkers = workers("varroa-recorder-pipeline-status", STATUS_WORKERS);
  private volatile Dispatcher dispatcher;

  PipelineRunsResponder(PipelineRequests requests, CellWakes wakes, Duration operatorWait) {
    this.requests = requests;
    this.wakes = wakes;
    this.operatorWait = operatorWait;
  }

  static ExecutorService workers(String name, int count) {
    return Executors.newFixedThreadPool(count, runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    });
  }

  /** Subscribes on the connection; called again with a replacement connection. */
  void subscribe(Connection connection) {
    Dispatcher next = connection.createDispatcher(message -> {
      if (BusNames.PIPELINE_RUNS_SUBJECT.equals(message.getSubject())) {
        runWorkers.execute(() -> reply(connection, message, run(connection, message.getData()).toByteArray()));
      } else if (BusNames.PIPELINE_RUN_QUEUED_SUBJECT.equals(message.getSubject())) {
        statusWorkers.execute(() -> reply(connection, message, queued(message.getData()).toByteArray()));
      } else {
        statusWorkers.execute(() -> reply(connection, message, status(message.getData()).toByteArray()));
      }
    });
    SUBJECTS.forEach(subject -> next.subscribe(subject, BusNames.RECORDER_QUEUE_GROUP));
    dispatcher = next;
    try {
      connection.flush(SUBSCRIBE_FLUSH);
    } catch (TimeoutException e) {
      LOG.warn("event=pipeline_runs_subscribe_flush_timed_out wait={}", SUBSCRIBE_FLUSH);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("event=pipeline_runs_subscribed subjects={} queueGroup={}", SUBJECTS, BusNames.RECORDER_QUEUE_GROUP);
  }

  static void reply(Connection connection, Message message, byte[] answer) {
    if (message.getReplyTo() == null) {
      LOG.warn("event=pipeline_runs_request_without_reply_subject subject={} action=drop", message.getSubject());
      return;
    }
    connection.publish(message.getReplyTo(), answer);
  }

  /** A run request: recorded, the cell woken, forwarded; a request id seen before answers its first answer. */
  ActionResult run(Connection connection, byte[] data) {
    ActionRequest request;
    try {
      request = ActionRequest.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      return ActionResult.newBuilder().setOutcome("refused")
          .setMessage("the request is not a varroa.bus.v1.ActionRequest: " + e.getMessage()).build();
    }
    if (!request.getCallerTeam().isEmpty() || !request.getCallerCluster().isEmpty()) {
      // only a call relayed by a cell's gateway has a caller, and the recorder derives it (PipelineCallsResponder)
      return answer(request, "refused", "ActionRequest.caller_team and caller_cluster of pipeline run request "
          + request.getRequestId() + " are set by the recorder only: send the request without them").build();
    }
    return request(connection, request, "");
  }

  /**
   * The run path every pipeline-run request takes, from the core or (callerController set: the calling cell,
   * "namespace/name") from a cross-tenant call: checked, recorded, the cell woken, forwarded to the Team's cluster.
   */
  ActionResult request(Connection connection, ActionRequest request, String callerController) {
    Optional<String> problem = problem(request);
    if (problem.isPresent()) {
      LOG.warn("event=pipeline_run_refused request_id={} problem=\"{}\"", request.getRequestId(), problem.get());
      return answer(request, "refused", problem.get()).build();
    }
    PipelineRequests.Claim claim;
    try {
      claim = requests.claim(request, callerController);
    } catch (SQLException e) {
      LOG.warn("event=pipeline_run_unrecorded request_id={} error=\"{}\"", request.getRequestId(),
          DatabaseErrors.describe(e));
      return answer(request, "failed", "the record store cannot record pipeline run request "
          + request.getRequestId() + " now (" + DatabaseErrors.describe(e) + "); nothing was sent to cluster "
          + request.getCluster() + ", send the same request again").build();
    }
    if (claim instanceof PipelineRequests.Claim.Answered answered) {
      return answered.first().toBuilder().setReplayed(true).build();
    }
    if (claim instanceof PipelineRequests.Claim.UnderWay) {
      return answer(request, "accepted", "pipeline run request " + request.getRequestId()
          + " is being sent to cluster " + request.getCluster() + " now; its status tells where it is")
          .setReplayed(true).build();
    }
    String team = request.getNamespace() + "/" + request.getName();
    CellWakes.Result wake = wakes.wake(request.getCluster(), request.getNamespace(), request.getName(),
        "pipeline " + request.getPipeline() + " of team " + team + " requested by " + request.getUser()
            + " (request " + request.getRequestId() + ")");
    ActionResult result = forward(connection, request).toBuilder()
        .setRequestId(request.getRequestId()).setWake(wakeName(wake.outcome())).build();
    try {
      requests.answered(result);
    } catch (SQLException e) {
      // the operator has the run (and remembers its id): a retry is taken over and replayed by the operator
      LOG.warn("event=pipeline_run_answer_unrecorded request_id={} error=\"{}\"", request.getRequestId(),
          DatabaseErrors.describe(e));
    }
    LOG.info("event=pipeline_run_requested request_id={} cluster={} team={} pipeline={} user={} parameters={}"
            + " wake={} outcome={} cell={}/{} job=\"{}\"", request.getRequestId(), request.getCluster(), team,
        request.getPipeline(), request.getUser(), request.getParametersCount(), result.getWake(),
        result.getOutcome(), result.getCellNamespace(), result.getCell(), result.getJob());
    return result;
  }

  private ActionResult forward(Connection connection, ActionRequest request) {
    String subject = BusNames.clusterActions(request.getCluster());
    try {
      Message reply = connection.request(subject, request.toByteArray())
          .get(operatorWait.toMillis(), TimeUnit.MILLISECONDS);
      return ActionResult.parseFrom(reply.getData());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return answer(request, "failed", "the recorder stopped while sending pipeline run request "
          + request.getRequestId() + " to cluster " + request.getCluster() + "; send the same request again")
          .build();
    } catch (ExecutionException | CancellationException e) {
      // jnats fails the request at once when nobody subscribes (no responders)
      return answer(request, "failed", "the operator of cluster " + request.getCluster() + " did not answer on "
          + subject + ": is the cluster registered and its operator running? (varroactl get clusters)").build();
    } catch (TimeoutException e) {
      return answer(request, "failed", "the operator of cluster " + request.getCluster() + " did not answer on "
          + subject + " within " + operatorWait.toSeconds() + " s; if it took the run late, its status shows it"
          + " queued, else send the same request again").build();
    } catch (InvalidProtocolBufferException e) {
      return answer(request, "failed", "the operator of cluster " + request.getCluster()
          + " answered unreadably: " + e.getMessage()).build();
    }
  }

  /** What is wrong with a pipeline-run request, naming the field and the fix; empty when it can be sent. */
  static Optional<String> problem(ActionRequest request) {
    if (!VERB.equals(request.getVerb())) {
      return Optional.of("ActionRequest.verb '" + request.getVerb() + "' is not taken on "
          + BusNames.PIPELINE_RUNS_SUBJECT + ": send verb " + VERB + " (other actions go to the cluster's operator)");
    }
    if (!PipelineRequests.isUuid(request.getRequestId())) {
      return Optional.of("ActionRequest.request_id '" + request.getRequestId()
          + "' is not a UUID: send a fresh UUID per run request");
    }
    String[][] required = {{"cluster", request.getCluster(), "the Team's cluster"},
        {"namespace", request.getNamespace(), "the Team's namespace"}, {"name", request.getName(), "the Team's name"},
        {"pipeline", request.getPipeline(), "a pipeline of the Team's spec.pipelines"}};
    for (String[] field : required) {
      if (field[1].isEmpty()) {
        return Optional.of("ActionRequest." + field[0] + " of pipeline run request " + request.getRequestId()
            + " is empty: set it to " + field[2]);
      }
    }
    if (request.getParametersMap().containsKey("")) {
      return Optional.of("a parameter of pipeline run request " + request.getRequestId()
          + " has an empty name: send each parameter as NAME=VALUE");
    }
    if (request.getPreview()) {
      return Optional.of(VERB + " has no preview: send the request without preview to run pipeline "
          + request.getPipeline());
    }
    return Optional.empty();
  }

  private static ActionResult.Builder answer(ActionRequest request, String outcome, String message) {
    return ActionResult.newBuilder().setRequestId(request.getRequestId()).setOutcome(outcome).setMessage(message);
  }

  static String wakeName(CellWakes.Outcome outcome) {
    return outcome.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private PipelineRunStatus queued(byte[] data) {
    PipelineRunQueued queued;
    try {
      queued = PipelineRunQueued.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      return PipelineRunStatus.newBuilder()
          .setMessage("the request is not a varroa.bus.v1.PipelineRunQueued: " + e.getMessage()).build();
    }
    Optional<String> problem = PipelineRequests.problem(queued);
    try {
      if (problem.isEmpty()) {
        problem = requests.queued(queued);
      }
      if (problem.isPresent()) {
        LOG.warn("event=pipeline_run_queued_refused request_id={} cluster={} problem=\"{}\"", queued.getRequestId(),
            queued.getCluster(), problem.get());
        return PipelineRunStatus.newBuilder().setRequestId(queued.getRequestId()).setMessage(problem.get()).build();
      }
      LOG.info("event=pipeline_run_queued request_id={} cluster={} cell={}/{} job=\"{}\" queue_id={} outcome={}",
          queued.getRequestId(), queued.getCluster(), queued.getCellNamespace(), queued.getCell(), queued.getJob(),
          queued.getQueueId(), queued.getOutcome());
      return requests.status(UUID.fromString(queued.getRequestId()))
          .orElseGet(() -> PipelineRunStatus.newBuilder().setRequestId(queued.getRequestId()).build());
    } catch (SQLException e) {
      LOG.warn("event=pipeline_run_queued_unrecorded request_id={} error=\"{}\"", queued.getRequestId(),
          DatabaseErrors.describe(e));
      return PipelineRunStatus.newBuilder().setRequestId(queued.getRequestId())
          .setMessage("the record store cannot be written now (" + DatabaseErrors.describe(e) + "); send it again")
          .build();
    }
  }

  private PipelineRunStatus status(byte[] data) {
    PipelineRunStatusRequest request;
    try {
      request = PipelineRunStatusRequest.parseFrom(data);
    } catch (InvalidProtocolBufferException e) {
      return PipelineRunStatus.newBuilder()
          .setMessage("the request is not a varroa.bus.v1.PipelineRunStatusRequest: " + e.getMessage()).build();
    }
    String id = request.getRequestId();
    if (!PipelineRequests.isUuid(id)) {
      return PipelineRunStatus.newBuilder().setRequestId(id).setMessage("PipelineRunStatusRequest.request_id '" + id
          + "' is not a UUID: send the request id the run was requested with").build();
    }
    try {
      return requests.status(UUID.fromString(id)).orElseGet(() -> PipelineRunStatus.newBuilder().setRequestId(id)
          .setMessage("no pipeline run request " + id + " is recorded").build());
    } catch (SQLException e) {
      LOG.warn("event=pipeline_run_status_unreadable request_id={} error=\"{}\"", id, DatabaseErrors.describe(e));
      return PipelineRunStatus.newBuilder().setRequestId(id)
          .setMessage("the record store cannot be read now (" + DatabaseErrors.describe(e) + "); ask again").build();
    }
  }

  @Override
  public void close() throws InterruptedException {
    Dispatcher current = dispatcher;
    if (current != null) {
      for (String subject : SUBJECTS) {
        try {
          current.unsubscribe(subject);
        } catch (IllegalStateException alreadyClosed) {
          // The connection closed first: nothing left to unsubscribe.
        }
      }
    }
    runWorkers.shutdown();
    statusWorkers.shutdown();
    runWorkers.awaitTermination(5, TimeUnit.SECONDS);
    statusWorkers.awaitTermination(5, TimeUnit.SECONDS);
  }
}

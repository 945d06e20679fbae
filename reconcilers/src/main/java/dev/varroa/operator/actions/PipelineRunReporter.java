package dev.varroa.operator.actions;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.PipelineRunQueued;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.mite.v1.CommandResult;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the core's recorder what became of a pipeline run's RunJob (PipelineRunQueued on
 * {@link BusNames#PIPELINE_RUN_QUEUED_SUBJECT}): the Jenkins queue item that ties the request to its run, or why
 * Jenkins never took it. Request/reply, {@value #ATTEMPTS} tries; a report nobody took is logged
 * {@code event=pipeline_run_queued_unreported}, and the recorder then keeps the request as requested.
 */
public final class PipelineRunReporter {
  public static final String QUEUED = "queued";
  public static final String FAILED = "failed";
  static final int ATTEMPTS = 3;
  /** The wait before the second try; doubled before the third. */
  static final Duration FIRST_BACKOFF = Duration.ofMillis(500);
  /** How long one try waits for the recorder's reply. */
  static final Duration REPLY_WAIT = Duration.ofSeconds(5);
  private static final Logger LOG = LoggerFactory.getLogger(PipelineRunReporter.class);

  /** The run this report is about: who asked and where the job is. */
  public record Run(String requestId, String cluster, String cellNamespace, String cell, String job) {}

  private final Supplier<Connection> nats;
  private final Clock clock;
  private final Duration firstBackoff;

  public PipelineRunReporter(Supplier<Connection> nats, Clock clock) {
    this(nats, clock, FIRST_BACKOFF);
  }

  PipelineRunReporter(Supplier<Connection> nats, Clock clock, Duration firstBackoff) {
    this.nats = nats;
    this.clock = clock;
    this.firstBackoff = firstBackoff;
  }

  /**
   * The report of a finished RunJob: "queued" with Jenkins' queue id when the mite succeeded, else "failed" with a
   * message naming the cell, the job and the mite's (or the queue's) own message.
   */
  public static PipelineRunQueued report(Run run, CommandResult result, String deadline, long atEpochMillis) {
    PipelineRunQueued.Builder report = PipelineRunQueued.newBuilder().setRequestId(run.requestId())
        .setCluster(run.cluster()).setCellNamespace(run.cellNamespace()).setCell(run.cell()).setJob(run.job())
        .setAtEpochMillis(atEpochMillis);
    String cell = "cell " + run.cellNamespace() + "/" + run.cell();
    String said = result.getMessage().isEmpty() ? "" : " (" + result.getMessage() + ")";
    return switch (result.getOutcome()) {
      case SUCCEEDED -> report.setOutcome(QUEUED).setQueueId(result.getQueueId())
          .setMessage("Jenkins of " + cell + " queued job " + run.job() + " as queue item " + result.getQueueId())
          .build();
      case DEADLINE_EXCEEDED -> report.setOutcome(FAILED).setMessage(cell + " did not run job " + run.job()
          + " within " + deadline + ": is it waking? see its status (varroactl get controller " + run.cell() + " -n "
          + run.cellNamespace() + ")" + said).build();
      default -> report.setOutcome(FAILED).setMessage(cell + " did not queue job " + run.job() + ": "
          + result.getOutcome() + (result.getMessage().isEmpty() ? "" : ": " + result.getMessage())).build();
    };
  }

  /** Reports the RunJob's result once it arrives; never blocks the caller. */
  public CompletableFuture<Boolean> reportWhenDone(Run run, CompletableFuture<CommandResult> result, String deadline) {
    return result.thenCompose(r -> {
      if (r.getOutcome() == CommandResult.Outcome.NOT_CONNECTED) {
        // this operator stopped before the result: the command stays queued and runs, only its queue id is lost here
        LOG.warn("event=pipeline_run_queued_unreported request_id={} cluster={} cell={}/{} job={} reason=\"{}\"",
            run.requestId(), run.cluster(), run.cellNamespace(), run.cell(), run.job(), r.getMessage());
        return CompletableFuture.completedFuture(false);
      }
      return send(report(run, r, deadline, clock.millis()), 1);
    });
  }

  /** Sends one report, trying again after a growing pause; true once the recorder answered. */
  CompletableFuture<Boolean> send(PipelineRunQueued report, int attempt) {
    CompletableFuture<Boolean> sent;
    try {
      sent = nats.get().requestWithTimeout(BusNames.PIPELINE_RUN_QUEUED_SUBJECT, report.toByteArray(), REPLY_WAIT)
          .thenApply(reply -> {
            try {
              PipelineRunStatus status = PipelineRunStatus.parseFrom(reply.getData());
              LOG.info("event=pipeline_run_queued_reported request_id={} outcome={} queue_id={} recorder_state={}",
                  report.getRequestId(), report.getOutcome(), report.getQueueId(), status.getState());
              return true;
            } catch (InvalidProtocolBufferException e) {
              throw new IllegalStateException("the recorder's reply is not a PipelineRunStatus: " + e.getMessage(), e);
            }
          });
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.exceptionallyCompose(error -> {
      if (attempt >= ATTEMPTS) {
        LOG.warn("event=pipeline_run_queued_unreported request_id={} cluster={} cell={}/{} job={} outcome={}"
            + " queue_id={} attempts={} error=\"{}\"", report.getRequestId(), report.getCluster(),
            report.getCellNamespace(), report.getCell(), report.getJob(), report.getOutcome(), report.getQueueId(),
            attempt, error.toString());
        return CompletableFuture.completedFuture(false);
      }
      long pause = firstBackoff.toMillis() << (attempt - 1);
      return CompletableFuture.supplyAsync(() -> attempt + 1,
          CompletableFuture.delayedExecutor(pause, TimeUnit.MILLISECONDS)).thenCompose(next -> send(report, next));
    });
  }
}

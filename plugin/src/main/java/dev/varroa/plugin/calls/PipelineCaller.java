package dev.varroa.plugin.calls;

import dev.varroa.plugin.claims.ClaimRetrySchedule;
import dev.varroa.plugin.loopback.PipelineCallAnswers;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The core of the {@code varroaRunPipeline} step: starts the call on the mite's loopback with a fresh call id, asks
 * where it is every {@link #POLL} until it finished, failed or was refused, or the timeout passed, and prints what
 * it learns to the build's log. No Jenkins in here; the step's glue hands over the calling run and its log.
 */
public final class PipelineCaller {

  public static final Duration POLL = Duration.ofSeconds(2);
  public static final String SUCCESS = "SUCCESS";

  private final PipelineCallLoopback loopback;
  private final Clock clock;
  private final Pause pause;

  public PipelineCaller(PipelineCallLoopback loopback, Clock clock, Pause pause) {
    this.loopback = Objects.requireNonNull(loopback, "loopback");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.pause = Objects.requireNonNull(pause, "pause");
  }

  /** Calls with a fresh call id. */
  public CalledRun call(String runId, String job, PipelineCallArguments arguments, Consumer<String> log)
      throws PipelineCallFailed, InterruptedException {
    return call(UUID.randomUUID().toString(), runId, job, arguments, log);
  }

  /**
   * Runs the call to its end: the called run when it ended SUCCESS, else {@link PipelineCallFailed} saying why.
   * Interrupted (the calling build aborted): the called run is not cancelled.
   */
  public CalledRun call(String callId, String runId, String job, PipelineCallArguments arguments,
      Consumer<String> log) throws PipelineCallFailed, InterruptedException {
    PipelineCallRequest request = PipelineCallRequest.newBuilder().setCallId(callId).setRunId(runId).setJob(job)
        .setTeam(arguments.team()).setCluster(arguments.cluster()).setPipeline(arguments.pipeline())
        .putAllParameters(arguments.parameters()).build();
    Instant deadline = clock.instant().plus(arguments.timeout());
    Progress progress = new Progress(arguments, log);
    log.accept("Calling pipeline " + arguments.pipeline() + " of Team " + arguments.team()
        + (arguments.cluster().isEmpty() ? "" : " in cluster " + arguments.cluster()) + " (call " + callId + ")");
    boolean accepted = false;
    int retry = 0;
    while (true) {
      PipelineCallAnswer answer = accepted ? loopback.status(callId) : loopback.call(request);
      Duration wait;
      if (answer.getState().isEmpty()) {
        if (!answer.getCode().isEmpty() && !answer.getCode().equals(PipelineCallAnswers.UNAVAILABLE)) {
          throw new PipelineCallFailed(answer.getCode() + ": " + answer.getMessage());
        }
        wait = ClaimRetrySchedule.delay(retry++, 0);
        log.accept("No answer about the call yet (" + answer.getMessage() + "); asking again in "
            + DurationText.seconds(wait));
      } else {
        accepted = true;
        retry = 0;
        progress.learn(answer);
        switch (answer.getState()) {
          case "finished" -> {
            if (answer.getResult().equals(SUCCESS)) {
              return progress.run(answer);
            }
            throw new PipelineCallFailed("the called pipeline " + progress.name() + " in cluster "
                + answer.getCluster() + " ended " + answer.getResult() + " (run " + answer.getRunId()
                + (answer.getUrl().isEmpty() ? "" : ", " + answer.getUrl()) + ")");
          }
          case "refused" -> throw new PipelineCallFailed("refused: " + answer.getMessage());
          case "failed" -> throw new PipelineCallFailed(answer.getMessage());
          default -> wait = POLL;
        }
      }
      Duration left = Duration.between(clock.instant(), deadline);
      if (left.isNegative() || left.isZero()) {
        throw new PipelineCallFailed("timed out after " + minutes(arguments.timeout()) + " waiting for "
            + progress.name() + " (state " + progress.state() + ", run " + progress.runId() + "); the called run"
            + " is not cancelled, it goes on");
      }
      pause.pause(wait.compareTo(left) < 0 ? wait : left);
    }
  }

  private static String minutes(Duration timeout) {
    return timeout.toSecondsPart() == 0 ? timeout.toMinutes() + " min" : DurationText.seconds(timeout);
  }

  /** What the build's log has been told so far; each new fact is printed once. */
  private static final class Progress {
    private final Consumer<String> log;
    private String name;
    private String state = "none: no answer yet";
    private String runId = "not known yet";
    private boolean named;
    private boolean linked;

    Progress(PipelineCallArguments arguments, Consumer<String> log) {
      this.log = log;
      this.name = arguments.team() + "/" + arguments.pipeline();
    }

    void learn(PipelineCallAnswer answer) {
      if (!named && !answer.getNamespace().isEmpty()) {
        named = true;
        name = answer.getNamespace() + "/" + answer.getTeam() + "/" + answer.getPipeline();
        log.accept("Called pipeline " + name + " in cluster " + answer.getCluster());
      }
      if (!answer.getState().equals(state)) {
        state = answer.getState();
        log.accept("Call state: " + state + (answer.getMessage().isEmpty() ? "" : " (" + answer.getMessage() + ")"));
      }
      if (!answer.getRunId().isEmpty() && !answer.getRunId().equals(runId)) {
        runId = answer.getRunId();
        log.accept("Called run: " + runId + (answer.getBuildNumber() > 0 ? " (build #" + answer.getBuildNumber()
            + ")" : ""));
      }
      if (!linked && !answer.getUrl().isEmpty()) {
        linked = true;
        log.accept("Called run's page: " + answer.getUrl());
      }
    }

    CalledRun run(PipelineCallAnswer answer) {
      log.accept("The called pipeline " + name + " ended " + answer.getResult());
      return new CalledRun(answer.getCluster(), answer.getNamespace(), answer.getTeam(), answer.getPipeline(),
          answer.getRunId(), answer.getBuildNumber(), answer.getResult(), answer.getUrl());
    }

    String name() {
      return name;
    }

    String state() {
      return state;
    }

    String runId() {
      return runId;
    }
  }
}

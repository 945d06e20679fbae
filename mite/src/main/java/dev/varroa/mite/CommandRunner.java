package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.OneShot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs commands one at a time on its own thread. A newer desired state replaces one still waiting
 * (newest wins; the replaced one is answered REJECTED); one-shot actions and replayed deliveries keep their order.
 * A job run goes on threads of its own: it may wait for Jenkins to boot, and Jenkins boots on the desired state
 * behind it, so in the one line it would hold that desired state back until its deadline.
 */
final class CommandRunner implements AutoCloseable {

  /** Seed 000: "The default is 20 minutes" — used when a command carries no deadline. */
  static final Duration DEFAULT_COMMAND_DEADLINE = Duration.ofMinutes(20);

  private static final Logger LOG = LoggerFactory.getLogger(CommandRunner.class);

  /** Where a command's result goes: the stream it arrived on. */
  interface ResultSink {
    void deliver(CommandResult result);
  }

  private record Queued(Command command, ResultSink sink) {
  }

  private final DesiredStateApplier applier;
  private final JenkinsActions jenkins;
  private final DeliveryReplay replay;
  private final JobRuns jobs;
  private final Clock clock;
  private final BiConsumer<Command, CommandResult> afterEach;
  private final Deque<Queued> queue = new ArrayDeque<>();
  private final Thread worker;
  /** Job runs in flight or waiting for a thread; counted by {@link #idle()}. */
  private final java.util.concurrent.atomic.AtomicInteger jobRuns = new java.util.concurrent.atomic.AtomicInteger();
  private final java.util.concurrent.ExecutorService jobThreads;
  private boolean running;
  private boolean closed;
  private CommandResult lastResult;

  /** {@code afterEach} sees every result, on the thread that ran the command, before it is delivered. */
  CommandRunner(DesiredStateApplier applier, JenkinsActions jenkins, DeliveryReplay replay, JobRuns jobs, Clock clock,
      BiConsumer<Command, CommandResult> afterEach) {
    this.applier = applier;
    this.jenkins = jenkins;
    this.replay = replay;
    this.jobs = jobs;
    this.clock = clock;
    this.afterEach = afterEach;
    this.worker = new Thread(this::work, "mite-commands");
    worker.setDaemon(true);
    worker.start();
    this.jobThreads = java.util.concurrent.Executors.newFixedThreadPool(JOB_RUN_THREADS, runnable -> {
      Thread thread = new Thread(runnable, "mite-job-runs");
      thread.setDaemon(true);
      return thread;
    });
  }

  /** How many job runs ask Jenkins at once; more wait for a thread, in arrival order. */
  static final int JOB_RUN_THREADS = 4;

  void submit(Command command, ResultSink sink) {
    if (command.hasRunJob()) {
      submitJobRun(new Queued(command, sink));
      return;
    }
    Queued superseded = null;
    CommandResult supersededResult = null;
    synchronized (this) {
      if (closed) {
        return;
      }
      if (command.hasDesiredState()) {
        for (Iterator<Queued> it = queue.iterator(); it.hasNext();) {
          Queued waiting = it.next();
          if (waiting.command().hasDesiredState()) {
            it.remove();
            superseded = waiting;
            supersededResult = result(waiting.command(), CommandOutcome.rejected(
                "superseded by the newer desired state of command " + command.getCommandId()));
          }
        }
      }
      queue.addLast(new Queued(command, sink));
      notifyAll();
    }
    if (superseded != null) {
      LOG.info("event=command_superseded command_id={} by={}", superseded.command().getCommandId(),
          command.getCommandId());
      finish(superseded, supersededResult);
    }
  }

  private void submitJobRun(Queued queued) {
    synchronized (this) {
      if (closed) {
        return;
      }
      jobRuns.incrementAndGet();
    }
    try {
      jobThreads.execute(() -> {
        try {
          finish(queued, result(queued.command(), run(queued.command())));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
          LOG.error("event=command_crashed command_id={} error={}", queued.command().getCommandId(),
              e.getClass().getSimpleName(), e);
          finish(queued, result(queued.command(), CommandOutcome.failed("the mite failed to run the command: "
              + e.getClass().getSimpleName(), 0)));
        } finally {
          jobRuns.decrementAndGet();
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      jobRuns.decrementAndGet();
    }
  }

  /** True when no command runs or waits. */
  synchronized boolean idle() {
    return !running && queue.isEmpty() && jobRuns.get() == 0;
  }

  synchronized Optional<CommandResult> lastResult() {
    return Optional.ofNullable(lastResult);
  }

  private void work() {
    while (true) {
      Queued next;
      synchronized (this) {
        while (queue.isEmpty() && !closed) {
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        next = queue.removeFirst();
        running = true;
      }
      try {
        finish(next, result(next.command(), run(next.command())));
      } catch (InterruptedException e) {
        return;
      } catch (RuntimeException e) {
        LOG.error("event=command_crashed command_id={} error={}", next.command().getCommandId(),
            e.getClass().getSimpleName(), e);
        finish(next, result(next.command(), CommandOutcome.failed("the mite failed to run the command: "
            + e.getClass().getSimpleName(), 0)));
      } finally {
        synchronized (this) {
          running = false;
          notifyAll();
        }
      }
    }
  }

  private CommandOutcome run(Command command) throws InterruptedException {
    Instant deadline = command.getDeadlineEpochMillis() > 0
        ? Instant.ofEpochMilli(command.getDeadlineEpochMillis())
        : clock.instant().plus(DEFAULT_COMMAND_DEADLINE);
    if (!clock.instant().isBefore(deadline)) {
      return CommandOutcome.deadlineExceeded("the command deadline " + deadline + " passed before the mite started it");
    }
    LOG.info("event=command_started command_id={} kind={} deadline={}", command.getCommandId(), command.getKindCase(),
        deadline);
    return switch (command.getKindCase()) {
      case DESIRED_STATE -> applier.apply(command.getDesiredState(), deadline);
      case ONE_SHOT -> oneShot(command.getOneShot(), deadline);
      case REPLAY_DELIVERY -> replay.replay(command.getReplayDelivery(), deadline);
      case RUN_JOB -> jobs.run(command.getRunJob(), deadline);
      case KIND_NOT_SET -> CommandOutcome.rejected("the command has no kind this mite knows (mite "
          + MiteVersion.CURRENT + ")");
    };
  }

  private CommandOutcome oneShot(OneShot oneShot, Instant deadline) throws InterruptedException {
    try {
      return switch (oneShot.getAction()) {
        case QUIET_DOWN -> jenkins.quietDown(deadline);
        case CANCEL_QUIET_DOWN -> jenkins.cancelQuietDown(deadline);
        case RELOAD_CONFIGURATION -> jenkins.reloadConfiguration(deadline);
        case SAFE_RESTART -> jenkins.safeRestart(deadline);
        case ACTION_UNSPECIFIED, UNRECOGNIZED -> CommandOutcome.rejected("one-shot action "
            + oneShot.getActionValue() + " is unknown to this mite (mite " + MiteVersion.CURRENT + ")");
      };
    } catch (JenkinsActions.NotListening e) {
      return CommandOutcome.failed("Jenkins is not running (nothing listens at its address)", 0);
    }
  }

  private CommandResult result(Command command, CommandOutcome outcome) {
    return CommandResult.newBuilder()
        .setCommandId(command.getCommandId())
        .setOutcome(outcome.outcome())
        .setMessage(outcome.message())
        .setJenkinsStatus(outcome.jenkinsStatus())
        .setQueueId(outcome.queueId())
        .setBundleDigest(command.hasDesiredState() ? command.getDesiredState().getBundleDigest() : "")
        .setFinishedAtEpochMillis(clock.millis())
        .build();
  }

  private void finish(Queued queued, CommandResult result) {
    LOG.info("event=command_finished command_id={} outcome={} jenkins_status={} message=\"{}\"",
        result.getCommandId(), result.getOutcome(), result.getJenkinsStatus(), result.getMessage().replace('"', '\''));
    synchronized (this) {
      lastResult = result;
    }
    afterEach.accept(queued.command(), result);
    queued.sink().deliver(result);
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      queue.clear();
      notifyAll();
    }
    worker.interrupt();
    jobThreads.shutdownNow();
  }
}

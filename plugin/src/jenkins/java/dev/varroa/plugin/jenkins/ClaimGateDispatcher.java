package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.claims.ClaimGate;
import dev.varroa.plugin.claims.GateAnswer;
import dev.varroa.plugin.events.BuildEventEmitter;
import hudson.Extension;
import hudson.model.Job;
import hudson.model.Queue;
import hudson.model.queue.CauseOfBlockage;
import hudson.model.queue.QueueTaskDispatcher;
import java.io.IOException;

/**
 * The build claim gate: a queued job item runs only with a granted claim, and with the granted build number.
 * Jenkins API: hudson.model.queue.QueueTaskDispatcher#canRun(Queue.Item) (null = may run; a CauseOfBlockage keeps
 * it queued with its getShortDescription shown), hudson.model.Job#updateNextBuildNumber(int).
 */
@Extension
public final class ClaimGateDispatcher extends QueueTaskDispatcher {

  @Override
  public CauseOfBlockage canRun(Queue.Item item) {
    ClaimGate gate = VarroaRuntime.core().claimGate();
    if (!gate.enabled() || !(item.task instanceof Job<?, ?> job)) {
      return null;
    }
    RunIdAction id = item.getAction(RunIdAction.class);
    if (id == null) {
      id = new RunIdAction(BuildEventEmitter.newRunId(), item.getInQueueSince());
      item.addAction(id);
    }
    GateAnswer answer = gate.canRun(item.getId(), id.getRunId(), job.getFullName(), job.getNextBuildNumber());
    if (answer instanceof GateAnswer.Held held) {
      return blockage(held.reason());
    }
    if (answer instanceof GateAnswer.Granted granted) {
      return takeNumber(job, granted.buildNumber());
    }
    return null;
  }

  private static CauseOfBlockage takeNumber(Job<?, ?> job, long number) {
    if (job.getNextBuildNumber() == number) {
      return null;
    }
    try {
      job.updateNextBuildNumber((int) number);
    } catch (IOException e) {
      return blockage("cannot set the granted build number " + number + ": " + e.getMessage());
    }
    // updateNextBuildNumber ignores a number at or below the last build: never run under another number.
    return job.getNextBuildNumber() == number ? null
        : blockage("the granted build number " + number + " is not above this job's last build");
  }

  private static CauseOfBlockage blockage(String reason) {
    return new CauseOfBlockage() {
      @Override
      public String getShortDescription() {
        return reason;
      }
    };
  }
}

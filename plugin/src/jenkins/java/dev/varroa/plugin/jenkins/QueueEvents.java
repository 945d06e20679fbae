package dev.varroa.plugin.jenkins;

import dev.varroa.plugin.events.BuildEventEmitter;
import hudson.Extension;
import hudson.model.Cause;
import hudson.model.Job;
import hudson.model.Queue;
import hudson.model.queue.QueueListener;

/**
 * Gives each queued job item its run id and emits RunQueued; forgets the gate's decision when the item leaves.
 * Jenkins API: hudson.model.queue.QueueListener#onEnterWaiting(Queue.WaitingItem), #onLeft(Queue.LeftItem).
 */
@Extension
public final class QueueEvents extends QueueListener {

  @Override
  public void onEnterWaiting(Queue.WaitingItem item) {
    if (!(item.task instanceof Job<?, ?> job)) {
      return; // a Pipeline node block's placeholder, not a run
    }
    RunIdAction id = item.getAction(RunIdAction.class);
    if (id == null) {
      id = new RunIdAction(BuildEventEmitter.newRunId(), item.getInQueueSince());
      item.addAction(id);
    }
    VarroaRuntime.core().events().runQueued(id.getRunId(), job.getFullName(), item.getId(), firstCause(item));
  }

  @Override
  public void onLeft(Queue.LeftItem item) {
    VarroaRuntime.core().claimGate().forget(item.getId(), item.isCancelled());
    RunIdAction id = item.getAction(RunIdAction.class);
    if (item.isCancelled() && id != null) {
      VarroaRuntime.core().events().runAbandoned(id.getRunId());
    }
  }

  private static String firstCause(Queue.Item item) {
    return item.getCauses().stream().findFirst().map(Cause::getShortDescription).orElse("");
  }
}

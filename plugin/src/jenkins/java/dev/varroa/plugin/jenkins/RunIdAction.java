package dev.varroa.plugin.jenkins;

import hudson.model.InvisibleAction;

/**
 * The run id chosen when the item entered the queue. Stored with the queue item (queue.xml), copied by Jenkins'
 * Executor onto the Run (build.xml), so it outlives restarts.
 * Jenkins API: hudson.model.InvisibleAction (an hudson.model.Action that is persisted with its Actionable).
 */
public final class RunIdAction extends InvisibleAction {

  private final String runId;
  private final long enteredQueueAtMillis;

  public RunIdAction(String runId, long enteredQueueAtMillis) {
    this.runId = runId;
    this.enteredQueueAtMillis = enteredQueueAtMillis;
  }

  public String getRunId() {
    return runId;
  }

  public long getEnteredQueueAtMillis() {
    return enteredQueueAtMillis;
  }
}

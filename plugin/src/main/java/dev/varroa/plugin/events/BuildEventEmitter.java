package dev.varroa.plugin.events;

import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.RunCompleted;
import dev.varroa.protocol.builds.v1.RunFinalized;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.builds.v1.StageEnded;
import dev.varroa.protocol.builds.v1.StageStarted;
import dev.varroa.protocol.builds.v1.TestSummary;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;

/**
 * Turns what Jenkins reports about a run into {@link BuildEvent}s and spools them. The spool numbers each run's
 * events 1, 2, 3, ... and keeps counting across a Jenkins restart. The glue calls one method per Jenkins callback;
 * none blocks on the network and none throws for a full spool (the answer says so).
 */
public final class BuildEventEmitter {

  private final EventSpool spool;
  private final Clock clock;

  public BuildEventEmitter(EventSpool spool, Clock clock) {
    this.spool = spool;
    this.clock = clock;
  }

  /** A new run id, chosen when an item enters the queue; the glue stores it with the item and then the run. */
  public static String newRunId() {
    return UUID.randomUUID().toString();
  }

  /** The run id of a run that never passed through the queue with this plugin (started before it was installed). */
  public static String runIdOf(String job, long buildNumber) {
    return UUID.nameUUIDFromBytes((job + "#" + buildNumber).getBytes(java.nio.charset.StandardCharsets.UTF_8)).toString();
  }

  public SpoolAdmission runQueued(String runId, String job, long queueId, String cause) {
    return spool.append(draft(runId, job).setRunQueued(RunQueued.newBuilder()
        .setQueueId(queueId).setCause(text(cause))));
  }

  public SpoolAdmission runStarted(String runId, String job, long buildNumber, String node, long queuedMillis,
      String cause) {
    return spool.append(draft(runId, job).setRunStarted(RunStarted.newBuilder()
        .setBuildNumber(buildNumber).setNode(text(node)).setQueuedMillis(Math.max(0, queuedMillis)).setCause(text(cause))));
  }

  public SpoolAdmission runCompleted(String runId, String job, long buildNumber, String result, long durationMillis) {
    return spool.append(draft(runId, job).setRunCompleted(RunCompleted.newBuilder()
        .setBuildNumber(buildNumber).setResult(text(result)).setDurationMillis(Math.max(0, durationMillis))));
  }

  /** The run's last event: the spool stops counting for it afterwards. */
  public SpoolAdmission runFinalized(String runId, String job, long buildNumber, String result, long durationMillis) {
    return spool.append(draft(runId, job).setRunFinalized(RunFinalized.newBuilder()
        .setBuildNumber(buildNumber).setResult(text(result)).setDurationMillis(Math.max(0, durationMillis))));
  }

  public SpoolAdmission stageStarted(String runId, String job, String stageId, String name, String parallelBranch) {
    return spool.append(draft(runId, job).setStageStarted(StageStarted.newBuilder()
        .setStageId(text(stageId)).setName(text(name)).setParallelBranch(text(parallelBranch))));
  }

  public SpoolAdmission stageEnded(String runId, String job, String stageId, String name, String parallelBranch,
      String status, long durationMillis) {
    return spool.append(draft(runId, job).setStageEnded(StageEnded.newBuilder()
        .setStageId(text(stageId)).setName(text(name)).setParallelBranch(text(parallelBranch))
        .setStatus(text(status)).setDurationMillis(Math.max(0, durationMillis))));
  }

  public SpoolAdmission testSummary(String runId, String job, int total, int failed, int skipped) {
    return spool.append(draft(runId, job).setTestSummary(TestSummary.newBuilder()
        .setTotal(Math.max(0, total)).setFailed(Math.max(0, failed)).setSkipped(Math.max(0, skipped))));
  }

  /** A queue item that left the queue without becoming a run: nothing more will be said about its run id. */
  public void runAbandoned(String runId) {
    spool.forgetRun(runId);
  }

  private BuildEvent.Builder draft(String runId, String job) {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(job, "job");
    return BuildEvent.newBuilder().setRunId(runId).setJob(job).setEmittedAtEpochMillis(clock.millis());
  }

  private static String text(String value) {
    return value == null ? "" : value;
  }
}

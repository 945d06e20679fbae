package dev.varroa.dashboard.e2e;

import dev.varroa.protocol.BuildEventMessageId;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.builds.v1.RunCompleted;
import dev.varroa.protocol.builds.v1.RunFinalized;
import dev.varroa.protocol.builds.v1.RunQueued;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.builds.v1.StageEnded;
import dev.varroa.protocol.builds.v1.StageStarted;
import dev.varroa.protocol.builds.v1.TestSummary;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.v1.LogAppended;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogStore;
import io.nats.client.Connection;
import io.nats.client.PublishOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One controller's builds as its gateway hands them on: build event groups published to the varroa_builds stream
 * (which the recorder writes to PostgreSQL), console log bytes written to the log store and announced on core NATS.
 */
final class PlayedBuild {

  private final Connection nats;
  private final LogStore logs;
  private final String cluster;
  private final ControllerIdentity controller;
  private final Map<String, Long> logSizes = new ConcurrentHashMap<>();

  PlayedBuild(Connection nats, LogStore logs, String cluster, ControllerIdentity controller) throws Exception {
    this.nats = nats;
    this.logs = logs;
    this.cluster = cluster;
    this.controller = controller;
    BusTopology.ensure(nats);
  }

  /** A whole run, queued to finalized, with one stage and a test summary. */
  void finished(String job, long build) throws Exception {
    String runId = java.util.UUID.randomUUID().toString();
    started(runId, job, build);
    completed(runId, job, build);
    log(runId, "Started by timer\nFinished: SUCCESS\n", true);
  }

  /** Queued and started, its first stage running. */
  void started(String runId, String job, long build) throws Exception {
    long now = System.currentTimeMillis();
    publish(List.of(
        event(runId, 1, job, now - 3_000).setRunQueued(RunQueued.newBuilder().setQueueId(build)
            .setCause("Started by user alice")).build(),
        event(runId, 2, job, now - 2_000).setRunStarted(RunStarted.newBuilder().setBuildNumber(build)
            .setNode("linux-1").setQueuedMillis(800).setCause("Started by user alice")).build(),
        event(runId, 3, job, now - 1_000).setStageStarted(StageStarted.newBuilder().setStageId("6")
            .setName("Build")).build()));
  }

  /** The stage ends, tests are counted, the run completes and is finalized. */
  void completed(String runId, String job, long build) throws Exception {
    long now = System.currentTimeMillis();
    publish(List.of(
        event(runId, 4, job, now).setStageEnded(StageEnded.newBuilder().setStageId("6").setName("Build")
            .setStatus("SUCCESS").setDurationMillis(4_000)).build(),
        event(runId, 5, job, now).setTestSummary(TestSummary.newBuilder().setTotal(12).setFailed(0).setSkipped(1))
            .build(),
        event(runId, 6, job, now).setRunCompleted(RunCompleted.newBuilder().setBuildNumber(build)
            .setResult("SUCCESS").setDurationMillis(5_000)).build(),
        event(runId, 7, job, now).setRunFinalized(RunFinalized.newBuilder().setBuildNumber(build)
            .setResult("SUCCESS").setDurationMillis(5_000)).build()));
  }

  /** The timer triggers of the controller's jobs, as the gateway hands on the plugin's job-schedule inventory. */
  void schedules(Map<String, List<String>> timerSpecs) throws Exception {
    JobScheduleInventory.Builder inventory = JobScheduleInventory.newBuilder()
        .setObservedAtEpochMillis(System.currentTimeMillis());
    timerSpecs.forEach((job, specs) -> inventory.addJobs(JobSchedule.newBuilder().setJob(job).addAllTimerSpecs(specs)));
    BuildEventGroup group = BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster(cluster)
        .setGatewayId("gateway-0").setPublishedAtEpochMillis(System.currentTimeMillis())
        .setSchedules(inventory.build()).build();
    nats.jetStream().publish(BusNames.builds(controller), group.toByteArray(),
        PublishOptions.builder().messageId(BuildEventMessageId.of(controller, inventory.build())).build());
  }

  /** Appends to the run's console log as the gateway does: store first, then announce the new bytes. */
  void log(String runId, String text, boolean last) throws Exception {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    long offset = logSizes.getOrDefault(runId, 0L);
    LogExtent after = logs.write(new LogKey(cluster, controller.namespace(), controller.name(), runId), offset, bytes,
        last);
    logSizes.put(runId, offset + bytes.length);
    nats.publish(BusNames.logAppended(cluster, controller, runId), LogAppended.newBuilder()
        .setController(controller.toRef()).setCluster(cluster).setRunId(runId).setOffset(offset)
        .setStoredThrough(after.storedThrough()).setComplete(after.complete())
        .setAppendedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    nats.flush(java.time.Duration.ofSeconds(5));
  }

  private static BuildEvent.Builder event(String runId, long sequence, String job, long at) {
    return BuildEvent.newBuilder().setRunId(runId).setSequence(sequence).setJob(job).setEmittedAtEpochMillis(at);
  }

  private void publish(List<BuildEvent> events) throws Exception {
    BuildEventGroup group = BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster(cluster)
        .setGatewayId("gateway-0").setPublishedAtEpochMillis(System.currentTimeMillis()).addAllEvents(events).build();
    nats.jetStream().publish(BusNames.builds(controller), group.toByteArray(),
        PublishOptions.builder().messageId(BuildEventMessageId.of(controller, events)).build());
  }
}

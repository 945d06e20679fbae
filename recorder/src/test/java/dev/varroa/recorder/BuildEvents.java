package dev.varroa.recorder;

import dev.varroa.protocol.BuildEventMessageId;
import dev.varroa.protocol.BusNames;
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
import io.nats.client.Connection;
import io.nats.client.api.PublishAck;
import io.nats.client.PublishOptions;
import java.util.List;

/** Build events and groups as a plugin, a mite and a gateway would make them, and publishing them as the gateway does. */
final class BuildEvents {

  static final long T0 = 1_767_000_000_000L;

  private BuildEvents() {
  }

  /** A whole run's life: queued, started, a stage, tests, completed, finalized (sequences 1..7). */
  static List<BuildEvent> wholeRun(String runId, String job, long buildNumber) {
    return List.of(
        event(runId, 1, job).setRunQueued(RunQueued.newBuilder().setQueueId(41).setCause("Started by timer")).build(),
        event(runId, 2, job).setRunStarted(RunStarted.newBuilder().setBuildNumber(buildNumber).setNode("agent-1")
            .setQueuedMillis(350).setCause("Started by user admin")).build(),
        event(runId, 3, job).setStageStarted(StageStarted.newBuilder().setStageId("6").setName("Build")
            .setParallelBranch("linux")).build(),
        event(runId, 4, job).setStageEnded(StageEnded.newBuilder().setStageId("6").setName("Build")
            .setParallelBranch("linux").setStatus("SUCCESS").setDurationMillis(900)).build(),
        event(runId, 5, job).setTestSummary(TestSummary.newBuilder().setTotal(120).setFailed(2).setSkipped(3)).build(),
        event(runId, 6, job).setRunCompleted(RunCompleted.newBuilder().setBuildNumber(buildNumber).setResult("UNSTABLE")
            .setDurationMillis(1100)).build(),
        event(runId, 7, job).setRunFinalized(RunFinalized.newBuilder().setBuildNumber(buildNumber).setResult("SUCCESS")
            .setDurationMillis(1200)).build());
  }

  static BuildEvent.Builder event(String runId, long sequence, String job) {
    return BuildEvent.newBuilder().setRunId(runId).setSequence(sequence).setJob(job)
        .setEmittedAtEpochMillis(T0 + sequence * 1000);
  }

  static BuildEventGroup group(ControllerIdentity controller, List<BuildEvent> events) {
    return BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster("eu-1").setGatewayId("gateway-0")
        .setPublishedAtEpochMillis(T0).addAllEvents(events).build();
  }

  static BuildEventGroup schedules(ControllerIdentity controller, long observedAt, JobSchedule... jobs) {
    return BuildEventGroup.newBuilder().setController(controller.toRef()).setCluster("eu-1").setGatewayId("gateway-0")
        .setSchedules(JobScheduleInventory.newBuilder().setObservedAtEpochMillis(observedAt).addAllJobs(List.of(jobs)))
        .build();
  }

  static JobSchedule schedule(String job, String... specs) {
    return JobSchedule.newBuilder().setJob(job).addAllTimerSpecs(List.of(specs)).build();
  }

  /** Publishes as the gateway does, with the deterministic Nats-Msg-Id. */
  static PublishAck publish(Connection nats, ControllerIdentity controller, BuildEventGroup group) throws Exception {
    String id = group.hasSchedules() ? BuildEventMessageId.of(controller, group.getSchedules())
        : BuildEventMessageId.of(controller, group.getEventsList());
    return publish(nats, controller, group, id);
  }

  static PublishAck publish(Connection nats, ControllerIdentity controller, BuildEventGroup group, String messageId)
      throws Exception {
    return nats.jetStream().publish(BusNames.builds(controller), group.toByteArray(),
        PublishOptions.builder().messageId(messageId).build());
  }
}

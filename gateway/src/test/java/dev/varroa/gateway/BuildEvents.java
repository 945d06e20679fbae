package dev.varroa.gateway;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.RunStarted;
import dev.varroa.protocol.builds.v1.StageStarted;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.mite.v1.MiteMessage;
import io.nats.client.Connection;
import io.nats.client.api.MessageInfo;
import io.nats.client.api.StreamInfoOptions;
import io.nats.client.api.Subject;
import java.util.ArrayList;
import java.util.List;

/** Build events as the plugin numbers them, and what the tests read back from varroa_builds. */
final class BuildEvents {

  private BuildEvents() {
  }

  /** A run's started event followed by {@code stages} stage events, sequences 1..stages+1. */
  static List<BuildEvent> run(String runId, int stages, int nameLength) {
    List<BuildEvent> events = new ArrayList<>();
    events.add(BuildEvent.newBuilder().setRunId(runId).setSequence(1).setJob("team/app/main")
        .setEmittedAtEpochMillis(System.currentTimeMillis())
        .setRunStarted(RunStarted.newBuilder().setBuildNumber(7).setNode("built-in").setCause("Started by timer"))
        .build());
    for (int stage = 1; stage <= stages; stage++) {
      events.add(BuildEvent.newBuilder().setRunId(runId).setSequence(stage + 1).setJob("team/app/main")
          .setStageStarted(StageStarted.newBuilder().setStageId(String.valueOf(stage))
              .setName("stage-" + stage + "-" + "x".repeat(nameLength)))
          .build());
    }
    return events;
  }

  static MiteMessage batch(List<BuildEvent> events) {
    return MiteMessage.newBuilder().setEvents(EventBatch.newBuilder().addAllEvents(events)).build();
  }

  static List<EventKey> keys(List<BuildEvent> events) {
    return events.stream()
        .map(event -> EventKey.newBuilder().setRunId(event.getRunId()).setSequence(event.getSequence()).build())
        .toList();
  }

  /** How many messages varroa_builds holds on this subject. */
  static long stored(Connection nats, String subject) throws Exception {
    List<Subject> subjects = nats.jetStreamManagement()
        .getStreamInfo(BusNames.BUILDS_STREAM, StreamInfoOptions.filterSubjects(subject))
        .getStreamState().getSubjects();
    return subjects == null ? 0 : subjects.stream().mapToLong(Subject::getCount).sum();
  }

  static MessageInfo last(Connection nats, String subject) throws Exception {
    return nats.jetStreamManagement().getLastMessage(BusNames.BUILDS_STREAM, subject);
  }

  static BuildEventGroup group(MessageInfo message) throws Exception {
    return BuildEventGroup.parseFrom(message.getData());
  }
}

package dev.varroa.plugin.events;

import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventKey;

/** The identity of one event on every hop: its run and its place in that run. */
public record RunSequence(String runId, long sequence) {

  public static RunSequence of(BuildEvent event) {
    return new RunSequence(event.getRunId(), event.getSequence());
  }

  public static RunSequence of(EventKey key) {
    return new RunSequence(key.getRunId(), key.getSequence());
  }

  public EventKey toKey() {
    return EventKey.newBuilder().setRunId(runId).setSequence(sequence).build();
  }
}

package dev.varroa.recorder.store;

import dev.varroa.protocol.builds.v1.BuildEvent;
import java.time.Instant;

/**
 * What one event sets on its run's row, each group of fields with the event's sequence: the upsert keeps a
 * field's value unless this sequence is higher than the one that set it, so the arrival order does not matter.
 * A null sequence leaves that group alone.
 */
record RunPatch(
    long sequence,
    Long buildNumber, Long buildNumberSequence,
    Long queueId, Instant queuedAt, Long queuedSequence,
    String cause, Long causeSequence,
    String node, Long queuedMillis, Instant startedAt, Long startedSequence,
    String result, Long durationMillis, Long resultSequence,
    Instant completedAt, Long completedSequence,
    Instant finalizedAt, Long finalizedSequence) {

  static RunPatch of(BuildEvent event) {
    long seq = event.getSequence();
    Instant at = event.getEmittedAtEpochMillis() > 0 ? Instant.ofEpochMilli(event.getEmittedAtEpochMillis()) : null;
    return switch (event.getBodyCase()) {
      case RUN_QUEUED -> {
        var queued = event.getRunQueued();
        yield new RunPatch(seq, null, null, queued.getQueueId(), at, seq,
            textOrNull(queued.getCause()), queued.getCause().isEmpty() ? null : seq,
            null, null, null, null, null, null, null, null, null, null, null);
      }
      case RUN_STARTED -> {
        var started = event.getRunStarted();
        yield new RunPatch(seq, numberOrNull(started.getBuildNumber()), started.getBuildNumber() > 0 ? seq : null,
            null, null, null,
            textOrNull(started.getCause()), started.getCause().isEmpty() ? null : seq,
            started.getNode(), started.getQueuedMillis(), at, seq,
            null, null, null, null, null, null, null);
      }
      case RUN_COMPLETED -> {
        var completed = event.getRunCompleted();
        yield new RunPatch(seq, numberOrNull(completed.getBuildNumber()), completed.getBuildNumber() > 0 ? seq : null,
            null, null, null, null, null, null, null, null, null,
            completed.getResult(), completed.getDurationMillis(), seq, at, seq, null, null);
      }
      case RUN_FINALIZED -> {
        var finalized = event.getRunFinalized();
        yield new RunPatch(seq, numberOrNull(finalized.getBuildNumber()), finalized.getBuildNumber() > 0 ? seq : null,
            null, null, null, null, null, null, null, null, null,
            finalized.getResult(), finalized.getDurationMillis(), seq, null, null, at, seq);
      }
      // Stage and test events only make the run known and move its highest sequence.
      default -> new RunPatch(seq, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
          null, null, null, null);
    };
  }

  private static String textOrNull(String value) {
    return value.isEmpty() ? null : value;
  }

  private static Long numberOrNull(long value) {
    return value > 0 ? value : null;
  }
}

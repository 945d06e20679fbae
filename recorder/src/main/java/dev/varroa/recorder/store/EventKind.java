package dev.varroa.recorder.store;

import dev.varroa.protocol.builds.v1.BuildEvent;

/** The name run_events.kind stores for an event's body, e.g. {@code run_started}. */
final class EventKind {

  private EventKind() {
  }

  static String of(BuildEvent event) {
    return switch (event.getBodyCase()) {
      case RUN_QUEUED -> "run_queued";
      case RUN_STARTED -> "run_started";
      case RUN_COMPLETED -> "run_completed";
      case RUN_FINALIZED -> "run_finalized";
      case STAGE_STARTED -> "stage_started";
      case STAGE_ENDED -> "stage_ended";
      case TEST_SUMMARY -> "test_summary";
      case BODY_NOT_SET -> "unknown";
    };
  }
}

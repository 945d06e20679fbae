package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.CommandResult.Outcome;

/** How one command ended, before it is dressed as a CommandResult; {@code queueId} is a RunJob's Jenkins queue item. */
record CommandOutcome(Outcome outcome, String message, int jenkinsStatus, long queueId) {

  CommandOutcome(Outcome outcome, String message, int jenkinsStatus) {
    this(outcome, message, jenkinsStatus, 0);
  }

  static CommandOutcome succeeded(String message, int jenkinsStatus) {
    return new CommandOutcome(Outcome.SUCCEEDED, message, jenkinsStatus);
  }

  /** A build Jenkins queued: the id its Location named. */
  static CommandOutcome queued(String message, int jenkinsStatus, long queueId) {
    return new CommandOutcome(Outcome.SUCCEEDED, message, jenkinsStatus, queueId);
  }

  static CommandOutcome failed(String message, int jenkinsStatus) {
    return new CommandOutcome(Outcome.FAILED, message, jenkinsStatus);
  }

  static CommandOutcome rejected(String message) {
    return new CommandOutcome(Outcome.REJECTED, message, 0);
  }

  static CommandOutcome deadlineExceeded(String message) {
    return new CommandOutcome(Outcome.DEADLINE_EXCEEDED, message, 0);
  }

  boolean succeeded() {
    return outcome == Outcome.SUCCEEDED;
  }
}

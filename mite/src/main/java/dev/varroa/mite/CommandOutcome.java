package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.CommandResult.Outcome;

/** How one command ended, before it is dressed as a CommandResult. */
record CommandOutcome(Outcome outcome, String message, int jenkinsStatus) {

  static CommandOutcome succeeded(String message, int jenkinsStatus) {
    return new CommandOutcome(Outcome.SUCCEEDED, message, jenkinsStatus);
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

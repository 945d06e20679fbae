package dev.varroa.gateway.command;

import dev.varroa.protocol.mite.v1.Command;
import java.time.Duration;
import java.time.Instant;

/** The instant a command must be done by: its own deadline, or the product default when the sender set none. */
final class CommandDeadline {

  /** "Each desired-state command has a deadline. The default is 20 minutes." */
  static final Duration DEFAULT_COMMAND_DEADLINE = Duration.ofMinutes(20);

  private CommandDeadline() {
  }

  static Command withDeadline(Command command, Instant now) {
    if (command.getDeadlineEpochMillis() > 0) {
      return command;
    }
    return command.toBuilder().setDeadlineEpochMillis(now.plus(DEFAULT_COMMAND_DEADLINE).toEpochMilli()).build();
  }

  static Instant of(Command command) {
    return Instant.ofEpochMilli(command.getDeadlineEpochMillis());
  }
}

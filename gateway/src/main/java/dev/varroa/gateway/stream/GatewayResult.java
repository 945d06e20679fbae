package dev.varroa.gateway.stream;

import dev.varroa.protocol.mite.v1.CommandResult;
import java.time.Instant;

/** A CommandResult made by the gateway rather than a mite (not connected, deadline passed, rejected). */
public final class GatewayResult {

  private GatewayResult() {
  }

  public static CommandResult of(String commandId, CommandResult.Outcome outcome, String message, Instant at) {
    return CommandResult.newBuilder()
        .setCommandId(commandId)
        .setOutcome(outcome)
        .setMessage(message)
        .setFinishedAtEpochMillis(at.toEpochMilli())
        .build();
  }
}

package dev.varroa.plugin.loopback;

import dev.varroa.protocol.builds.v1.LogChunkBatchAck;

/** What became of one {@code POST /v1/logs}. */
public sealed interface LogsOutcome {

  /** HTTP 200: the gateway's answer, one ack per chunk in the batch's order. */
  record Answered(LogChunkBatchAck ack) implements LogsOutcome {
  }

  /** No answer (no mite, no stream, a timeout, a 5xx, a refused body): nothing is known, send again later. */
  record Failed(String reason) implements LogsOutcome {
  }
}

package dev.varroa.plugin.loopback;

import dev.varroa.protocol.builds.v1.EventKey;
import java.time.Duration;
import java.util.List;

/** What became of one {@code POST /v1/events}. */
public sealed interface EventsOutcome {

  /** HTTP 200: the events the gateway acknowledged in time; the rest of the batch stays spooled. */
  record Acknowledged(List<EventKey> keys, int retained) implements EventsOutcome {
  }

  /** HTTP 503: the mite's retention is full; ask again after {@code retryAfter}. */
  record Busy(Duration retryAfter, String reason) implements EventsOutcome {
  }

  /** Anything else (no mite, a refused token, a refused body): try again later. */
  record Failed(String reason) implements EventsOutcome {
  }
}

package dev.varroa.dashboard.activity;

/**
 * One event as the live feed hands it over: the SSE event {@code activity} with id {@link #sequence()} (the
 * event's sequence in the varroa_activity stream; a client's Last-Event-ID) and data {@link #event()}.
 *
 * @param sequence the stream sequence, or {@link #NO_SEQUENCE} when the BFF reads the subjects without JetStream
 */
public record ActivityDelivery(long sequence, ActivityItem event) {

  /** JetStream sequences start at 1: 0 marks an event from a core subscription, which has no id to resume at. */
  public static final long NO_SEQUENCE = 0;

  public boolean hasSequence() {
    return sequence != NO_SEQUENCE;
  }
}

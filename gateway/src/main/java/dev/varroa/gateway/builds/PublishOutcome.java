package dev.varroa.gateway.builds;

/**
 * How publishing one build event group ended.
 *
 * @param attempts how many publishes were sent (0 when none was needed)
 * @param lastFailure why the last failed attempt failed; null when none failed
 */
public record PublishOutcome(Result result, int attempts, String lastFailure) {

  public enum Result {
    /** JetStream stored the group. */
    PUBLISHED,
    /** JetStream had stored the same Nats-Msg-Id already: the group is on the stream. */
    DUPLICATE,
    /** No attempt succeeded before the publish wait passed. */
    EXPIRED,
    /** The mite's stream ended first: nobody waits for the acknowledgement any more. */
    ABANDONED
  }

  /** True when the group is on varroa_builds, so the mite may release its events. */
  public boolean stored() {
    return result == Result.PUBLISHED || result == Result.DUPLICATE;
  }

  /** The outcome of the parts of one split group: stored only when every part is. */
  public static PublishOutcome combine(PublishOutcome first, PublishOutcome second) {
    int attempts = first.attempts + second.attempts;
    PublishOutcome worse = rank(first.result) >= rank(second.result) ? first : second;
    return new PublishOutcome(worse.result, attempts, worse.lastFailure != null ? worse.lastFailure
        : first.lastFailure != null ? first.lastFailure : second.lastFailure);
  }

  private static int rank(Result result) {
    return switch (result) {
      case DUPLICATE -> 0;
      case PUBLISHED -> 1;
      case ABANDONED -> 2;
      case EXPIRED -> 3;
    };
  }
}

package dev.varroa.benchmarks.latency;

import java.time.Instant;
import java.util.Optional;

/** How the operator learns that the followed branch moved: a push webhook, a requestedAt annotation, or its interval. */
public interface CommitTrigger {

  /** Why this trigger cannot run in this harness; empty when it can. */
  default Optional<String> unavailable() {
    return Optional.empty();
  }

  /**
   * Waits, for a trigger that cares, until commit {@code index} of {@code count} should land.
   *
   * @param lastCheck when the operator last checked the bundle's sources
   */
  default void awaitCommitSlot(int index, int count, Instant lastCheck) throws InterruptedException {
  }

  /** Tells the operator that the branch now points at {@code commitId}. */
  void fire(String commitId) throws Exception;
}

package dev.varroa.benchmarks.latency;

import java.time.Duration;
import java.time.Instant;

/**
 * No trigger: the operator finds the commit at its next interval check. A commit made right after the
 * previous apply would wait almost a whole interval every time, so commit i of n lands (2i + 1) / 2n of
 * an interval after the last check: the sample spreads evenly over the phases a commit at a random
 * moment would hit. That wait places the commit; it synchronises nothing.
 */
public final class IntervalTrigger implements CommitTrigger {

  private static final Duration SLEEP_AT_MOST = Duration.ofSeconds(1);

  private final Duration interval;

  public IntervalTrigger(Duration interval) {
    this.interval = interval;
  }

  @Override
  public void awaitCommitSlot(int index, int count, Instant lastCheck) throws InterruptedException {
    Instant slot = lastCheck.plus(interval.multipliedBy(2L * index + 1).dividedBy(2L * count));
    for (Duration left = Duration.between(Instant.now(), slot); !left.isNegative() && !left.isZero();
        left = Duration.between(Instant.now(), slot)) {
      Thread.sleep(Math.max(1, Math.min(left.toMillis(), SLEEP_AT_MOST.toMillis())));
    }
  }

  @Override
  public void fire(String commitId) {
    // the interval check finds it
  }
}

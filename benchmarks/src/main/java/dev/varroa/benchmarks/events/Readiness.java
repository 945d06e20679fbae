package dev.varroa.benchmarks.events;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Waits for a condition with a deadline; a condition that throws counts as not yet. */
final class Readiness {

  private static final Duration POLL = Duration.ofMillis(50);

  private Readiness() {
  }

  static void await(String what, Duration deadline, Callable<Boolean> condition) throws InterruptedException {
    long end = System.nanoTime() + deadline.toNanos();
    Exception last = null;
    while (System.nanoTime() < end) {
      try {
        if (Boolean.TRUE.equals(condition.call())) {
          return;
        }
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        last = e;
      }
      Thread.sleep(POLL.toMillis());
    }
    throw new IllegalStateException(what + " not within " + deadline.toSeconds() + " s"
        + (last == null ? "" : " (last: " + last + ")"));
  }
}

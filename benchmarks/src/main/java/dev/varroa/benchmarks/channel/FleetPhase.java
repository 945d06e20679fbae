package dev.varroa.benchmarks.channel;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Runs one step for every mite of a fleet, a bounded number at a time, printing progress as it goes. */
public final class FleetPhase {

  /** One mite's step. */
  @FunctionalInterface
  public interface Step {
    void run(int index) throws Exception;
  }

  /** How a phase went: all steps done, or some failed (the first failure kept for the report). */
  public record Outcome(String name, int count, int failed, Duration elapsed, Throwable firstFailure) {
    public double perSecond() {
      return (count - failed) / (elapsed.toNanos() / 1e9);
    }

    /** Throws with the first failure when any step failed. */
    public Outcome requireAllDone() {
      if (failed > 0) {
        throw new IllegalStateException(name + ": " + failed + " of " + count + " failed; first failure: "
            + firstFailure, firstFailure);
      }
      return this;
    }
  }

  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
  /** A broken gateway fails every step; stop spending a call deadline on each of thousands. */
  private static final int FAIL_FAST_AFTER = 20;

  private FleetPhase() {
  }

  public static Outcome run(String name, int count, int parallelism, Step step) throws InterruptedException {
    AtomicInteger done = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    ExecutorService workers = Executors.newFixedThreadPool(parallelism, runnable -> {
      Thread thread = new Thread(runnable, "fleet-" + name);
      thread.setDaemon(true);
      return thread;
    });
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      int index = i;
      workers.execute(() -> {
        try {
          if (failed.get() >= FAIL_FAST_AFTER) {
            throw new IllegalStateException("skipped: " + FAIL_FAST_AFTER + " steps failed already");
          }
          step.run(index);
        } catch (Exception | Error e) {
          failed.incrementAndGet();
          firstFailure.compareAndSet(null, e);
        } finally {
          done.incrementAndGet();
        }
      });
    }
    workers.shutdown();
    while (!workers.awaitTermination(PROGRESS_EVERY.toMillis(), TimeUnit.MILLISECONDS)) {
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf("  %s: %d/%d after %.0f s (%.1f/s)%s%n", name, done.get(), count, seconds,
          done.get() / seconds, failed.get() > 0 ? ", " + failed.get() + " failed" : "");
    }
    return new Outcome(name, count, failed.get(), Duration.ofNanos(System.nanoTime() - start), firstFailure.get());
  }
}

package dev.varroa.benchmarks.channel;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What a benchmark started, stopped in reverse order exactly once: at the end of main, or from a
 * shutdown hook when the run is interrupted (Ctrl-C), so no gateway, mite or NATS outlives it.
 */
public final class Teardown implements AutoCloseable {

  /** One step of the teardown. */
  @FunctionalInterface
  public interface Step {
    void run() throws Exception;
  }

  private final Deque<Step> steps = new ArrayDeque<>();
  private final Thread hook = new Thread(this::runSteps, "benchmark-teardown");
  private boolean done;

  public Teardown() {
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Registers a resource to close; steps run last-registered first. */
  public synchronized <T extends AutoCloseable> T add(T resource) {
    steps.push(resource::close);
    return resource;
  }

  /** Registers a step; steps run last-registered first. */
  public synchronized void then(Step step) {
    steps.push(step);
  }

  @Override
  public void close() {
    runSteps();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException shuttingDown) {
      // Already inside the shutdown; the hook has run the steps or is running them.
    }
  }

  private synchronized void runSteps() {
    if (done) {
      return;
    }
    done = true;
    while (!steps.isEmpty()) {
      try {
        steps.pop().run();
      } catch (Exception e) {
        System.err.println("teardown step failed (continuing with the others): " + e);
      }
    }
  }
}

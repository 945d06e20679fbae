package dev.varroa.mite;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Lets the mite's waits (backoff, drain polling) end at once when the mite closes. */
final class StopSignal {

  private final CountDownLatch stopped = new CountDownLatch(1);

  void stop() {
    stopped.countDown();
  }

  boolean stopped() {
    return stopped.getCount() == 0;
  }

  /** Waits up to {@code wait}; returns true when the mite stopped meanwhile. */
  boolean await(Duration wait) {
    if (wait.isNegative() || wait.isZero()) {
      return stopped();
    }
    try {
      return stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}

package dev.varroa.protocol.http;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Deadlines on blocking reads from a client. An expired deadline interrupts the reading thread: a blocking socket
 * channel read then ends with the channel, hence the connection, closed; that is how a stalled client is let go.
 */
final class ReadDeadlines implements AutoCloseable {
  private final ScheduledThreadPoolExecutor timer;

  ReadDeadlines(String listener) {
    timer = new ScheduledThreadPoolExecutor(1, runnable -> {
      Thread thread = new Thread(runnable, listener + "-deadlines");
      thread.setDaemon(true);
      return thread;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  /** Starts a deadline on the calling thread; the caller ends it with {@link Deadline#end()} on the same thread. */
  Deadline start(Duration limit) {
    Deadline deadline = new Deadline(Thread.currentThread());
    try {
      deadline.timer = timer.schedule(deadline::expire, limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      // the listener is closing: the server closes every connection itself
    }
    return deadline;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  /** One watched wait of one thread. */
  static final class Deadline {
    private final Thread thread;
    private volatile ScheduledFuture<?> timer;
    private boolean expired;
    private boolean ended;

    private Deadline(Thread thread) {
      this.thread = thread;
    }

    private synchronized void expire() {
      if (!ended) {
        expired = true;
        ended = true;
        thread.interrupt();
      }
    }

    /**
     * Ends the wait, on the watched thread. True when the deadline expired first: the thread was interrupted (that
     * interrupt is cleared here, as it was meant for this wait only) and its connection is closed or about to be.
     * A second call answers false.
     */
    synchronized boolean end() {
      ScheduledFuture<?> scheduled = timer;
      if (scheduled != null) {
        scheduled.cancel(false);
      }
      boolean timedOut = expired;
      expired = false;
      ended = true;
      if (timedOut) {
        Thread.interrupted();
      }
      return timedOut;
    }
  }
}

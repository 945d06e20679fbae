package dev.varroa.plugin.claims;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The production scheduler: a timer thread that hands due asks to a small pool (an ask can block for its budget). */
public final class ExecutorTaskScheduler implements TaskScheduler, AutoCloseable {

  static final int ASK_THREADS = 4;

  private final ScheduledExecutorService timer = new ScheduledThreadPoolExecutor(1, daemon("varroa-claim-timer"));
  private final ExecutorService workers = new ThreadPoolExecutor(ASK_THREADS, ASK_THREADS, 30, TimeUnit.SECONDS,
      new LinkedBlockingQueue<>(), daemon("varroa-claim-ask"));

  public ExecutorTaskScheduler() {
    ((ThreadPoolExecutor) workers).allowCoreThreadTimeOut(true);
  }

  @Override
  public void execute(Runnable task) {
    workers.execute(task);
  }

  @Override
  public void schedule(Duration delay, Runnable task) {
    timer.schedule(() -> workers.execute(task), delay.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    timer.shutdownNow();
    workers.shutdownNow();
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}

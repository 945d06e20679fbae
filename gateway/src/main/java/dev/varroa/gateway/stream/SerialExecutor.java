package dev.varroa.gateway.stream;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Runs tasks one after another on a shared pool: a session's route writes must land in the order they were made. */
final class SerialExecutor implements Executor {

  private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

  private final Executor pool;
  private final Queue<Runnable> tasks = new ArrayDeque<>();
  private boolean running;

  SerialExecutor(Executor pool) {
    this.pool = pool;
  }

  @Override
  public synchronized void execute(Runnable task) {
    tasks.add(task);
    if (!running) {
      running = true;
      pool.execute(this::drain);
    }
  }

  private void drain() {
    while (true) {
      Runnable task;
      synchronized (this) {
        task = tasks.poll();
        if (task == null) {
          running = false;
          return;
        }
      }
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.error("event=session_task_failed error=\"{}\"", e.toString());
      }
    }
  }
}

package dev.varroa.plugin.claims;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** A scheduler the test drives: it records what was asked of it and runs the tasks when told. */
final class ManualScheduler implements TaskScheduler {

  private final Deque<Runnable> due = new ArrayDeque<>();
  private final List<Duration> delays = new ArrayList<>();

  @Override
  public synchronized void execute(Runnable task) {
    due.add(task);
  }

  @Override
  public synchronized void schedule(Duration delay, Runnable task) {
    delays.add(delay);
    due.add(task);
  }

  /** Runs the oldest task (an ask now, or a scheduled ask as if its delay passed). */
  void runNext() {
    Runnable task;
    synchronized (this) {
      task = due.removeFirst();
    }
    task.run();
  }

  synchronized int waiting() {
    return due.size();
  }

  synchronized List<Duration> delays() {
    return new ArrayList<>(delays);
  }
}

package dev.varroa.plugin.claims;

import java.time.Duration;

/** Where the gate runs its asks: now on a worker, or later. Tests hand in one they run by hand. */
public interface TaskScheduler {

  void execute(Runnable task);

  void schedule(Duration delay, Runnable task);
}

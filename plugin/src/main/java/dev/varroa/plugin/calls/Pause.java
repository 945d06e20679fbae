package dev.varroa.plugin.calls;

import java.time.Duration;

/** Waits between two questions; tests move a stepped clock instead of sleeping. */
@FunctionalInterface
public interface Pause {

  Pause SLEEP = duration -> Thread.sleep(duration.toMillis());

  void pause(Duration duration) throws InterruptedException;
}

package dev.varroa.benchmarks.events;

/** One process on the build event path that the benchmark kills with SIGKILL mid-stream and starts again. */
interface Tier extends AutoCloseable {

  String name();

  /** Starts the process and returns once it answers. */
  void start() throws Exception;

  /** SIGKILL: no shutdown hook, no flush, as a node failure would end it. */
  void kill() throws Exception;

  @Override
  void close() throws Exception;
}

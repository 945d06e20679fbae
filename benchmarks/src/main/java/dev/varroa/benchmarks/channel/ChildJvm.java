package dev.varroa.benchmarks.channel;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code java} child process measured from outside: its own flags, classpath and environment, its
 * output appended to a log file. {@link #close} stops it politely, then forcibly, both bounded.
 */
public final class ChildJvm implements AutoCloseable {

  private static final Duration FORCED_STOP = Duration.ofSeconds(10);
  private static final int LOG_TAIL_LINES = 40;

  private final String name;
  private final Process process;
  private final Path log;
  private final Duration gracefulStop;
  private final long startedNanos;

  private ChildJvm(String name, Process process, Path log, Duration gracefulStop, long startedNanos) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.gracefulStop = gracefulStop;
    this.startedNanos = startedNanos;
  }

  /** Starts {@code java <flags> -cp <classpath> <mainClass>} with {@code env} added to this process's environment. */
  public static ChildJvm start(String name, List<String> flags, String classpath, String mainClass,
      Map<String, String> env, Path log, Duration gracefulStop) {
    return start(name, flags, classpath, mainClass, List.of(), env, log, gracefulStop);
  }

  /** As above, with arguments after the main class. */
  public static ChildJvm start(String name, List<String> flags, String classpath, String mainClass, List<String> args,
      Map<String, String> env, Path log, Duration gracefulStop) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(flags);
    command.add("-cp");
    command.add(classpath);
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().putAll(env);
    try {
      long started = System.nanoTime();
      Process process = builder.start();
      process.getOutputStream().close();
      return new ChildJvm(name, process, log, gracefulStop, started);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " (" + mainClass + "); log: " + log, e);
    }
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** System.nanoTime() just before the process was spawned. */
  public long startedNanos() {
    return startedNanos;
  }

  public Path log() {
    return log;
  }

  /** Fails with the log's tail when the process has exited. */
  public void requireAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(name + " (pid " + process.pid() + ") exited with code " + process.exitValue()
          + "; log: " + log + "\n" + logTail());
    }
  }

  /** Waits until the process accepts a TCP connection on the loopback port, failing with its log's tail. */
  public void awaitListening(int port, java.time.Duration deadline) throws InterruptedException {
    long until = System.nanoTime() + deadline.toNanos();
    while (true) {
      requireAlive();
      try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() - until > 0) {
          throw new IllegalStateException(name + " did not listen on " + port + " within " + deadline + "\n"
              + logTail(), notYet);
        }
      }
      Thread.sleep(100);
    }
  }

  public String logTail() {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return "--- last lines of " + log.getFileName() + " ---\n"
          + String.join("\n", lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size()));
    } catch (IOException e) {
      return "--- log unreadable: " + e + " ---";
    }
  }

  /** How many lines of the log contain {@code text}. */
  public long logLinesContaining(String text) {
    try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.filter(line -> line.contains(text)).count();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + log, e);
    }
  }

  /** SIGKILL at once (kill -9: no shutdown hook runs) and a bounded wait for the exit. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(FORCED_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + FORCED_STOP);
    }
  }

  /** SIGTERM, a bounded wait, then SIGKILL and another bounded wait. */
  @Override
  public void close() throws InterruptedException {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    if (process.waitFor(gracefulStop.toMillis(), TimeUnit.MILLISECONDS)) {
      return;
    }
    process.destroyForcibly();
    if (!process.waitFor(FORCED_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + FORCED_STOP);
    }
  }

  @Override
  public String toString() {
    return name + " (pid " + process.pid() + ", log " + log + ")";
  }
}

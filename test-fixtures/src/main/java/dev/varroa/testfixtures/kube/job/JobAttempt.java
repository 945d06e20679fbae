package dev.varroa.testfixtures.kube.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/** One pod's container running as a local process, which a test may kill as a node would (SIGKILL, exit 137). */
final class JobAttempt {
  // the kubelet's limits on a termination message
  private static final int MESSAGE_BYTES = 4096;
  private static final int FALLBACK_LOG_BYTES = 2048;
  private static final int FALLBACK_LOG_LINES = 80;

  private final String podName;
  private final LocalCommand command;
  private final Path scratch;
  private final boolean fallbackToLogsOnError;
  private volatile Process process;
  private volatile String killedReason;
  private volatile Instant startedAt;

  JobAttempt(String podName, LocalCommand command, Path scratch, boolean fallbackToLogsOnError) {
    this.podName = podName;
    this.command = command;
    this.scratch = scratch;
    this.fallbackToLogsOnError = fallbackToLogsOnError;
  }

  String podName() {
    return podName;
  }

  Instant startedAt() {
    return startedAt;
  }

  /** Starts the process now and reports its end on the executor. */
  void start(Executor executor, Consumer<JobRun> done) {
    Path log = scratch.resolve("output.log");
    startedAt = Instant.now();
    try {
      Files.createDirectories(scratch.resolve("home"));
      Files.createDirectories(command.terminationMessageFile().getParent());
      Files.deleteIfExists(command.terminationMessageFile());
      Files.createFile(command.terminationMessageFile());
      ProcessBuilder builder = new ProcessBuilder(command.argv())
          .directory((command.workingDirectory() == null ? scratch : command.workingDirectory()).toFile())
          .redirectErrorStream(true)
          .redirectOutput(log.toFile());
      Map<String, String> env = builder.environment();
      env.clear();
      env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/local/bin:/usr/bin:/bin"));
      env.put("HOME", scratch.resolve("home").toString());
      env.put("HOSTNAME", podName);
      env.putAll(command.environment());
      process = builder.start();
    } catch (IOException | UncheckedIOException e) {
      Instant now = Instant.now();
      executor.execute(() -> done.accept(new JobRun(podName, JobRun.START_FAILED_EXIT_CODE, "StartError",
          "cannot start " + command.argv().get(0) + ": " + e.getMessage(), "", startedAt, now)));
      return;
    }
    if (killedReason != null) {
      destroy();
    }
    executor.execute(() -> done.accept(await(log)));
  }

  private JobRun await(Path log) {
    int exit;
    try {
      exit = process.waitFor();
    } catch (InterruptedException e) {
      // the stand-in is closing: the process goes with it
      destroy();
      Thread.currentThread().interrupt();
      exit = JobRun.KILLED_EXIT_CODE;
    }
    String reason = killedReason;
    if (reason != null) {
      exit = JobRun.KILLED_EXIT_CODE;
    } else {
      reason = exit == 0 ? "Completed" : "Error";
    }
    String output = read(log, Integer.MAX_VALUE);
    String message = read(command.terminationMessageFile(), MESSAGE_BYTES);
    if (message.isBlank() && exit != 0 && fallbackToLogsOnError) {
      message = tail(output);
    }
    return new JobRun(podName, exit, reason, message, output, startedAt, Instant.now());
  }

  /** Kills the process and its children now (or right as it starts); the pod ends with exit 137 and this reason. */
  void kill(String reason) {
    killedReason = reason;
    if (process != null) {
      destroy();
    }
  }

  private void destroy() {
    // the children as they are now, then the parent first, so a shell cannot run its next command when its child
    // dies; then the children, so a shell's rsync does not outlive it and keep writing
    List<ProcessHandle> children = process.descendants().toList();
    process.destroyForcibly();
    children.forEach(ProcessHandle::destroyForcibly);
  }

  private static String read(Path file, int maxBytes) {
    try {
      if (!Files.exists(file)) {
        return "";
      }
      byte[] bytes = Files.readAllBytes(file);
      return new String(bytes, 0, Math.min(bytes.length, maxBytes), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private static String tail(String output) {
    String[] lines = output.split("\n", -1);
    String last = String.join("\n", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - FALLBACK_LOG_LINES),
        lines.length));
    return last.length() <= FALLBACK_LOG_BYTES ? last : last.substring(last.length() - FALLBACK_LOG_BYTES);
  }
}

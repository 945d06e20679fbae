package dev.varroa.testfixtures.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A child process started for a test: its output goes to a log file, {@link #start} returns once a
 * readiness probe passes, and {@link #close} stops it (politely, then forcibly, both bounded).
 */
public final class LocalProcess implements AutoCloseable {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(50);
    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(10);
    private static final Duration FORCED_STOP = Duration.ofSeconds(5);
    private static final int LOG_TAIL_LINES = 30;

    /** Answers whether the process serves requests yet; an exception counts as "not yet". */
    @FunctionalInterface
    public interface ReadinessProbe {
        boolean ready() throws Exception;
    }

    private final String name;
    private final Process process;
    private final Path logFile;

    private LocalProcess(String name, Process process, Path logFile) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Starts {@code command} with stdout and stderr appended to {@code logFile}, then polls
     * {@code probe} until it passes; throws {@link ProcessNotReadyException} (process stopped) if the
     * process exits or {@code deadline} passes first.
     */
    public static LocalProcess start(String name, List<String> command, Path logFile, Duration deadline,
            ReadinessProbe probe) throws InterruptedException {
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            // Nothing is ever written to the child's stdin.
            process.getOutputStream().close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + " " + command + "; log: " + logFile, e);
        }
        LocalProcess started = new LocalProcess(name, process, logFile);
        started.awaitReady(deadline, probe);
        return started;
    }

    public Path logFile() {
        return logFile;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    private void awaitReady(Duration deadline, ReadinessProbe probe) throws InterruptedException {
        long deadlineNanos = System.nanoTime() + deadline.toNanos();
        Exception lastProbeFailure = null;
        while (true) {
            if (!process.isAlive()) {
                throw notReady("exited with code " + process.exitValue() + " before it was ready", lastProbeFailure);
            }
            try {
                if (probe.ready()) {
                    return;
                }
            } catch (Exception e) {
                lastProbeFailure = e;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw notReady("was not ready within " + deadline, lastProbeFailure);
            }
            // Waiting on the process itself wakes up at once if it dies between probes.
            process.waitFor(POLL_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private ProcessNotReadyException notReady(String what, Exception lastProbeFailure) throws InterruptedException {
        close();
        return new ProcessNotReadyException(
                name + " (pid " + process.pid() + ") " + what + "; log: " + logFile + "\n" + logTail(),
                lastProbeFailure);
    }

    private String logTail() {
        try {
            List<String> lines = List.of(
                    new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).split("\\R"));
            List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
            return "--- last lines of " + logFile.getFileName() + " ---\n" + String.join("\n", tail);
        } catch (IOException e) {
            return "--- log unreadable: " + e + " ---";
        }
    }

    /** SIGKILL at once, as a crash would end it (no shutdown hook runs), and a bounded wait for the exit. */
    public void kill() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!process.waitFor(FORCED_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + FORCED_STOP);
        }
    }

    /** Stops the process tree: SIGTERM, a bounded wait, then SIGKILL and another bounded wait. */
    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        if (process.waitFor(GRACEFUL_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (!process.waitFor(FORCED_STOP.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(name + " (pid " + process.pid() + ") survived SIGKILL for " + FORCED_STOP);
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", log " + logFile + ")";
    }
}

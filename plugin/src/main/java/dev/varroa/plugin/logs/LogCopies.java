package dev.varroa.plugin.logs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * The console log copies under {@code $JENKINS_HOME/varroa/logs/}, one per run, bounded on disk by
 * VARROA_LOG_SPOOL_BYTES. Past the cap a run's copy stops taking bytes for good (so what the blob store gets is
 * always a prefix of the real log), the bytes left out are counted and a WARNING says so; Jenkins' own log is
 * never affected.
 */
public final class LogCopies implements AutoCloseable {

  private static final Logger LOG = Logger.getLogger(LogCopies.class.getName());
  private static final Pattern PLAIN_RUN_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

  private final Path directory;
  private final long capBytes;
  private final Map<String, LogCopy> runs = new LinkedHashMap<>();
  private final AtomicLong usedBytes = new AtomicLong();
  private final AtomicLong notCopiedBytes = new AtomicLong();
  private final AtomicLong cutRuns = new AtomicLong();
  private final Object work = new Object();
  private long workVersion;

  private LogCopies(Path directory, long capBytes) {
    this.directory = directory;
    this.capBytes = capBytes;
  }

  /** {@code $JENKINS_HOME/varroa/logs}. */
  public static Path directoryOf(Path jenkinsHome) {
    return jenkinsHome.resolve("varroa").resolve("logs");
  }

  /** Opens the folder and takes over every copy a previous Jenkins left, with its shipped offset. */
  public static LogCopies open(Path directory, long capBytes) throws IOException {
    Files.createDirectories(directory);
    LogCopies copies = new LogCopies(directory, capBytes);
    try (DirectoryStream<Path> states = Files.newDirectoryStream(directory, "*.state")) {
      for (Path state : states) {
        try {
          LogCopy copy = LogCopy.load(copies, state);
          copies.runs.put(copy.runId(), copy);
          copies.usedBytes.addAndGet(copy.dropped() ? 0 : copy.length());
        } catch (IOException | RuntimeException e) {
          LOG.warning("event=log_copy_unreadable file=" + state + " error=\"" + e.getMessage()
              + "\" message=\"this run's log copy is skipped; delete the file to silence this\"");
        }
      }
    }
    return copies;
  }

  public Path directory() {
    return directory;
  }

  /** The run's copy, made when the run first writes; the same one after a restart (a resumed Pipeline). */
  public LogCopy copy(String runId, String job) throws IOException {
    synchronized (runs) {
      LogCopy copy = runs.get(runId);
      if (copy == null || copy.deleted()) {
        copy = LogCopy.create(this, directory, runId, job);
        runs.put(runId, copy);
      }
      return copy;
    }
  }

  /**
   * The run wrote its last byte: its copy gets a last chunk, and is deleted once the blob store holds it all. A run
   * whose copy was dropped (NOT_STORED) leaves nothing behind.
   */
  public void finished(String runId) {
    LogCopy copy;
    synchronized (runs) {
      copy = runs.get(runId);
    }
    if (copy == null) {
      return;
    }
    if (copy.dropped()) {
      remove(copy);
      return;
    }
    copy.finish();
    signal();
  }

  /** Copies with something to send, oldest first. */
  List<LogCopy> withWork() {
    synchronized (runs) {
      List<LogCopy> due = new ArrayList<>();
      for (LogCopy copy : runs.values()) {
        if (copy.hasWork()) {
          due.add(copy);
        }
      }
      return due;
    }
  }

  /** The job of a run that has a copy, as its state file names it; empty when the run has none. */
  public java.util.Optional<String> jobOf(String runId) {
    synchronized (runs) {
      LogCopy copy = runs.get(runId);
      return copy == null ? java.util.Optional.empty() : java.util.Optional.of(copy.job());
    }
  }

  /** Runs with a copy on disk (dropped ones included until they finish). */
  public List<String> runIds() {
    synchronized (runs) {
      return List.copyOf(runs.keySet());
    }
  }

  public LogCopyStatus status() {
    int count;
    synchronized (runs) {
      count = runs.size();
    }
    return new LogCopyStatus(count, usedBytes.get(), capBytes, notCopiedBytes.get(), cutRuns.get());
  }

  void remove(LogCopy copy) {
    copy.delete();
    synchronized (runs) {
      runs.remove(copy.runId(), copy);
    }
  }

  boolean admit(long count) {
    while (true) {
      long used = usedBytes.get();
      if (used + count > capBytes) {
        return false;
      }
      if (usedBytes.compareAndSet(used, used + count)) {
        return true;
      }
    }
  }

  void release(long count) {
    usedBytes.addAndGet(-count);
  }

  void notCopied(long count) {
    notCopiedBytes.addAndGet(count);
  }

  // once per run that reaches the cap: a full disk must not turn every line of every build into a log line
  void cutAtCap(LogCopy copy) {
    cutRuns.incrementAndGet();
    LOG.warning("event=log_copy_full dir=" + directory + " run_id=" + copy.runId() + " job=\"" + copy.job()
        + "\" copied_bytes=" + copy.length() + " used_bytes=" + usedBytes.get() + " cap_bytes=" + capBytes
        + " not_copied_total=" + notCopiedBytes.get() + " message=\"the rest of this run's log is not copied to"
        + " the blob store (Jenkins' own log keeps it); the copies are not being shipped: check the mite, or raise"
        + " VARROA_LOG_SPOOL_BYTES\"");
  }

  /** New bytes or a finished run: wakes the shipper. */
  void signal() {
    synchronized (work) {
      workVersion++;
      work.notifyAll();
    }
  }

  long workVersion() {
    synchronized (work) {
      return workVersion;
    }
  }

  /** Waits until something new arrived after {@code seen}, at most {@code millis}. */
  void awaitWork(long seen, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    synchronized (work) {
      while (workVersion == seen) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return;
        }
        work.wait(left);
      }
    }
  }

  static String fileBase(String runId) {
    return PLAIN_RUN_ID.matcher(runId).matches() && !runId.startsWith(".")
        ? runId : "x" + HexFormat.of().formatHex(runId.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    synchronized (runs) {
      runs.values().forEach(LogCopy::close);
    }
  }
}

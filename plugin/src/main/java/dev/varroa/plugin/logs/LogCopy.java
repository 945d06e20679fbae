package dev.varroa.plugin.logs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * One run's copy of its console log: {@code <run>.log}, the bytes Jenkins' log received, appended in order, and
 * {@code <run>.state}, how far the blob store holds them ({@code shipped}) and whether the run finished, was cut at
 * the disk cap or is not stored at all. The state file is replaced atomically, so a restart resumes from it.
 */
public final class LogCopy {

  private static final Logger LOG = Logger.getLogger(LogCopy.class.getName());

  private final LogCopies copies;
  private final String runId;
  private final String job;
  private final Path logFile;
  private final Path stateFile;
  private FileChannel channel;
  private long length;
  private long shipped;
  private boolean finished;
  private boolean cut;
  private boolean dropped;
  private boolean deleted;
  private boolean dirty;

  private LogCopy(LogCopies copies, String runId, String job, Path logFile, Path stateFile) {
    this.copies = copies;
    this.runId = runId;
    this.job = job;
    this.logFile = logFile;
    this.stateFile = stateFile;
  }

  /** A new copy for a run that has none yet: the state file is written before the first byte. */
  static LogCopy create(LogCopies copies, Path dir, String runId, String job) throws IOException {
    String base = LogCopies.fileBase(runId);
    LogCopy copy = new LogCopy(copies, runId, job, dir.resolve(base + ".log"), dir.resolve(base + ".state"));
    copy.writeState();
    return copy;
  }

  /** The copy a previous Jenkins left behind; {@code stateFile} names it. */
  static LogCopy load(LogCopies copies, Path stateFile) throws IOException {
    Properties state = new Properties();
    try (InputStream in = Files.newInputStream(stateFile)) {
      state.load(in);
    }
    String runId = state.getProperty("run_id", "");
    if (runId.isEmpty()) {
      throw new IOException(stateFile + " names no run_id");
    }
    String name = stateFile.getFileName().toString();
    Path logFile = stateFile.resolveSibling(name.substring(0, name.length() - ".state".length()) + ".log");
    LogCopy copy = new LogCopy(copies, runId, state.getProperty("job", ""), logFile, stateFile);
    copy.shipped = Long.parseLong(state.getProperty("shipped", "0"));
    copy.finished = Boolean.parseBoolean(state.getProperty("finished"));
    copy.cut = Boolean.parseBoolean(state.getProperty("cut"));
    copy.dropped = Boolean.parseBoolean(state.getProperty("dropped"));
    copy.length = Files.exists(logFile) ? Files.size(logFile) : 0;
    return copy;
  }

  public String runId() {
    return runId;
  }

  public String job() {
    return job;
  }

  /** The wrapper the glue puts around the run's console stream; Jenkins' own log receives every byte unchanged. */
  public ConsoleLogSink sink(OutputStream jenkinsLog) {
    return new ConsoleLogSink(jenkinsLog, this);
  }

  /** An OutputStream that only copies (output coming back from an agent), never throws. */
  public OutputStream copyOnly() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        append(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        append(b, off, len);
      }
    };
  }

  /** Copies bytes Jenkins' log just received; never throws, so the build never sees a copy's trouble. */
  synchronized void append(byte[] bytes, int offset, int count) {
    if (count <= 0 || dropped || deleted) {
      return;
    }
    if (cut) {
      copies.notCopied(count);
      return;
    }
    if (!copies.admit(count)) {
      cut = true;
      copies.notCopied(count);
      copies.cutAtCap(this);
      saveState();
      return;
    }
    try {
      FileChannel out = channel();
      ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, count);
      long at = length;
      while (buffer.hasRemaining()) {
        at += out.write(buffer, at);
      }
      length += count;
      dirty = true;
    } catch (IOException e) {
      copies.release(count);
      // a copy that cannot be written stays what it was: a prefix of the real log, shipped and completed as such
      cut = true;
      copies.notCopied(count);
      LOG.warning("event=log_copy_failed run_id=" + runId + " file=" + logFile + " error=\"" + e.getMessage()
          + "\" message=\"the rest of this run's log is not copied; Jenkins' own log is unaffected\"");
      saveState();
      return;
    }
    copies.signal();
  }

  /** Up to {@code max} bytes from {@code from}; fewer at the copy's end. */
  synchronized byte[] read(long from, int max) throws IOException {
    long available = Math.max(0, length - from);
    int count = (int) Math.min(available, max);
    byte[] bytes = new byte[count];
    if (count == 0) {
      return bytes;
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    FileChannel in = channel();
    long at = from;
    while (buffer.hasRemaining()) {
      int read = in.read(buffer, at);
      if (read < 0) {
        throw new IOException(logFile + " ended at " + at + " but " + length + " bytes were copied");
      }
      at += read;
    }
    return bytes;
  }

  /** Forces what was copied to disk: nothing the blob store holds may be lost here by a power cut. */
  synchronized void force() throws IOException {
    if (dirty && channel != null) {
      channel.force(false);
      dirty = false;
    }
  }

  public synchronized long length() {
    return length;
  }

  public synchronized long shipped() {
    return shipped;
  }

  public synchronized boolean finished() {
    return finished;
  }

  public synchronized boolean cut() {
    return cut;
  }

  public synchronized boolean dropped() {
    return dropped;
  }

  synchronized boolean deleted() {
    return deleted;
  }

  /** True while something is left to send: unshipped bytes, or the last chunk of a finished run. */
  synchronized boolean hasWork() {
    return !dropped && !deleted && (shipped < length || finished);
  }

  synchronized void shippedThrough(long storedThrough) {
    if (!deleted && !dropped && storedThrough != shipped) {
      shipped = storedThrough;
      saveState();
    }
  }

  synchronized void finish() {
    if (!finished && !deleted) {
      finished = true;
      saveState();
    }
  }

  /** NOT_STORED: no blob store keeps this run's log; the bytes go, a small state file stays until the run ends. */
  synchronized void drop() {
    if (dropped || deleted) {
      return;
    }
    dropped = true;
    closeChannel();
    copies.release(length);
    deleteQuietly(logFile);
    saveState();
  }

  synchronized void delete() {
    if (deleted) {
      return;
    }
    deleted = true;
    closeChannel();
    if (!dropped) {
      copies.release(length);
    }
    deleteQuietly(logFile);
    deleteQuietly(stateFile);
  }

  synchronized void close() {
    closeChannel();
  }

  private FileChannel channel() throws IOException {
    if (channel == null) {
      channel = FileChannel.open(logFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }
    return channel;
  }

  private void closeChannel() {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        LOG.fine(() -> "event=log_copy_close_failed file=" + logFile + " error=\"" + e.getMessage() + "\"");
      }
      channel = null;
    }
  }

  private void saveState() {
    try {
      writeState();
    } catch (IOException e) {
      LOG.warning("event=log_copy_state_failed file=" + stateFile + " error=\"" + e.getMessage()
          + "\" message=\"after a restart this run's log is sent again from an older offset\"");
    }
  }

  private void writeState() throws IOException {
    Properties state = new Properties();
    state.setProperty("run_id", runId);
    state.setProperty("job", job);
    state.setProperty("shipped", Long.toString(shipped));
    state.setProperty("finished", Boolean.toString(finished));
    state.setProperty("cut", Boolean.toString(cut));
    state.setProperty("dropped", Boolean.toString(dropped));
    Path temporary = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(temporary)) {
      state.store(out, null);
    }
    try {
      Files.move(temporary, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(temporary, stateFile, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      LOG.warning("event=log_copy_delete_failed file=" + file + " error=\"" + e.getMessage() + "\"");
    }
  }
}

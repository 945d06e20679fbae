package dev.varroa.dashboard.logs;

import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.dashboard.records.InvalidParameterException;
import dev.varroa.dashboard.records.RecordLookup;
import dev.varroa.dashboard.records.RunItem;
import dev.varroa.dashboard.records.RunRecords;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogReader;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStoreException;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.logs.LogTail;
import io.nats.client.Connection;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A run's console log for GET /runs/{runId}/log (a byte range) and /log/stream (live): the run is found in the runs
 * table by its id, which names the log's key (cluster, namespace, controller, run id), and the bytes come from the
 * recorder's log store (s3 or postgres tier, read-only) through its {@link LogReader}.
 */
public final class ConsoleLogs implements AutoCloseable {

  /** The most bytes one range read returns (the API's length ceiling): 1 MiB. */
  public static final int MAX_LENGTH = LogReader.MAX_READ_BYTES;
  /** GET /runs/{runId}/log's length when none is asked for. */
  public static final int DEFAULT_LENGTH = 64 * 1024;

  private final RunRecords runs;
  private final LogReader reader;
  private final Optional<LogStore> owned;

  /** Reads through reader; the caller keeps and closes the reader and its store. */
  public ConsoleLogs(RunRecords runs, LogReader reader) {
    this(runs, reader, Optional.empty());
  }

  private ConsoleLogs(RunRecords runs, LogReader reader, Optional<LogStore> owned) {
    this.runs = runs;
    this.reader = reader;
    this.owned = owned;
  }

  /**
   * The console logs of the store the VARROA_BLOB_* settings name, or empty when no logs are kept (VARROA_BLOB_MODE
   * unset). nats serves live follows and may be null for range reads only. Closing closes the store.
   */
  public static Optional<ConsoleLogs> open(BlobStoreSettings settings, RunRecords runs, Connection nats) {
    return LogStores.open(settings, "varroa-dashboard")
        .map(store -> new ConsoleLogs(runs, new LogReader(store, nats), Optional.of(store)));
  }

  /**
   * A range of the log: up to length bytes (1..{@value #MAX_LENGTH}) from byte from (0 or more).
   *
   * @return the range, or Denied/Missing for the run as {@link RunRecords#locate} finds it
   */
  public RecordLookup<LogRange> read(String runId, long from, int length, Predicate<ControllerScope> allowed)
      throws SQLException, LogStoreException {
    if (from < 0) {
      throw new InvalidParameterException("from", "from must be a byte offset (0 or more), got " + from);
    }
    if (length < 1 || length > MAX_LENGTH) {
      throw new InvalidParameterException("length", "length must be between 1 and " + MAX_LENGTH + ", got " + length);
    }
    RecordLookup<RunItem> run = runs.locate(runId, allowed);
    if (!(run instanceof RecordLookup.Found<RunItem> found)) {
      return notFound(run);
    }
    LogKey key = key(found.value());
    LogExtent extent = reader.extent(key);
    byte[] bytes = reader.read(key, from, length);
    long next = from + bytes.length;
    // Bytes stored between the two calls: the range is still right, the size then is at least its end.
    long size = bytes.length == 0 ? extent.storedThrough() : Math.max(extent.storedThrough(), next);
    return new RecordLookup.Found<>(new LogRange(bytes, size, next, extent.complete()));
  }

  /**
   * Follows the log from byte from: what is stored now, then each new piece as it is announced on NATS, handed to
   * follower as whole UTF-8 characters, in order, one call at a time. Close the returned tail to stop; it stops by
   * itself after {@link Follower#end}.
   */
  public RecordLookup<LogTail> follow(String runId, long from, Predicate<ControllerScope> allowed, Follower follower)
      throws SQLException {
    if (from < 0) {
      throw new InvalidParameterException("from", "from must be a byte offset (0 or more), got " + from);
    }
    RecordLookup<RunItem> run = runs.locate(runId, allowed);
    if (!(run instanceof RecordLookup.Found<RunItem> found)) {
      return notFound(run);
    }
    return new RecordLookup.Found<>(reader.tail(key(found.value()), from, new CharacterTail(follower)));
  }

  private static <T> RecordLookup<T> notFound(RecordLookup<RunItem> run) {
    return run instanceof RecordLookup.Denied<RunItem> denied ? new RecordLookup.Denied<>(denied.scope())
        : new RecordLookup.Missing<>();
  }

  private static LogKey key(RunItem run) {
    return new LogKey(run.cluster(), run.namespace(), run.controller(), run.runId());
  }

  /**
   * A range read: the bytes [next - bytes.length, next), the log's stored size, and whether the log is finished (its
   * last chunk landed; a reader at next == size then has all of it).
   */
  public record LogRange(byte[] bytes, long size, long next, boolean complete) {

    /** Whether next reached the end of a finished log: nothing more will ever come. */
    public boolean atEnd() {
      return complete && next >= size;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof LogRange range && Arrays.equals(bytes, range.bytes) && size == range.size
          && next == range.next && complete == range.complete;
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(bytes) + Long.hashCode(next);
    }

    @Override
    public String toString() {
      return "LogRange[" + bytes.length + " bytes, size=" + size + ", next=" + next + ", complete=" + complete + "]";
    }
  }

  /** What a live follow hands over (the SSE events {@code chunk} and {@code end}); calls never overlap. */
  public interface Follower {

    /** text is the log's bytes [offset, next) decoded; next is a character boundary, the SSE id to resume at. */
    void chunk(long offset, String text, long next);

    /** The whole log, size bytes, was handed over; the follow has stopped. */
    void end(long size);

    /** The store could not be read; the follow tries again at the next announcement. */
    default void failed(LogStoreException error) {
    }
  }

  // Holds back a character split between two store reads until its last byte arrives.
  private static final class CharacterTail implements LogTail.Listener {

    private final Follower follower;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private long heldFrom = -1;

    CharacterTail(Follower follower) {
      this.follower = follower;
    }

    @Override
    public void bytes(long offset, byte[] data) {
      if (heldFrom < 0) {
        heldFrom = offset;
      }
      held.write(data, 0, data.length);
      byte[] pending = held.toByteArray();
      int whole = Utf8Boundary.completePrefix(pending, pending.length);
      if (whole == 0) {
        return;
      }
      long start = heldFrom;
      held.reset();
      held.write(pending, whole, pending.length - whole);
      heldFrom = start + whole;
      follower.chunk(start, new String(pending, 0, whole, StandardCharsets.UTF_8), start + whole);
    }

    @Override
    public void complete(long totalBytes) {
      if (held.size() > 0) {
        // A log that ends inside a character: the decoder shows what is there.
        byte[] rest = held.toByteArray();
        held.reset();
        follower.chunk(heldFrom, new String(rest, StandardCharsets.UTF_8), heldFrom + rest.length);
      }
      follower.end(totalBytes);
    }

    @Override
    public void failed(LogStoreException error) {
      follower.failed(error);
    }
  }

  @Override
  public void close() {
    if (owned.isPresent()) {
      reader.close();
      owned.get().close();
    }
  }
}

package dev.varroa.recorder.logs;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's rules for console log chunks. S is what the store holds of the run (cached per run in a bounded
 * LRU, re-read on a miss, after a failure, or when a chunk starts past the cached S) and end = offset + length:
 * offset > S is a GAP; end <= S is a DUPLICATE (unless it is the last chunk of a log not yet complete); otherwise
 * the bytes from S on are written at S and the chunk is STORED, a last chunk marking the log complete. A complete
 * log refuses anything past its end with a GAP. A store failure is UNAVAILABLE; no store at all is NOT_STORED.
 * Chunks of one run are handled one at a time, different runs in parallel.
 */
public final class LogChunkAppender {

  private static final Logger LOG = LoggerFactory.getLogger(LogChunkAppender.class);
  /** Runs whose extent is kept in memory: far more than the concurrent log streams one gateway serves. */
  public static final int DEFAULT_CACHED_RUNS = 4096;
  static final String NO_STORE = "this installation keeps no console logs (VARROA_BLOB_MODE is unset): "
      + "stop sending this run's log";

  /** Told after every write that landed: the new bytes are [from, after.storedThrough()). */
  @FunctionalInterface
  public interface StoredListener {
    void stored(LogKey key, LogChunk chunk, long from, LogExtent after);
  }

  private static final StoredListener NOBODY = (key, chunk, from, after) -> { };

  private final LogStore store;
  private final Map<LogKey, LogExtent> extents;
  private final ConcurrentHashMap<LogKey, RunLock> locks = new ConcurrentHashMap<>();

  public LogChunkAppender(Optional<LogStore> store, int cachedRuns) {
    if (cachedRuns < 1) {
      throw new IllegalArgumentException("cachedRuns must be at least 1, got " + cachedRuns);
    }
    this.store = store.orElse(null);
    this.extents = new LinkedHashMap<>(64, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<LogKey, LogExtent> eldest) {
        return size() > cachedRuns;
      }
    };
  }

  public LogChunkAppender(Optional<LogStore> store) {
    this(store, DEFAULT_CACHED_RUNS);
  }

  /** Whether chunks go anywhere: false answers NOT_STORED to all of them. */
  public boolean storing() {
    return store != null;
  }

  /** One ack per chunk, in the batch's order, telling onStored of each write that landed; blocks while it writes. */
  public LogChunkBatchAck append(String cluster, String namespace, String controller, LogChunkBatch batch,
      StoredListener onStored) {
    LogChunkBatchAck.Builder acks = LogChunkBatchAck.newBuilder();
    for (LogChunk chunk : batch.getChunksList()) {
      if (chunk.getRunId().isBlank()) {
        acks.addAcks(ack(chunk, LogChunkAck.Result.NOT_STORED, 0, false,
            "a log chunk needs a run_id: nothing of it can be stored"));
        continue;
      }
      acks.addAcks(append(new LogKey(cluster, namespace, controller, chunk.getRunId()), chunk, onStored));
    }
    return acks.build();
  }

  /** The answer to one chunk of the run key names; blocks while the store works. */
  public LogChunkAck append(LogKey key, LogChunk chunk) {
    return append(key, chunk, NOBODY);
  }

  /** As above, telling onStored about the write when one landed. */
  public LogChunkAck append(LogKey key, LogChunk chunk, StoredListener onStored) {
    if (store == null) {
      return ack(chunk, LogChunkAck.Result.NOT_STORED, 0, false, NO_STORE);
    }
    RunLock lock = lock(key);
    try {
      return appendLocked(key, chunk, onStored);
    } finally {
      unlock(key, lock);
    }
  }

  private LogChunkAck appendLocked(LogKey key, LogChunk chunk, StoredListener onStored) {
    long offset = chunk.getOffset();
    ByteString data = chunk.getData();
    long end = offset + data.size();
    LogExtent known = cached(key);
    try {
      if (known == null || (offset > known.storedThrough() && !known.complete())) {
        known = store.extent(key);
        remember(key, known);
      }
      long stored = known.storedThrough();
      if (known.complete()) {
        if (end <= stored) {
          return ack(chunk, LogChunkAck.Result.DUPLICATE, stored, true, "");
        }
        return ack(chunk, LogChunkAck.Result.GAP, stored, true, "the log of run " + key.runId() + " is complete at "
            + stored + " bytes: nothing past its end is stored");
      }
      if (offset > stored) {
        return ack(chunk, LogChunkAck.Result.GAP, stored, false, "the store holds " + stored + " bytes of run "
            + key.runId() + ": send from " + stored);
      }
      if (end <= stored && !chunk.getLast()) {
        return ack(chunk, LogChunkAck.Result.DUPLICATE, stored, false, "");
      }
      long skip = stored - offset;
      byte[] fresh = skip >= data.size() ? new byte[0] : data.substring((int) skip).toByteArray();
      LogExtent after = store.write(key, stored, fresh, chunk.getLast());
      remember(key, after);
      notifyStored(onStored, key, chunk, stored, after);
      // A last chunk ending before what is stored cannot take bytes back: the log ends at what the store holds.
      String note = end < stored ? "the store already held " + stored + " bytes, past this last chunk's end " + end
          + ": the log is complete at " + stored : "";
      return ack(chunk, LogChunkAck.Result.STORED, after.storedThrough(), after.complete(), note);
    } catch (LogStoreException | RuntimeException e) {
      forget(key);
      LOG.warn("event=log_store_failed run={} offset={} bytes={} error=\"{}\"", key, offset, data.size(), e.getMessage());
      return ack(chunk, LogChunkAck.Result.UNAVAILABLE, known == null ? 0 : known.storedThrough(),
          known != null && known.complete(), "the " + store.tier() + " log store failed: " + e.getMessage());
    }
  }

  private static void notifyStored(StoredListener onStored, LogKey key, LogChunk chunk, long from, LogExtent after) {
    try {
      onStored.stored(key, chunk, from, after);
    } catch (RuntimeException e) {
      // The bytes are stored whatever the announcement did; the ack must say so.
      LOG.warn("event=log_stored_listener_failed run={} error=\"{}\"", key, e.toString());
    }
  }

  private static LogChunkAck ack(LogChunk chunk, LogChunkAck.Result result, long storedThrough, boolean complete,
      String message) {
    return LogChunkAck.newBuilder()
        .setRunId(chunk.getRunId())
        .setOffset(chunk.getOffset())
        .setResult(result)
        .setStoredThrough(storedThrough)
        .setComplete(complete)
        .setMessage(message)
        .build();
  }

  private LogExtent cached(LogKey key) {
    synchronized (extents) {
      return extents.get(key);
    }
  }

  private void remember(LogKey key, LogExtent extent) {
    synchronized (extents) {
      extents.put(key, extent);
    }
  }

  private void forget(LogKey key) {
    synchronized (extents) {
      extents.remove(key);
    }
  }

  /** How many runs' extents are cached now (bounded by cachedRuns). */
  int cachedRuns() {
    synchronized (extents) {
      return extents.size();
    }
  }

  /** How many runs have a chunk in flight now; their locks go once the last one leaves. */
  int lockedRuns() {
    return locks.size();
  }

  private RunLock lock(LogKey key) {
    RunLock lock = locks.compute(key, (k, existing) -> {
      RunLock held = existing == null ? new RunLock() : existing;
      held.users++;
      return held;
    });
    lock.lock.lock();
    return lock;
  }

  private void unlock(LogKey key, RunLock lock) {
    lock.lock.unlock();
    locks.computeIfPresent(key, (k, held) -> --held.users == 0 ? null : held);
  }

  // users is only changed inside ConcurrentHashMap.compute for its key, which serializes those changes.
  private static final class RunLock {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }
}

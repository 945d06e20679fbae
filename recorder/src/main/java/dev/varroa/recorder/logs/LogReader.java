package dev.varroa.recorder.logs;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads console logs for a viewer (the dashboard): byte ranges of a stored log, and live tails that follow the
 * LogAppended announcements on core NATS (never JetStream) and read each run's new bytes from the store.
 * One NATS dispatcher serves every tail; store reads run on a small pool of the reader's own.
 */
public final class LogReader implements AutoCloseable {

  /** The most bytes one read returns, whatever the caller asks. */
  public static final int MAX_READ_BYTES = 1 << 20;
  private static final int READ_THREADS = 2;

  private final LogStore store;
  private final Connection nats;
  private final ExecutorService reads;
  private Dispatcher dispatcher;

  /** nats may be null for a reader that only reads ranges. */
  public LogReader(LogStore store, Connection nats) {
    this.store = store;
    this.nats = nats;
    AtomicInteger threads = new AtomicInteger();
    this.reads = Executors.newFixedThreadPool(READ_THREADS, runnable -> {
      Thread thread = new Thread(runnable, "varroa-log-reader-" + threads.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    });
  }

  public LogExtent extent(LogKey key) throws LogStoreException {
    return store.extent(key);
  }

  /** Up to maxBytes (at most {@link #MAX_READ_BYTES}) from byte from on; empty at or past the stored end. */
  public byte[] read(LogKey key, long from, int maxBytes) throws LogStoreException {
    return store.read(key, from, Math.min(maxBytes, MAX_READ_BYTES));
  }

  /**
   * Follows the log from byte from: the bytes stored now, then each new piece as it is announced, in order, to
   * listener (on a reader thread, one call at a time per tail). Ends by itself once the complete log was handed over.
   */
  public LogTail tail(LogKey key, long from, LogTail.Listener listener) {
    if (nats == null) {
      throw new IllegalStateException("this LogReader has no NATS connection: a live tail needs one");
    }
    // The subject names the controller by namespace and name only; the uid is not part of it.
    String subject = BusNames.logAppended(key.cluster(),
        new ControllerIdentity(key.namespace(), key.controller(), "tail"), key.runId());
    LogTail tail = new LogTail(store, key, from, listener, reads);
    tail.subscribe(dispatcher(), subject);
    return tail;
  }

  private synchronized Dispatcher dispatcher() {
    if (dispatcher == null) {
      dispatcher = nats.createDispatcher();
    }
    return dispatcher;
  }

  @Override
  public synchronized void close() {
    if (dispatcher != null) {
      nats.closeDispatcher(dispatcher);
      dispatcher = null;
    }
    reads.shutdownNow();
  }
}

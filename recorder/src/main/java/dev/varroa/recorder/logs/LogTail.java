package dev.varroa.recorder.logs;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.v1.LogAppended;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A live view of one run's log. Every LogAppended announcement only says "there is more": the tail then reads from
 * where it stands until the store has nothing further, so a lost announcement is made up for by the next one and
 * bytes always arrive in order, each exactly once.
 */
public final class LogTail implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LogTail.class);
  private static final int READ_BYTES = 256 * 1024;

  /** What a tail hands over; calls for one tail never overlap. */
  public interface Listener {
    /** data is the log's bytes [offset, offset + data.length). */
    void bytes(long offset, byte[] data);

    /** The whole log (totalBytes long) was handed over; the tail has stopped. */
    default void complete(long totalBytes) {
    }

    /** The store could not be read; the tail tries again at the next announcement. */
    default void failed(LogStoreException error) {
    }
  }

  private final LogStore store;
  private final LogKey key;
  private final Listener listener;
  private final Executor reads;
  private final AtomicBoolean pending = new AtomicBoolean(true);
  private final AtomicBoolean running = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicLong completeAt = new AtomicLong(-1);
  private volatile long position;
  private volatile boolean extentChecked;
  private Dispatcher dispatcher;
  private Subscription subscription;

  LogTail(LogStore store, LogKey key, long from, Listener listener, Executor reads) {
    this.store = store;
    this.key = key;
    this.position = from;
    this.listener = listener;
    this.reads = reads;
  }

  // Subscribed before the first read, so nothing appended between the two is missed.
  synchronized void subscribe(Dispatcher dispatcher, String subject) {
    this.dispatcher = dispatcher;
    this.subscription = dispatcher.subscribe(subject, this::announced);
    signal();
  }

  /** The next byte the tail will hand over. */
  public long position() {
    return position;
  }

  public boolean isOpen() {
    return !closed.get();
  }

  private void announced(Message message) {
    try {
      LogAppended appended = LogAppended.parseFrom(message.getData());
      if (appended.getComplete()) {
        completeAt.set(appended.getStoredThrough());
      }
    } catch (InvalidProtocolBufferException e) {
      LOG.debug("event=log_announcement_unreadable subject={} error=\"{}\"", message.getSubject(), e.getMessage());
    }
    signal();
  }

  private void signal() {
    pending.set(true);
    if (!closed.get() && running.compareAndSet(false, true)) {
      reads.execute(this::drain);
    }
  }

  private void drain() {
    try {
      while (!closed.get() && pending.getAndSet(false)) {
        readWhatIsStored();
      }
    } finally {
      running.set(false);
    }
    // An announcement that came after the loop's last check but before running was cleared.
    if (pending.get() && !closed.get() && running.compareAndSet(false, true)) {
      reads.execute(this::drain);
    }
  }

  private void readWhatIsStored() {
    try {
      if (!extentChecked) {
        LogExtent extent = store.extent(key);
        if (extent.complete()) {
          completeAt.set(extent.storedThrough());
        }
        extentChecked = true;
      }
      while (!closed.get()) {
        byte[] data = store.read(key, position, READ_BYTES);
        if (data.length == 0) {
          break;
        }
        long offset = position;
        position = offset + data.length;
        listener.bytes(offset, data);
      }
      long total = completeAt.get();
      if (total >= 0 && position >= total && closed.compareAndSet(false, true)) {
        unsubscribe();
        listener.complete(position);
      }
    } catch (LogStoreException e) {
      listener.failed(e);
    }
  }

  private synchronized void unsubscribe() {
    if (subscription != null && dispatcher.isActive()) {
      dispatcher.unsubscribe(subscription);
    }
    subscription = null;
  }

  @Override
  public void close() {
    closed.set(true);
    unsubscribe();
  }
}

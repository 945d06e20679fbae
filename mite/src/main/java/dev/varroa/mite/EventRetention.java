package dev.varroa.mite;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.EventBatch;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.MiteMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mite's middle tier of event durability: every event the plugin posts is kept in memory, keyed by
 * (runId, sequence) in arrival order, until the gateway acknowledges it, and forwarded over the current
 * stream. A new stream first gets every retained event again, in order, then whatever arrives later.
 * Bounded by serialized size: at the cap, posters wait for room.
 */
final class EventRetention implements ChannelSession.StreamUser, AutoCloseable {

  /** DATAPLANE.md: at most 500 events per MiteMessage.events. */
  static final int BATCH_EVENTS = 500;
  /** DATAPLANE.md: at most 1 MiB of serialized events per MiteMessage.events. */
  static final long BATCH_BYTES = 1024L * 1024;
  /** What one held event costs the heap beyond its bytes (map entry, key, array header): counted against the cap. */
  static final int ENTRY_OVERHEAD_BYTES = 128;

  private static final Logger LOG = LoggerFactory.getLogger(EventRetention.class);

  /** What happened to one posted batch: the keys it holds in retention, and how many found no room. */
  record Admission(Set<EventKey> held, int added, int duplicates, int refused) {
  }

  // The set holds serialized bytes, not parsed messages: a parsed event costs several times its wire size
  // on the heap, and the mite's heap is small. The run id is shared by a run's events, one copy per run.
  private record Key(String runId, long sequence) {
    static Key of(EventKey key) {
      return new Key(key.getRunId().intern(), key.getSequence());
    }

    EventKey proto() {
      return EventKey.newBuilder().setRunId(runId).setSequence(sequence).build();
    }
  }

  private final long capBytes;
  private final Clock clock;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<Key, byte[]> retained = new LinkedHashMap<>();
  private final ExecutorService pump = Executors.newSingleThreadExecutor(GatewayChannels.daemonThreads("mite-events"));
  private long bytes;
  private ChannelSession.StreamLink link;
  // what the current stream has not been sent yet, in retention order
  private final ArrayDeque<Key> unsent = new ArrayDeque<>();
  private boolean pumpQueued;

  EventRetention(long capBytes, Clock clock) {
    this.capBytes = capBytes;
    this.clock = clock;
  }

  static EventKey key(BuildEvent event) {
    return EventKey.newBuilder().setRunId(event.getRunId()).setSequence(event.getSequence()).build();
  }

  /** Waits until the retention set is below its cap; false when the deadline passed first. */
  boolean awaitRoom(Instant deadline) throws InterruptedException {
    lock.lock();
    try {
      while (bytes >= capBytes) {
        if (!awaitUntil(deadline)) {
          return bytes < capBytes;
        }
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Retains the batch's events in order, each known key once, waiting for room until the deadline;
   * events still without room then are refused (not retained, not forwarded) and the plugin resends them.
   */
  Admission admit(List<BuildEvent> events, Instant deadline) throws InterruptedException {
    Set<EventKey> held = new LinkedHashSet<>();
    int added = 0;
    int duplicates = 0;
    int refused = 0;
    lock.lock();
    try {
      for (BuildEvent event : events) {
        EventKey key = key(event);
        Key compact = Key.of(key);
        long size = heldBytes(event);
        while (true) {
          if (held.contains(key) || retained.containsKey(compact)) {
            held.add(key);
            duplicates++;
            break;
          }
          // once one event found no room the rest of the batch is refused too, so arrival order holds;
          // an empty set takes any one event, so a single event bigger than the cap cannot block forever
          if (refused == 0 && (bytes == 0 || bytes + size <= capBytes)) {
            retained.put(compact, event.toByteArray());
            bytes += size;
            held.add(key);
            added++;
            if (link != null) {
              unsent.add(compact);
            }
            break;
          }
          // what this batch added so far goes out first: its acks may be the room it waits for
          schedulePump();
          if (refused > 0 || !awaitUntil(deadline)) {
            refused++;
            break;
          }
        }
      }
      schedulePump();
    } finally {
      lock.unlock();
    }
    return new Admission(held, added, duplicates, refused);
  }

  /** Waits until the gateway acknowledged every held key or the deadline passed; the acknowledged ones, in order. */
  List<EventKey> awaitAcknowledged(Set<EventKey> held, Instant deadline) throws InterruptedException {
    lock.lock();
    try {
      List<Key> waitingFor = held.stream().map(Key::of).toList();
      while (waitingFor.stream().anyMatch(retained::containsKey)) {
        if (!awaitUntil(deadline)) {
          break;
        }
      }
      List<EventKey> acknowledged = new ArrayList<>();
      for (EventKey key : held) {
        if (!retained.containsKey(Key.of(key))) {
          acknowledged.add(key);
        }
      }
      return acknowledged;
    } finally {
      lock.unlock();
    }
  }

  /** Events held now. */
  int retainedEvents() {
    lock.lock();
    try {
      return retained.size();
    } finally {
      lock.unlock();
    }
  }

  /** What holding the event counts against VARROA_EVENT_RETAIN_BYTES: its bytes and its entry's overhead. */
  static long heldBytes(BuildEvent event) {
    return event.getSerializedSize() + (long) ENTRY_OVERHEAD_BYTES;
  }

  /** Bytes held now: the events' serialized bytes and their entries' overhead. */
  long retainedBytes() {
    lock.lock();
    try {
      return bytes;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void welcomed(ChannelSession.StreamLink stream) {
    lock.lock();
    try {
      link = stream;
      unsent.clear();
      // the replay: everything retained goes first; events admitted from now on queue behind it
      unsent.addAll(retained.keySet());
      if (!unsent.isEmpty()) {
        LOG.info("event=events_replay events={} bytes={}", unsent.size(), bytes);
      }
      schedulePump();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void ended(ChannelSession.StreamLink stream) {
    lock.lock();
    try {
      if (link == stream) {
        link = null;
        unsent.clear();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void received(GatewayMessage message) {
    if (!message.hasEventsAck()) {
      return;
    }
    lock.lock();
    try {
      int released = 0;
      for (EventKey key : message.getEventsAck().getKeysList()) {
        byte[] gone = retained.remove(Key.of(key));
        if (gone != null) {
          bytes -= gone.length + ENTRY_OVERHEAD_BYTES;
          released++;
        }
      }
      changed.signalAll();
      LOG.debug("event=events_acknowledged keys={} released={} retained_events={} retained_bytes={}",
          message.getEventsAck().getKeysCount(), released, retained.size(), bytes);
    } finally {
      lock.unlock();
    }
  }

  // called with the lock held
  private void schedulePump() {
    if (pumpQueued || link == null || unsent.isEmpty()) {
      return;
    }
    pumpQueued = true;
    try {
      pump.execute(this::forward);
    } catch (RejectedExecutionException closing) {
      pumpQueued = false;
    }
  }

  /** Sends what the current stream lacks, in batches, until nothing is left; runs on the pump thread only. */
  private void forward() {
    while (true) {
      ChannelSession.StreamLink target;
      ByteString.Output batch = ByteString.newOutput();
      int count = 0;
      lock.lock();
      try {
        target = link;
        while (target != null && !unsent.isEmpty() && count < BATCH_EVENTS) {
          byte[] next = retained.get(unsent.peek());
          if (next == null) {
            unsent.poll();
            continue;
          }
          if (count > 0 && batch.size() + framed(next) > BATCH_BYTES) {
            break;
          }
          unsent.poll();
          appendEvent(batch, next);
          count++;
        }
        if (count == 0) {
          pumpQueued = false;
          return;
        }
      } finally {
        lock.unlock();
      }
      EventBatch events;
      try {
        events = EventBatch.parseFrom(batch.toByteString());
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("retained events no longer parse", e);
      }
      if (!target.send(MiteMessage.newBuilder().setEvents(events).build())) {
        // the stream ended; the next Welcome replays everything still retained
        LOG.debug("event=events_forward_stopped reason=stream_ended events={}", count);
      }
    }
  }

  private static int framed(byte[] event) {
    return CodedOutputStream.computeByteArraySize(EventBatch.EVENTS_FIELD_NUMBER, event);
  }

  // EventBatch.events is field 1, length-delimited: the batch is its events' bytes, each behind tag and length
  private static void appendEvent(ByteString.Output batch, byte[] event) {
    try {
      CodedOutputStream out = CodedOutputStream.newInstance(batch);
      out.writeByteArray(EventBatch.EVENTS_FIELD_NUMBER, event);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory failed", e);
    }
  }

  // false once the deadline has passed
  private boolean awaitUntil(Instant deadline) throws InterruptedException {
    long nanos = Duration.between(clock.instant(), deadline).toNanos();
    if (nanos <= 0) {
      return false;
    }
    changed.awaitNanos(nanos);
    return true;
  }

  @Override
  public void close() {
    pump.shutdownNow();
    try {
      pump.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

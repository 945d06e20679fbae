package dev.varroa.dashboard.activity;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import io.nats.client.MessageConsumer;
import io.nats.client.StreamContext;
import io.nats.client.api.DeliverPolicy;
import io.nats.client.api.OrderedConsumerConfiguration;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seed 001's BusFanout: one live subscription to activity, fanned out to every SSE client of GET /activity/stream.
 *
 * <p>With JetStream (the recorder's varroa_activity stream) the live feed is an ordered consumer, and each delivery
 * carries its stream sequence as the SSE id. A client that comes back with {@code Last-Event-ID: N} first gets a
 * replay from N + 1 on an ordered consumer of its own, read only as fast as it takes the events, and joins the live
 * feed at the moment the replay has caught up with it: every event once, in stream order, none lost, none repeated
 * (both sides are deduplicated by sequence at the seam). Without the stream (no recorder, or no JetStream rights) the
 * subjects are read by a core subscription: live events without ids, and no resume.
 *
 * <p>Each subscriber has a bounded queue and takes turns on a small pool of delivery threads: a client slower than
 * the feed is ended with a reason once its queue is full, and a listener stuck in a call has its thread replaced, so
 * neither holds up the others or the bus.
 */
public final class BusFanout implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BusFanout.class);

  /** Events one subscriber may fall behind the live feed before it is ended as too slow. */
  public static final int SUBSCRIBER_QUEUE = 1024;
  /** How long a replay waits for a subscriber to make room before ending it as too slow. */
  static final Duration REPLAY_ROOM_WAIT = Duration.ofSeconds(30);
  /** A replay's wait for its next event before it checks whether it has caught up with the live feed. */
  static final Duration REPLAY_POLL = Duration.ofMillis(200);
  /** Delivery threads taking turns among the subscribers while no listener is stuck. */
  static final int DELIVERY_THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
  /** A listener call longer than this is stuck (a client's socket took no bytes): its thread is replaced. */
  static final Duration STALL = Duration.ofMillis(250);
  static final Duration STALL_CHECK = Duration.ofMillis(50);
  public static final String SLOW_SUBSCRIBER = "slow subscriber: more than %d events behind the live feed";
  public static final String SHUTTING_DOWN = "the BFF is shutting down";

  private final Connection nats;
  private final String fallbackCluster;
  private final int queueCapacity;
  private final Optional<StreamContext> stream;
  private final Dispatcher dispatcher;
  private final ThreadPoolExecutor deliveries;
  private final ExecutorService replays;
  private final ScheduledExecutorService watchdog;
  private final Set<FanoutSubscription> all = ConcurrentHashMap.newKeySet();
  private final List<FanoutSubscription> live = new CopyOnWriteArrayList<>();
  private final Object seam = new Object();
  // The highest sequence the live feed has passed on; guarded by seam.
  private long frontier;
  private MessageConsumer liveConsumer;
  private volatile boolean closed;

  /** What a subscriber receives; calls for one subscription never overlap and may block (the queue then fills). */
  public interface Listener {

    void event(ActivityDelivery delivery);

    /** The fanout ended this subscription (too slow, the listener threw, shutdown); no call follows. */
    void ended(String reason);
  }

  private BusFanout(Connection nats, String fallbackCluster, int queueCapacity, Optional<StreamContext> stream) {
    this.nats = nats;
    this.fallbackCluster = fallbackCluster;
    this.queueCapacity = queueCapacity;
    this.stream = stream;
    this.dispatcher = nats.createDispatcher();
    // A few threads take turns delivering (hundreds of threads for hundreds of clients cost more in switching than
    // they deliver); a listener stuck in a call gets its thread replaced by the watchdog, so it stalls nobody else.
    this.deliveries = new ThreadPoolExecutor(DELIVERY_THREADS, Integer.MAX_VALUE, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), threads("varroa-activity-fanout-"));
    // Replays wait for their client's room: each its own thread, for as long as it catches up.
    this.replays = Executors.newCachedThreadPool(threads("varroa-activity-replay-"));
    this.watchdog = Executors.newSingleThreadScheduledExecutor(threads("varroa-activity-watchdog-"));
    watchdog.scheduleWithFixedDelay(this::replaceStuckThreads, STALL_CHECK.toMillis(), STALL_CHECK.toMillis(),
        TimeUnit.MILLISECONDS);
  }

  private static ThreadFactory threads(String prefix) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }

  private void replaceStuckThreads() {
    long now = System.nanoTime();
    for (FanoutSubscription subscription : all) {
      if (subscription.stuckSince(now, STALL)) {
        synchronized (deliveries) {
          deliveries.setCorePoolSize(deliveries.getCorePoolSize() + 1);
        }
        // The call may have returned just before it was marked: then nobody else gives the thread back.
        subscription.settleIfReturned();
      }
    }
  }

  /** Delivery threads now: {@link #DELIVERY_THREADS} plus one per stuck call. */
  int deliveryThreads() {
    synchronized (deliveries) {
      return deliveries.getCorePoolSize();
    }
  }

  /** A stuck call returned: its stand-in thread is let go once idle. */
  void unstuck() {
    synchronized (deliveries) {
      deliveries.setCorePoolSize(Math.max(DELIVERY_THREADS, deliveries.getCorePoolSize() - 1));
    }
  }

  /** Starts the live feed with the default queue of {@value #SUBSCRIBER_QUEUE} events per subscriber. */
  public static BusFanout start(Connection nats, String fallbackCluster) throws IOException {
    return start(nats, fallbackCluster, SUBSCRIBER_QUEUE);
  }

  /**
   * Starts the live feed at the stream's end (or a core subscription of {@code activity.>} when the stream cannot be
   * read).
   *
   * @param fallbackCluster VARROA_CLUSTER_NAME, for an event that names no cluster (as the recorder stores it)
   */
  public static BusFanout start(Connection nats, String fallbackCluster, int queueCapacity) throws IOException {
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("a subscriber queue holds at least one event, got " + queueCapacity);
    }
    Optional<StreamContext> stream;
    long last = 0;
    try {
      StreamContext context = nats.getStreamContext(BusNames.ACTIVITY_STREAM);
      last = context.getStreamInfo().getStreamState().getLastSequence();
      stream = Optional.of(context);
    } catch (JetStreamApiException | IOException e) {
      LOG.warn("event=activity_stream_unavailable stream={} mode=core_subscription resume=false error=\"{}\"",
          BusNames.ACTIVITY_STREAM, e.getMessage());
      stream = Optional.empty();
    }
    BusFanout fanout = new BusFanout(nats, fallbackCluster, queueCapacity, stream);
    try {
      fanout.startLive(last);
    } catch (IOException | JetStreamApiException e) {
      fanout.close();
      throw new IOException("cannot follow " + BusNames.ACTIVITY_STREAM + ": " + e.getMessage(), e);
    }
    return fanout;
  }

  private void startLive(long last) throws IOException, JetStreamApiException {
    if (stream.isEmpty()) {
      dispatcher.subscribe(BusNames.activityFilter(), message -> live(ActivityDelivery.NO_SEQUENCE, message));
      return;
    }
    synchronized (seam) {
      frontier = last;
    }
    liveConsumer = stream.get().createOrderedConsumer(new OrderedConsumerConfiguration()
            .filterSubject(BusNames.activityFilter())
            .deliverPolicy(DeliverPolicy.ByStartSequence).startSequence(last + 1))
        .consume(dispatcher, message -> live(message.metaData().streamSequence(), message));
  }

  /** Whether deliveries carry stream sequences and Last-Event-ID resumes (false: a core subscription). */
  public boolean resumable() {
    return stream.isPresent();
  }

  /** Subscriptions currently following the live feed (replaying ones not yet). */
  public int subscribers() {
    return live.size();
  }

  /**
   * Subscribes listener to the events filter accepts. With lastEventId (an SSE client's Last-Event-ID, a stream
   * sequence) the events after it are replayed first; without it, or without the stream, delivery starts live.
   */
  public FanoutSubscription subscribe(OptionalLong lastEventId, Predicate<ControllerScope> filter, Listener listener) {
    if (closed) {
      throw new IllegalStateException("the activity fanout is closed");
    }
    FanoutSubscription subscription = new FanoutSubscription(this, filter, listener, queueCapacity);
    // Asked before taking the seam: the live feed never waits on a network round trip.
    long streamLast = lastEventId.isPresent() && stream.isPresent() && lastEventId.getAsLong() > currentFrontier()
        ? streamLastSequence() : -1;
    long after;
    synchronized (seam) {
      if (lastEventId.isEmpty() || stream.isEmpty() || lastEventId.getAsLong() >= frontier) {
        // An id ahead of this replica's live feed was seen elsewhere (its events are skipped as they arrive); an id
        // the stream never reached belongs to an older stream, and delivery starts now.
        boolean seenElsewhere = lastEventId.isPresent() && lastEventId.getAsLong() <= streamLast;
        subscription.startAfter(seenElsewhere ? lastEventId.getAsLong() : frontier);
        live.add(subscription);
        all.add(subscription);
        return subscription;
      }
      after = lastEventId.getAsLong();
      subscription.startAfter(after);
    }
    all.add(subscription);
    try {
      replays.execute(() -> replay(subscription, after));
    } catch (RejectedExecutionException shutDown) {
      subscription.end(SHUTTING_DOWN);
    }
    return subscription;
  }

  private long currentFrontier() {
    synchronized (seam) {
      return frontier;
    }
  }

  private long streamLastSequence() {
    try {
      return stream.get().getStreamInfo().getStreamState().getLastSequence();
    } catch (IOException | JetStreamApiException e) {
      return -1;
    }
  }

  private void replay(FanoutSubscription subscription, long after) {
    MessageConsumer consumer = null;
    try {
      var iterator = stream.get().createOrderedConsumer(new OrderedConsumerConfiguration()
              .filterSubject(BusNames.activityFilter())
              .deliverPolicy(DeliverPolicy.ByStartSequence).startSequence(after + 1))
          .iterate();
      consumer = iterator;
      while (subscription.isOpen() && !closed) {
        Message message = iterator.nextMessage(REPLAY_POLL);
        if (message != null) {
          long sequence = message.metaData().streamSequence();
          Optional<ActivityDelivery> delivery = parse(sequence, message);
          if (delivery.isPresent() ? !subscription.replayed(delivery.get(), REPLAY_ROOM_WAIT)
              : !subscription.skip(sequence)) {
            return;
          }
          if (message.metaData().pendingCount() > 0) {
            continue;
          }
        }
        // Caught up with the stream: join the live feed if it has passed nothing this subscriber has not seen.
        synchronized (seam) {
          if (frontier <= subscription.lastSequence()) {
            live.add(subscription);
            return;
          }
        }
      }
      if (closed) {
        subscription.end(SHUTTING_DOWN);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      subscription.end(SHUTTING_DOWN);
    } catch (Exception e) {
      LOG.warn("event=activity_replay_failed after={} error=\"{}\"", after, e.getMessage());
      subscription.end("the replay from Last-Event-ID " + after + " failed: " + e.getMessage());
    } finally {
      if (consumer != null) {
        consumer.stop();
      }
    }
  }

  private void live(long sequence, Message message) {
    Optional<ActivityDelivery> delivery = parse(sequence, message);
    // Under the seam: a replay joining now sees either all of this event's hand-outs or none.
    synchronized (seam) {
      if (sequence != ActivityDelivery.NO_SEQUENCE) {
        frontier = Math.max(frontier, sequence);
      }
      for (FanoutSubscription subscription : live) {
        if (delivery.isPresent()) {
          subscription.offer(delivery.get());
        } else {
          subscription.skip(sequence);
        }
      }
    }
  }

  private Optional<ActivityDelivery> parse(long sequence, Message message) {
    try {
      ActivityEvent event = ActivityEvent.parseFrom(message.getData());
      return Optional.of(new ActivityDelivery(sequence, ActivityItem.of(event, fallbackCluster)));
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("event=activity_unreadable subject={} sequence={} error=\"{}\"", message.getSubject(), sequence,
          e.getMessage());
      return Optional.empty();
    }
  }

  void deliverLater(Runnable task) {
    try {
      deliveries.execute(task);
    } catch (RejectedExecutionException shutDown) {
      // Closing: the last words (an ended call) are said on the caller's thread.
      task.run();
    }
  }

  void removed(FanoutSubscription subscription) {
    live.remove(subscription);
    all.remove(subscription);
  }

  String slowReason() {
    return String.format(SLOW_SUBSCRIBER, queueCapacity);
  }

  /** Stops the live feed and ends every subscription with {@value #SHUTTING_DOWN}. */
  @Override
  public void close() {
    closed = true;
    if (liveConsumer != null) {
      liveConsumer.stop();
    }
    if (dispatcher.isActive()) {
      nats.closeDispatcher(dispatcher);
    }
    for (FanoutSubscription subscription : all) {
      subscription.end(SHUTTING_DOWN);
    }
    watchdog.shutdownNow();
    replays.shutdown();
    deliveries.shutdown();
  }
}

package dev.varroa.protocol.bus;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import io.nats.client.Connection;
import io.nats.client.impl.Headers;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes activity (seed 001 "Activity Path") on core NATS: {@code activity.<cluster>.<ns>.<ctrl>} for a
 * controller, {@code activity.<cluster>._global} for the installation. Each event carries a fresh UUID, also sent
 * as the {@code Nats-Msg-Id} header so the recorder's stream stores a republished event once.
 *
 * <p>Fire and forget: the caller (a reconciler, a stream handler) never waits and never sees an exception. Events
 * leave from one background thread in the order they were made; while NATS is down, or the hand-off queue is full,
 * an event is dropped with a DEBUG line and counted in {@link #dropped()}. Activity is a record of what happened,
 * never a control path, so losing one while the bus is away is the documented trade.
 */
public final class ActivityPublisher {

  private static final Logger LOG = LoggerFactory.getLogger(ActivityPublisher.class);

  /** The JetStream de-duplication header. */
  public static final String MESSAGE_ID_HEADER = "Nats-Msg-Id";
  /** Events waiting for the background thread beyond this are dropped rather than held. */
  static final int HAND_OFF_CAPACITY = 1024;
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final Supplier<Connection> nats;
  private final String cluster;
  private final String actor;
  private final Clock clock;
  private final ThreadPoolExecutor sender;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  /**
   * @param nats the current connection, asked at every send (a replaced connection is picked up); null when
   *     there is none, which drops the event
   * @param cluster VARROA_CLUSTER_NAME of this installation
   * @param actor who the events are by, e.g. {@code operator} or {@code gateway/<id>}
   */
  public ActivityPublisher(Supplier<Connection> nats, String cluster, String actor, Clock clock) {
    this.nats = Objects.requireNonNull(nats, "nats");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.actor = Objects.requireNonNull(actor, "actor");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sender = new ThreadPoolExecutor(1, 1, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(HAND_OFF_CAPACITY),
        runnable -> {
          Thread thread = new Thread(runnable, "varroa-activity-" + THREADS.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        },
        (task, executor) -> {
          dropped.incrementAndGet();
          LOG.debug("event=activity_dropped reason=\"hand-off queue full\" capacity={}", HAND_OFF_CAPACITY);
        });
    // An idle publisher holds no thread.
    sender.allowCoreThreadTimeOut(true);
  }

  /** A publisher without a bus (the operator without VARROA_NATS_URL): every event is dropped and counted. */
  public static ActivityPublisher withoutBus(String cluster, String actor) {
    return new ActivityPublisher(() -> null, cluster, actor, Clock.systemUTC());
  }

  /** Activity of one controller; returns the event as published (or dropped). */
  public ActivityEvent controller(String namespace, String name, String kind, String summary,
      Map<String, String> attributes) {
    ActivityEvent event = event(namespace, name, kind, summary, attributes);
    send(BusNames.activity(cluster, namespace, name), event);
    return event;
  }

  /** Installation-wide activity, e.g. {@code operator.started}; returns the event as published (or dropped). */
  public ActivityEvent global(String kind, String summary, Map<String, String> attributes) {
    ActivityEvent event = event("", "", kind, summary, attributes);
    send(BusNames.activityGlobal(cluster), event);
    return event;
  }

  /** Events handed to NATS so far. */
  public long published() {
    return published.get();
  }

  /** Events dropped so far (NATS down, no bus, hand-off queue full, a refused publish). */
  public long dropped() {
    return dropped.get();
  }

  public String cluster() {
    return cluster;
  }

  private ActivityEvent event(String namespace, String name, String kind, String summary,
      Map<String, String> attributes) {
    ActivityEvent.Builder event = ActivityEvent.newBuilder()
        .setId(UUID.randomUUID().toString())
        .setCluster(cluster)
        .setNamespace(Objects.toString(namespace, ""))
        .setController(Objects.toString(name, ""))
        .setKind(Objects.toString(kind, ""))
        .setActor(actor)
        .setSummary(Objects.toString(summary, ""))
        .setOccurredAtEpochMillis(clock.millis());
    if (attributes != null) {
      attributes.forEach((key, value) -> {
        if (key != null && value != null) {
          event.putAttributes(key, value);
        }
      });
    }
    return event.build();
  }

  private void send(String subject, ActivityEvent event) {
    sender.execute(() -> {
      Connection connection;
      try {
        connection = nats.get();
      } catch (RuntimeException e) {
        connection = null;
      }
      if (connection == null || connection.getStatus() != Connection.Status.CONNECTED) {
        drop(subject, event, connection == null ? "no NATS connection" : "NATS " + connection.getStatus());
        return;
      }
      try {
        Headers headers = new Headers().put(MESSAGE_ID_HEADER, event.getId());
        connection.publish(subject, headers, event.toByteArray());
        published.incrementAndGet();
      } catch (RuntimeException e) {
        drop(subject, event, Redaction.describe(e));
      }
    });
  }

  private void drop(String subject, ActivityEvent event, String reason) {
    dropped.incrementAndGet();
    LOG.debug("event=activity_dropped subject={} kind={} id={} reason=\"{}\"", subject, event.getKind(), event.getId(),
        reason);
  }
}

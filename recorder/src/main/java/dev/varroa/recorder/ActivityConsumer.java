package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.Redaction;
import dev.varroa.recorder.store.ActivityWriter;
import dev.varroa.recorder.store.DatabaseErrors;
import io.nats.client.ConsumerContext;
import io.nats.client.FetchConsumeOptions;
import io.nats.client.FetchConsumer;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the recorder's activity buffer: pulls ActivityEvents from the durable consumer
 * {@code varroa-recorder-activity} on {@code varroa_activity}, inserts each pull's events in one transaction and
 * acknowledges them only after the commit. While the database fails the batch is handed back with a delay and
 * pulling backs off; the stream keeps 72 hours of events meanwhile, so an outage shorter than that loses nothing.
 */
final class ActivityConsumer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ActivityConsumer.class);

  static final int BATCH = 256;
  static final Duration FETCH_WAIT = Duration.ofSeconds(1);
  static final Duration BACKOFF_START = Duration.ofMillis(500);
  static final Duration BACKOFF_CAP = Duration.ofSeconds(15);

  private final BusConnection bus;
  private final ActivityWriter writer;
  private final Consumer<Boolean> databaseHealth;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Thread thread;
  private Duration backoff = BACKOFF_START;

  ActivityConsumer(BusConnection bus, ActivityWriter writer, Consumer<Boolean> databaseHealth) {
    this.bus = bus;
    this.writer = writer;
    this.databaseHealth = databaseHealth;
    this.thread = new Thread(this::run, "varroa-recorder-activity");
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    boolean topologyKnown = true;
    while (closing.getCount() > 0) {
      try {
        if (!topologyKnown) {
          // A NATS that lost its store (a new server) gets the buffer and the consumer back.
          BusTopology.ensureActivity(bus.connection());
          topologyKnown = true;
        }
        ConsumerContext consumer = bus.connection().getConsumerContext(BusNames.ACTIVITY_STREAM,
            BusNames.ACTIVITY_CONSUMER);
        List<Message> pulled = new ArrayList<>();
        try (FetchConsumer fetch = consumer.fetch(FetchConsumeOptions.builder()
            .maxMessages(BATCH).expiresIn(FETCH_WAIT.toMillis()).build())) {
          Message message;
          while ((message = fetch.nextMessage()) != null) {
            pulled.add(message);
          }
        }
        if (!pulled.isEmpty() && !store(pulled)) {
          pause();
        } else {
          backoff = BACKOFF_START;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        // NATS away (jnats reconnects meanwhile), the stream or consumer missing, a pull refused: pause and ask again.
        if (closing.getCount() == 0) {
          return;
        }
        LOG.warn("event=activity_pull_failed retryIn={} error=\"{}\"", backoff, Redaction.describe(e));
        topologyKnown = false;
        try {
          pause();
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /** False when the database failed (the batch was handed back). */
  private boolean store(List<Message> pulled) {
    List<ActivityEvent> events = new ArrayList<>();
    List<Message> storable = new ArrayList<>();
    for (Message message : pulled) {
      Optional<String> problem;
      ActivityEvent event = null;
      try {
        event = ActivityEvent.parseFrom(message.getData());
        problem = ActivityWriter.problem(event);
      } catch (InvalidProtocolBufferException e) {
        problem = Optional.of("not an ActivityEvent: " + e.getMessage());
      }
      if (problem.isPresent()) {
        LOG.error("event=activity_refused subject={} action=term reason=\"{}\"", message.getSubject(),
            problem.get().replace('"', '\''));
        message.term();
      } else {
        events.add(event);
        storable.add(message);
      }
    }
    try {
      int inserted = writer.write(events);
      storable.forEach(Message::ack);
      databaseHealth.accept(true);
      LOG.debug("event=activity_recorded pulled={} inserted={}", events.size(), inserted);
      return true;
    } catch (SQLException e) {
      if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
        databaseHealth.accept(false);
      }
      LOG.warn("event=activity_not_written events={} sqlState={} retryIn={} error=\"{}\"", events.size(),
          e.getSQLState(), backoff, DatabaseErrors.describe(e));
      storable.forEach(message -> message.nakWithDelay(backoff));
      return false;
    }
  }

  private void pause() throws InterruptedException {
    closing.await(backoff.toMillis(), TimeUnit.MILLISECONDS);
    Duration doubled = backoff.multipliedBy(2);
    backoff = doubled.compareTo(BACKOFF_CAP) > 0 ? BACKOFF_CAP : doubled;
  }

  @Override
  public void close() throws InterruptedException {
    closing.countDown();
    thread.join(FETCH_WAIT.multipliedBy(3).toMillis());
    if (thread.isAlive()) {
      thread.interrupt();
      thread.join(FETCH_WAIT.toMillis());
    }
  }
}

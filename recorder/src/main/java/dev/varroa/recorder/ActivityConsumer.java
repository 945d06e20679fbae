package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.recorder.store.ActivityWriter;
import dev.varroa.recorder.store.DatabaseErrors;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

  private final ActivityWriter writer;
  private final Consumer<Boolean> databaseHealth;
  private final DurablePull pull;

  ActivityConsumer(BusConnection bus, ActivityWriter writer, Consumer<Boolean> databaseHealth) {
    this.writer = writer;
    this.databaseHealth = databaseHealth;
    this.pull = new DurablePull("activity", bus, BusNames.ACTIVITY_STREAM, BusNames.ACTIVITY_CONSUMER, BATCH,
        BusTopology::ensureActivity, this::round);
  }

  void start() {
    pull.start();
  }

  // A pull's events go in one transaction: activity is many small rows, and a second's delay costs nobody.
  private DurablePull.Round round(Duration backoff) {
    List<Message> pulled = new ArrayList<>();
    return new DurablePull.Round() {
      @Override
      public void message(Message message) {
        pulled.add(message);
      }

      @Override
      public boolean end() {
        return pulled.isEmpty() || store(pulled, backoff);
      }
    };
  }

  /** False when the database failed (the batch was handed back). */
  private boolean store(List<Message> pulled, Duration backoff) {
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

  @Override
  public void close() throws InterruptedException {
    pull.close();
  }
}

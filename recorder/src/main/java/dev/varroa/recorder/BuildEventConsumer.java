package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.Redaction;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.recorder.store.BuildEventWriter;
import dev.varroa.recorder.store.DatabaseErrors;
import io.nats.client.ConsumerContext;
import io.nats.client.FetchConsumeOptions;
import io.nats.client.FetchConsumer;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pulls BuildEventGroups from the durable consumer {@code varroa-recorder} on {@code varroa_builds} and writes
 * each in one transaction, acknowledging it only after the commit. While the database fails, the group and the
 * rest of the batch are handed back with a delay and pulling pauses with a growing backoff: nothing is acked
 * that was not written.
 */
final class BuildEventConsumer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(BuildEventConsumer.class);

  static final int BATCH = 64;
  static final Duration FETCH_WAIT = Duration.ofSeconds(1);
  static final Duration BACKOFF_START = Duration.ofMillis(500);
  static final Duration BACKOFF_CAP = Duration.ofSeconds(15);

  private final BusConnection bus;
  private final BuildEventWriter writer;
  private final Consumer<Boolean> databaseHealth;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Thread thread;
  private Duration backoff = BACKOFF_START;

  BuildEventConsumer(BusConnection bus, BuildEventWriter writer, Consumer<Boolean> databaseHealth) {
    this.bus = bus;
    this.writer = writer;
    this.databaseHealth = databaseHealth;
    this.thread = new Thread(this::run, "varroa-recorder-consumer");
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
          // A NATS that lost its store (a new server) gets the stream and the consumer back.
          BusTopology.ensure(bus.connection());
          topologyKnown = true;
        }
        ConsumerContext consumer = bus.connection().getConsumerContext(BusNames.BUILDS_STREAM, BusNames.RECORDER_CONSUMER);
        boolean databaseFailed = false;
        try (FetchConsumer fetch = consumer.fetch(FetchConsumeOptions.builder()
            .maxMessages(BATCH).expiresIn(FETCH_WAIT.toMillis()).build())) {
          Message message;
          while ((message = fetch.nextMessage()) != null) {
            if (databaseFailed) {
              message.nakWithDelay(backoff);
            } else {
              databaseFailed = !handle(message);
            }
          }
        }
        if (databaseFailed) {
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
        LOG.warn("event=build_events_pull_failed retryIn={} error=\"{}\"", backoff, Redaction.describe(e));
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

  /** False when the database failed (the group was handed back). */
  private boolean handle(Message message) {
    BuildEventGroup group;
    try {
      group = BuildEventGroup.parseFrom(message.getData());
    } catch (InvalidProtocolBufferException e) {
      LOG.error("event=build_event_group_unreadable subject={} streamSequence={} action=term error=\"{}\"",
          message.getSubject(), streamSequence(message), e.getMessage());
      message.term();
      return true;
    }
    try {
      BuildEventWriter.Outcome outcome = writer.write(group);
      message.ack();
      databaseHealth.accept(true);
      LOG.debug("event=build_event_group_recorded subject={} applied={} alreadyRecorded={} malformed={} schedules={}",
          message.getSubject(), outcome.applied(), outcome.alreadyRecorded(), outcome.malformed(),
          outcome.schedulesReplaced());
      return true;
    } catch (IllegalArgumentException e) {
      LOG.error("event=build_event_group_refused subject={} streamSequence={} action=term reason=\"{}\"",
          message.getSubject(), streamSequence(message), e.getMessage());
      message.term();
      return true;
    } catch (SQLException e) {
      // A deadlock with another replica (40P01) is no outage: only a lost connection makes /readyz fail.
      if (e.getSQLState() == null || e.getSQLState().startsWith("08")) {
        databaseHealth.accept(false);
      }
      LOG.warn("event=build_event_group_not_written subject={} sqlState={} retryIn={} error=\"{}\"",
          message.getSubject(), e.getSQLState(), backoff, DatabaseErrors.describe(e));
      message.nakWithDelay(backoff);
      return false;
    }
  }

  private static Object streamSequence(Message message) {
    return message.isJetStream() ? message.metaData().streamSequence() : "-";
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

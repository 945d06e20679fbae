package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.BuildEventGroup;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.recorder.store.BuildEventWriter;
import dev.varroa.recorder.store.DatabaseErrors;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
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

  private final BuildEventWriter writer;
  private final Consumer<Boolean> databaseHealth;
  private final DurablePull pull;

  BuildEventConsumer(BusConnection bus, BuildEventWriter writer, Consumer<Boolean> databaseHealth) {
    this.writer = writer;
    this.databaseHealth = databaseHealth;
    this.pull = new DurablePull("build_events", bus, BusNames.BUILDS_STREAM, BusNames.RECORDER_CONSUMER, BATCH,
        BusTopology::ensure, this::round);
  }

  void start() {
    pull.start();
  }

  // Each group is written as it arrives (a build's rows appear at once); after a database failure the rest go back.
  private DurablePull.Round round(Duration backoff) {
    return new DurablePull.Round() {
      private boolean databaseFailed;

      @Override
      public void message(Message message) {
        if (databaseFailed) {
          message.nakWithDelay(backoff);
        } else {
          databaseFailed = !handle(message, backoff);
        }
      }

      @Override
      public boolean end() {
        return !databaseFailed;
      }
    };
  }

  /** False when the database failed (the group was handed back). */
  private boolean handle(Message message, Duration backoff) {
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

  @Override
  public void close() throws InterruptedException {
    pull.close();
  }
}

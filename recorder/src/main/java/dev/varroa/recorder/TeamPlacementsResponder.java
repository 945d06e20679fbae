package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.TeamPlacements;
import dev.varroa.protocol.bus.v1.TeamPlacementsRecorded;
import dev.varroa.recorder.store.DatabaseErrors;
import dev.varroa.recorder.store.TeamPlacementWriter;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a cluster's CellPool placements on {@code varroa.recorder.team-placements} in the queue group
 * {@code varroa-recorder}: each request is one pool's whole placement, which replaces that pool's rows of
 * team_placements. Written on a worker thread, so the dispatcher never waits on the database.
 */
final class TeamPlacementsResponder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TeamPlacementsResponder.class);
  /** A snapshot comes when a placement changes: one worker keeps one pool's snapshots in arrival order. */
  static final int WORKERS = 1;
  private static final Duration SUBSCRIBE_FLUSH = Duration.ofSeconds(2);

  private final TeamPlacementWriter writer;
  private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, runnable -> {
    Thread thread = new Thread(runnable, "varroa-recorder-placements");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Dispatcher dispatcher;

  TeamPlacementsResponder(TeamPlacementWriter writer) {
    this.writer = writer;
  }

  /** Subscribes on the connection; called again with a replacement connection. */
  void subscribe(Connection connection) {
    Dispatcher next = connection.createDispatcher(message -> workers.execute(() -> answer(connection, message)));
    next.subscribe(BusNames.TEAM_PLACEMENTS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    dispatcher = next;
    try {
      connection.flush(SUBSCRIBE_FLUSH);
    } catch (TimeoutException e) {
      LOG.warn("event=team_placements_subscribe_flush_timed_out wait={}", SUBSCRIBE_FLUSH);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("event=team_placements_subscribed subject={} queueGroup={}", BusNames.TEAM_PLACEMENTS_SUBJECT,
        BusNames.RECORDER_QUEUE_GROUP);
  }

  private void answer(Connection connection, Message message) {
    if (message.getReplyTo() == null) {
      LOG.warn("event=team_placements_request_without_reply_subject action=drop");
      return;
    }
    TeamPlacementsRecorded answer;
    try {
      answer = record(TeamPlacements.parseFrom(message.getData()));
    } catch (InvalidProtocolBufferException e) {
      answer = TeamPlacementsRecorded.newBuilder()
          .setError("the request is not a varroa.bus.v1.TeamPlacements: " + e.getMessage()).build();
    }
    connection.publish(message.getReplyTo(), answer.toByteArray());
  }

  private TeamPlacementsRecorded record(TeamPlacements snapshot) {
    Optional<String> problem = TeamPlacementWriter.problem(snapshot);
    if (problem.isPresent()) {
      LOG.warn("event=team_placements_refused cluster={} pool={}/{} problem=\"{}\"", snapshot.getCluster(),
          snapshot.getNamespace(), snapshot.getPool(), problem.get());
      return TeamPlacementsRecorded.newBuilder().setError(problem.get()).build();
    }
    try {
      TeamPlacementWriter.Outcome outcome = writer.replace(snapshot);
      if (outcome.written() > 0 || outcome.deleted() > 0) {
        LOG.info("event=team_placements_recorded cluster={} pool={}/{} teams={} written={} deleted={}",
            snapshot.getCluster(), snapshot.getNamespace(), snapshot.getPool(), snapshot.getPlacementsCount(),
            outcome.written(), outcome.deleted());
      }
      return TeamPlacementsRecorded.newBuilder().setRecorded(true).build();
    } catch (SQLException e) {
      LOG.warn("event=team_placements_unwritable cluster={} pool={}/{} error=\"{}\"", snapshot.getCluster(),
          snapshot.getNamespace(), snapshot.getPool(), DatabaseErrors.describe(e));
      return TeamPlacementsRecorded.newBuilder().setError("the record store cannot be written now: "
          + DatabaseErrors.describe(e)).build();
    }
  }

  @Override
  public void close() throws InterruptedException {
    Dispatcher current = dispatcher;
    if (current != null) {
      try {
        current.unsubscribe(BusNames.TEAM_PLACEMENTS_SUBJECT);
      } catch (IllegalStateException alreadyClosed) {
        // The connection closed first: nothing left to unsubscribe.
      }
    }
    workers.shutdown();
    workers.awaitTermination(5, TimeUnit.SECONDS);
  }
}

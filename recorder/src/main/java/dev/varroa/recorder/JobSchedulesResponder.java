package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.JobSchedules;
import dev.varroa.protocol.bus.v1.JobSchedulesRequest;
import dev.varroa.recorder.store.DatabaseErrors;
import dev.varroa.recorder.store.JobScheduleReader;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers an operator's request for a controller's job schedules on {@code varroa.recorder.job-schedules} in the
 * queue group {@code varroa-recorder}: the timer triggers the operator wakes a parked controller ahead of. Read on a
 * worker thread, so the dispatcher never waits on the database.
 */
final class JobSchedulesResponder implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JobSchedulesResponder.class);
  /** Requests come when a controller is parked: rare, one worker is plenty. */
  static final int WORKERS = 1;
  private static final Duration SUBSCRIBE_FLUSH = Duration.ofSeconds(2);

  private final JobScheduleReader reader;
  private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, runnable -> {
    Thread thread = new Thread(runnable, "varroa-recorder-schedules");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Dispatcher dispatcher;

  JobSchedulesResponder(JobScheduleReader reader) {
    this.reader = reader;
  }

  /** Subscribes on the connection; called again with a replacement connection. */
  void subscribe(Connection connection) {
    Dispatcher next = connection.createDispatcher(message -> workers.execute(() -> answer(connection, message)));
    next.subscribe(BusNames.JOB_SCHEDULES_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    dispatcher = next;
    try {
      connection.flush(SUBSCRIBE_FLUSH);
    } catch (TimeoutException e) {
      LOG.warn("event=job_schedules_subscribe_flush_timed_out wait={}", SUBSCRIBE_FLUSH);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("event=job_schedules_subscribed subject={} queueGroup={}", BusNames.JOB_SCHEDULES_SUBJECT,
        BusNames.RECORDER_QUEUE_GROUP);
  }

  private void answer(Connection connection, Message message) {
    if (message.getReplyTo() == null) {
      LOG.warn("event=job_schedules_request_without_reply_subject action=drop");
      return;
    }
    JobSchedules answer;
    try {
      JobSchedulesRequest request = JobSchedulesRequest.parseFrom(message.getData());
      String uid = request.getController().getUid();
      if (uid.isEmpty()) {
        answer = JobSchedules.newBuilder().setError("the request names no controller UID").build();
      } else {
        answer = reader.read(uid);
      }
    } catch (InvalidProtocolBufferException e) {
      answer = JobSchedules.newBuilder()
          .setError("the request is not a varroa.bus.v1.JobSchedulesRequest: " + e.getMessage()).build();
    } catch (SQLException e) {
      LOG.warn("event=job_schedules_unreadable error=\"{}\"", DatabaseErrors.describe(e));
      answer = JobSchedules.newBuilder().setError("the record store cannot be read now: "
          + DatabaseErrors.describe(e)).build();
    }
    connection.publish(message.getReplyTo(), answer.toByteArray());
  }

  @Override
  public void close() throws InterruptedException {
    Dispatcher current = dispatcher;
    if (current != null) {
      try {
        current.unsubscribe(BusNames.JOB_SCHEDULES_SUBJECT);
      } catch (IllegalStateException alreadyClosed) {
        // The connection closed first: nothing left to unsubscribe.
      }
    }
    workers.shutdown();
    workers.awaitTermination(5, TimeUnit.SECONDS);
  }
}

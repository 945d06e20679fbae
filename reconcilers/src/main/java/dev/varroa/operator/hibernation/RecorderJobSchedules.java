package dev.varroa.operator.hibernation;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.JobSchedule;
import dev.varroa.protocol.bus.v1.JobSchedulesRequest;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the recorder for a controller's job schedules (varroa.recorder.job-schedules, request/reply) and computes the
 * next fire time of every job with {@link TimerSpec}. A spec Jenkins would refuse is skipped and logged.
 */
public final class RecorderJobSchedules implements JobSchedules {
  /** How long a pass waits for the recorder: it answers from one indexed query. */
  public static final Duration ANSWER_WAIT = Duration.ofSeconds(3);
  private static final Logger LOG = LoggerFactory.getLogger(RecorderJobSchedules.class);

  private final Supplier<Connection> nats;
  private final String cluster;
  private final Duration wait;

  /** @param nats the connection in use now (the control channel's) */
  public RecorderJobSchedules(Supplier<Connection> nats, String cluster, Duration wait) {
    this.nats = nats;
    this.cluster = cluster;
    this.wait = wait;
  }

  @Override
  public InactivityPolicy.Timers next(ControllerIdentity controller, ZoneId jenkinsZone, Instant after) {
    byte[] request = JobSchedulesRequest.newBuilder().setController(controller.toRef()).setCluster(cluster).build()
        .toByteArray();
    dev.varroa.protocol.bus.v1.JobSchedules answer;
    try {
      Message reply = nats.get().request(BusNames.JOB_SCHEDULES_SUBJECT, request).get(wait.toMillis(),
          TimeUnit.MILLISECONDS);
      answer = dev.varroa.protocol.bus.v1.JobSchedules.parseFrom(reply.getData());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new InactivityPolicy.Timers.Unknown("interrupted while asking the recorder");
    } catch (ExecutionException | CancellationException e) {
      // jnats fails the request at once when no recorder subscribes (no responders)
      return new InactivityPolicy.Timers.Unknown("no recorder answers " + BusNames.JOB_SCHEDULES_SUBJECT
          + " (is recordStore.enabled set?)");
    } catch (TimeoutException e) {
      return new InactivityPolicy.Timers.Unknown("the recorder did not answer within " + wait.toSeconds() + " s");
    } catch (InvalidProtocolBufferException e) {
      return new InactivityPolicy.Timers.Unknown("the recorder's answer is unreadable: " + e.getMessage());
    }
    if (!answer.getError().isEmpty()) {
      return new InactivityPolicy.Timers.Unknown(answer.getError());
    }
    if (!answer.getKnown()) {
      return new InactivityPolicy.Timers.Unknown("the Varroa plugin has not reported this controller's job schedules");
    }
    Optional<Instant> next = Optional.empty();
    for (JobSchedule job : answer.getJobsList()) {
      try {
        Optional<Instant> fire = TimerSpec.parse(job.getJob(), job.getTimerSpecsList(), jenkinsZone)
            .nextFireAfter(after);
        if (fire.isPresent() && (next.isEmpty() || fire.get().isBefore(next.get()))) {
          next = fire;
        }
      } catch (CronSyntaxException e) {
        LOG.warn("event=timer_spec_skipped controller={} reason=\"{}\"", controller.routeKey(), e.getMessage());
      }
    }
    return new InactivityPolicy.Timers.Known(next);
  }
}

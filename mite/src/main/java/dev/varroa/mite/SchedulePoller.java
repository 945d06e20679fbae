package dev.varroa.mite;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.varroa.protocol.builds.v1.JobScheduleInventory;
import dev.varroa.protocol.mite.v1.MiteMessage;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the plugin's job-schedule inventory ({@code GET varroa/schedules}, with the Jenkins token) and
 * forwards it over the stream when it changed since the last send on that stream, or every
 * {@link #RESEND_EVERY} anyway. A Jenkins whose plugin has no such route (404) is skipped quietly.
 */
final class SchedulePoller implements ChannelSession.StreamUser, AutoCloseable {

  static final String SCHEDULES_PATH = "varroa/schedules";
  /** DATAPLANE.md: the inventory is forwarded at least this often even when it did not change. */
  static final Duration RESEND_EVERY = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(SchedulePoller.class);
  private static final JsonFormat.Parser JSON = JsonFormat.parser().ignoringUnknownFields();

  private final JenkinsClient jenkins;
  private final Duration interval;
  private final Clock clock;
  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
      GatewayChannels.daemonThreads("mite-schedules"));

  // touched on the timer thread only, except link
  private volatile ChannelSession.StreamLink link;
  private ChannelSession.StreamLink sentOn;
  private JobScheduleInventory sent;
  private Instant sentAt = Instant.EPOCH;
  private int lastStatus = 200;

  SchedulePoller(JenkinsClient jenkins, Duration interval, Clock clock) {
    this.jenkins = jenkins;
    this.interval = interval;
    this.clock = clock;
    timer.setRemoveOnCancelPolicy(true);
  }

  void start() {
    timer.scheduleWithFixedDelay(this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void welcomed(ChannelSession.StreamLink stream) {
    link = stream;
    // a new stream has seen nothing: read and send soon instead of a whole interval later
    try {
      timer.execute(this::poll);
    } catch (RejectedExecutionException closing) {
      // the mite is stopping
    }
  }

  @Override
  public void ended(ChannelSession.StreamLink stream) {
    if (link == stream) {
      link = null;
    }
  }

  private void poll() {
    ChannelSession.StreamLink stream = link;
    if (stream == null) {
      return;
    }
    try {
      JenkinsAnswer answer = jenkins.get(SCHEDULES_PATH);
      if (answer.status() == 404) {
        LOG.debug("event=schedules_skipped reason=plugin_has_no_schedules_route");
        lastStatus = 404;
        return;
      }
      if (!answer.ok()) {
        if (answer.status() != lastStatus) {
          LOG.warn("event=schedules_poll_failed jenkins_status={}", answer.status());
        }
        lastStatus = answer.status();
        return;
      }
      lastStatus = answer.status();
      JobScheduleInventory.Builder parsed = JobScheduleInventory.newBuilder();
      JSON.merge(answer.body(), parsed);
      JobScheduleInventory inventory = parsed.build();
      Instant now = clock.instant();
      // the observation time changes at every read; only the jobs and their specs count as a change
      boolean changed = sent == null
          || !sent.toBuilder().clearObservedAtEpochMillis().build()
              .equals(inventory.toBuilder().clearObservedAtEpochMillis().build());
      if (stream != sentOn || changed || !now.isBefore(sentAt.plus(RESEND_EVERY))) {
        if (stream.send(MiteMessage.newBuilder().setSchedules(inventory).build())) {
          LOG.info("event=schedules_forwarded jobs={} changed={}", inventory.getJobsCount(), changed);
          sent = inventory;
          sentOn = stream;
          sentAt = now;
        }
      }
    } catch (InvalidProtocolBufferException e) {
      LOG.warn("event=schedules_poll_failed reason=unparseable_json error=\"{}\"",
          String.valueOf(e.getMessage()).replace('"', '\''));
    } catch (IOException e) {
      LOG.debug("event=schedules_poll_failed error={}", e.getClass().getSimpleName());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      LOG.warn("event=schedules_poll_failed error={}", e.getClass().getSimpleName(), e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

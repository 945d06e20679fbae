package dev.varroa.mite;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The planned-termination drain: put Jenkins in quiet-down, then wait while builds run (one-off
 * executors included) until they finish or the drain timeout passes. Concurrent callers share one drain.
 */
final class BuildDrain {

  /** How often the drain looks at Jenkins' executors. */
  static final Duration DRAIN_POLL_INTERVAL = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(BuildDrain.class);

  /** What the drain saw when it ended; buildsLeft is -1 when Jenkins would not say. */
  record Report(int buildsLeft, long waitedSeconds, boolean timedOut) {
    String json() {
      return "{\"buildsLeft\":" + buildsLeft + ",\"waitedSeconds\":" + waitedSeconds + ",\"timedOut\":" + timedOut + "}";
    }
  }

  private final JenkinsClient jenkins;
  private final Duration timeout;
  private final StopSignal stop;
  private final Clock clock;
  private CompletableFuture<Report> running;

  BuildDrain(JenkinsClient jenkins, Duration timeout, StopSignal stop, Clock clock) {
    this.jenkins = jenkins;
    this.timeout = timeout;
    this.stop = stop;
    this.clock = clock;
  }

  /** Runs a drain, or joins the one already running. */
  Report drain() throws InterruptedException {
    CompletableFuture<Report> mine;
    boolean owner;
    synchronized (this) {
      owner = running == null;
      if (owner) {
        running = new CompletableFuture<>();
      }
      mine = running;
    }
    if (!owner) {
      try {
        return mine.get();
      } catch (ExecutionException e) {
        throw new IllegalStateException("the shared drain failed", e.getCause());
      }
    }
    try {
      Report report = run();
      mine.complete(report);
      return report;
    } catch (RuntimeException | InterruptedException e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      synchronized (this) {
        running = null;
      }
    }
  }

  private Report run() throws InterruptedException {
    Instant started = clock.instant();
    Instant until = started.plus(timeout);
    LOG.info("event=drain_started timeout_s={}", timeout.toSeconds());
    quietDown(until);
    int builds = -1;
    while (true) {
      try {
        builds = jenkins.runningBuilds();
      } catch (IOException e) {
        if (JenkinsClient.notListening(e)) {
          // Jenkins is gone: nothing runs any more
          builds = 0;
        } else {
          // Jenkins is there but will not say (401/403, a timeout): builds may run, keep waiting
          LOG.warn("event=drain_poll_failed error=\"{}\"", e.getMessage());
        }
      }
      long waited = Duration.between(started, clock.instant()).toSeconds();
      if (builds == 0) {
        return finished(new Report(0, waited, false));
      }
      if (!clock.instant().isBefore(until)) {
        return finished(new Report(builds, waited, true));
      }
      Duration pause = DRAIN_POLL_INTERVAL.compareTo(Duration.between(clock.instant(), until)) < 0
          ? DRAIN_POLL_INTERVAL : Duration.between(clock.instant(), until);
      if (stop.await(pause)) {
        return finished(new Report(builds, Duration.between(started, clock.instant()).toSeconds(), false));
      }
    }
  }

  private void quietDown(Instant until) throws InterruptedException {
    Duration left = Duration.between(clock.instant(), until);
    try {
      JenkinsAnswer answer = jenkins.post(JenkinsClient.QUIET_DOWN,
          left.compareTo(JenkinsClient.READ_TIMEOUT) < 0 ? left : JenkinsClient.READ_TIMEOUT);
      if (answer.ok() || answer.redirect()) {
        LOG.info("event=quiet_down_set jenkins_status={}", answer.status());
      } else {
        LOG.warn("event=quiet_down_refused jenkins_status={} message=\"{}\"", answer.status(),
            JenkinsErrorText.of(answer).replace('"', '\''));
      }
    } catch (IOException e) {
      LOG.warn("event=quiet_down_failed error=\"{}\"", e.getClass().getSimpleName());
    }
  }

  private static Report finished(Report report) {
    LOG.info("event=drain_finished builds_left={} waited_s={} timed_out={}", report.buildsLeft(),
        report.waitedSeconds(), report.timedOut());
    return report;
  }
}

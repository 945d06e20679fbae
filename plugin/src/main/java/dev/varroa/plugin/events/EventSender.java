package dev.varroa.plugin.events;

import dev.varroa.plugin.loopback.EventsOutcome;
import dev.varroa.protocol.builds.v1.BuildEvent;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * The background thread that drains the spool: the oldest unacknowledged events, in order, in batches to
 * {@code POST /v1/events}; acknowledged events leave the spool, the rest go again after a pause. A 503 waits its
 * {@code Retry-After}; failures back off from {@code minimum} doubling to {@code maximum}.
 */
public final class EventSender implements AutoCloseable {

  /** The mite forwards at most 500 events / 1 MiB per stream message; one POST carries no more. */
  public static final int MAX_BATCH_EVENTS = 500;
  public static final long MAX_BATCH_BYTES = 1L << 20;
  public static final Duration BACKOFF_MINIMUM = Duration.ofMillis(250);
  public static final Duration BACKOFF_MAXIMUM = Duration.ofSeconds(10);
  private static final Duration IDLE_WAIT = Duration.ofSeconds(1);
  private static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
  private static final Logger LOG = Logger.getLogger(EventSender.class.getName());

  private final EventSpool spool;
  private final Function<List<BuildEvent>, EventsOutcome> send;
  private final Duration minimum;
  private final Duration maximum;
  private final Thread thread;
  private final Object pause = new Object();
  private volatile boolean running = true;
  private String lastProblem;

  public EventSender(EventSpool spool, Function<List<BuildEvent>, EventsOutcome> send, Duration minimum,
      Duration maximum) {
    this.spool = spool;
    this.send = send;
    this.minimum = minimum;
    this.maximum = maximum;
    this.thread = new Thread(this::drain, "varroa-event-sender");
    thread.setDaemon(true);
  }

  public EventSender start() {
    thread.start();
    return this;
  }

  private void drain() {
    Duration backoff = minimum;
    while (running) {
      try {
        if (!spool.awaitPending(IDLE_WAIT)) {
          continue;
        }
        List<BuildEvent> batch = spool.nextBatch(MAX_BATCH_EVENTS, MAX_BATCH_BYTES);
        EventsOutcome outcome = send.apply(batch);
        if (outcome instanceof EventsOutcome.Acknowledged acknowledged) {
          spool.acknowledge(acknowledged.keys());
          if (acknowledged.keys().size() >= batch.size()) {
            backoff = minimum;
            recovered();
          } else if (!acknowledged.keys().isEmpty()) {
            // Progress: the mite holds the rest and forwards them; resend soon, not at once.
            pause(minimum);
          } else {
            pause(backoff);
            backoff = doubled(backoff);
          }
        } else if (outcome instanceof EventsOutcome.Busy busy) {
          problem("mite_busy", busy.reason());
          pause(busy.retryAfter().compareTo(minimum) > 0 ? busy.retryAfter() : minimum);
        } else if (outcome instanceof EventsOutcome.Failed failed) {
          problem("send_failed", failed.reason());
          pause(backoff);
          backoff = doubled(backoff);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (!running) {
          return;
        }
        problem("spool_failed", e.toString());
        try {
          pause(backoff);
        } catch (InterruptedException interrupted) {
          return;
        }
        backoff = doubled(backoff);
      }
    }
  }

  // One line when the kind of trouble changes, not one a retry: a stopped mite must not flood the Jenkins log.
  private void problem(String kind, String reason) {
    String line = "event=varroa_events_" + kind + " pending=" + spool.status().pendingEvents() + " reason=\"" + reason + "\"";
    String key = kind + reason;
    if (!key.equals(lastProblem)) {
      lastProblem = key;
      LOG.warning(line);
    }
  }

  private void recovered() {
    if (lastProblem != null) {
      lastProblem = null;
      LOG.info("event=varroa_events_flowing message=\"the mite acknowledges build events again\"");
    }
  }

  private void pause(Duration duration) throws InterruptedException {
    synchronized (pause) {
      if (running) {
        pause.wait(Math.max(1, duration.toMillis()));
      }
    }
  }

  private Duration doubled(Duration backoff) {
    Duration next = backoff.multipliedBy(2);
    return next.compareTo(maximum) > 0 ? maximum : next;
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    synchronized (pause) {
      pause.notifyAll();
    }
    // No interrupt: it would close the spool's file channels under the thread. A send in flight ends on its own.
    thread.join(CLOSE_WAIT.toMillis());
  }
}

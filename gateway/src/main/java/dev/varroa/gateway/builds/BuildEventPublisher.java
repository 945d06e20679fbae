package dev.varroa.gateway.builds;

import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.bus.Redaction;
import io.nats.client.JetStreamApiException;
import io.nats.client.JetStreamStatusException;
import io.nats.client.PublishOptions;
import io.nats.client.api.PublishAck;
import io.nats.client.impl.NatsMessage;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes build event groups onto varroa_builds, asynchronously. A group that finds no room (the
 * stream is full and discards new messages) or no JetStream is sent again with a short backoff until
 * the publish wait has passed; the caller then ends the mite's stream, and the mite replays.
 */
public final class BuildEventPublisher {

  private static final Logger LOG = LoggerFactory.getLogger(BuildEventPublisher.class);
  static final Duration FIRST_RETRY_DELAY = Duration.ofMillis(50);
  static final Duration RETRY_DELAY_CAP = Duration.ofSeconds(1);
  /** jnats' own request timeout only fires on its 5 s cleanup tick, so each attempt carries its own. */
  static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

  private final BusConnection bus;
  private final String gatewayId;
  private final Duration publishWait;
  private final ScheduledExecutorService timers;
  private final Executor pool;

  public BuildEventPublisher(BusConnection bus, String gatewayId, Duration publishWait,
      ScheduledExecutorService timers, Executor pool) {
    this.bus = bus;
    this.gatewayId = gatewayId;
    this.publishWait = publishWait;
    this.timers = timers;
    this.pool = pool;
  }

  public Duration publishWait() {
    return publishWait;
  }

  /** The largest payload the connected server takes, headers included; 1 MiB (its default) when unknown. */
  public long maxPayload() {
    try {
      long max = bus.connection().getServerInfo().getMaxPayload();
      return max > 0 ? max : 1L << 20;
    } catch (RuntimeException e) {
      return 1L << 20;
    }
  }

  /**
   * Publishes one message with this Nats-Msg-Id. Never completes exceptionally.
   *
   * @param stillWanted checked before every attempt; false abandons the group (its stream ended)
   */
  public CompletableFuture<PublishOutcome> publish(String subject, String messageId, byte[] group,
      BooleanSupplier stillWanted) {
    Attempts attempts = new Attempts(subject, messageId, group, stillWanted, System.nanoTime() + publishWait.toNanos());
    attempts.next();
    return attempts.outcome;
  }


  private final class Attempts {
    private final String subject;
    private final String messageId;
    private final byte[] group;
    private final BooleanSupplier stillWanted;
    private final long deadlineNanos;
    private final CompletableFuture<PublishOutcome> outcome = new CompletableFuture<>();
    private int sent;
    private String lastFailure;
    private Duration retryDelay = FIRST_RETRY_DELAY;

    Attempts(String subject, String messageId, byte[] group, BooleanSupplier stillWanted, long deadlineNanos) {
      this.subject = subject;
      this.messageId = messageId;
      this.group = group;
      this.stillWanted = stillWanted;
      this.deadlineNanos = deadlineNanos;
    }

    void next() {
      if (!stillWanted.getAsBoolean()) {
        outcome.complete(new PublishOutcome(PublishOutcome.Result.ABANDONED, sent, lastFailure));
        return;
      }
      long remaining = deadlineNanos - System.nanoTime();
      if (sent > 0 && remaining <= 0) {
        outcome.complete(new PublishOutcome(PublishOutcome.Result.EXPIRED, sent, lastFailure));
        return;
      }
      if (!bus.isConnected()) {
        // jnats would buffer the publish until it reconnects; another copy per retry helps nobody.
        sent++;
        failed("NATS is not connected");
        return;
      }
      sent++;
      CompletableFuture<PublishAck> ack;
      try {
        ack = bus.jetStream().publishAsync(NatsMessage.builder().subject(subject).data(group).build(),
            PublishOptions.builder().messageId(messageId).expectedStream(BusNames.BUILDS_STREAM).build());
      } catch (Exception e) {
        failed(cause(e));
        return;
      }
      long timeout = Math.max(1, Math.min(ATTEMPT_TIMEOUT.toNanos(), Math.max(remaining, 0)));
      ack.orTimeout(timeout, TimeUnit.NANOSECONDS).whenCompleteAsync((published, failure) -> {
        if (failure == null) {
          outcome.complete(new PublishOutcome(published.isDuplicate() ? PublishOutcome.Result.DUPLICATE
              : PublishOutcome.Result.PUBLISHED, sent, lastFailure));
        } else {
          failed(cause(failure));
        }
      }, pool);
    }

    private void failed(String cause) {
      if (lastFailure == null) {
        LOG.warn("event=event_publish_retrying gateway={} subject={} msgId={} wait=\"{}\" cause=\"{}\"", gatewayId,
            subject, messageId, DurationText.seconds(publishWait), cause);
      }
      lastFailure = cause;
      long remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        outcome.complete(new PublishOutcome(PublishOutcome.Result.EXPIRED, sent, lastFailure));
        return;
      }
      long delay = Math.min(retryDelay.toNanos(), remaining);
      retryDelay = retryDelay.multipliedBy(2).compareTo(RETRY_DELAY_CAP) > 0 ? RETRY_DELAY_CAP
          : retryDelay.multipliedBy(2);
      try {
        timers.schedule(this::next, delay, TimeUnit.NANOSECONDS);
      } catch (RejectedExecutionException stopping) {
        outcome.complete(new PublishOutcome(PublishOutcome.Result.ABANDONED, sent, lastFailure));
      }
    }

    private String cause(Throwable failure) {
      Throwable e = failure;
      while ((e instanceof CompletionException || e instanceof ExecutionException
          || e.getClass() == RuntimeException.class) && e.getCause() != null) {
        e = e.getCause();
      }
      if (e instanceof JetStreamApiException refused) {
        return "JetStream refused the group: " + refused.getErrorDescription() + " (err_code "
            + refused.getApiErrorCode() + ")";
      }
      if (e instanceof TimeoutException) {
        return "no JetStream acknowledgement within " + DurationText.seconds(ATTEMPT_TIMEOUT);
      }
      if (e instanceof CancellationException) {
        return "the NATS request was cancelled (connection closed or replaced)";
      }
      if (e instanceof JetStreamStatusException || String.valueOf(e.getMessage()).contains("503")) {
        return "JetStream is unavailable: no stream answered on " + subject + " (503 no responders)";
      }
      if (e instanceof IllegalArgumentException && String.valueOf(e.getMessage()).contains("payload")) {
        return "the group of " + group.length + " bytes is over NATS' max_payload: " + e.getMessage();
      }
      return Redaction.describe(e);
    }
  }
}

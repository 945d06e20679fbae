package dev.varroa.gateway.builds;

import dev.varroa.protocol.DurationText;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.Redaction;
import io.nats.client.JetStreamStatusException;
import io.nats.client.Message;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One NATS request from a mite's stream to a core service (the build ledger, the recorder's pipeline calls) within a
 * budget. Whatever goes wrong (no NATS connection, nobody listening, no answer in time, a NATS status instead of an
 * answer) comes back as a reason naming the hop, so each relay answers its mite UNAVAILABLE and the plugin asks again.
 *
 * @param service what answers on the subject, as a sentence names it ("build ledger", "recorder")
 * @param what what is asked, as a sentence names it ("claim", "pipeline call")
 */
public record CoreRequest(BusConnection bus, String subject, String service, String what, Duration budget,
    Executor pool) {

  /** The reply's bytes, or (data is null) why there is none. */
  public record Reply(byte[] data, String unavailable) {
    static Reply missing(String reason) {
      return new Reply(null, reason);
    }
  }

  /** The service's reply or the reason there is none once the budget is spent; never completes exceptionally. */
  public CompletableFuture<Reply> send(byte[] request) {
    if (!bus.isConnected()) {
      // jnats would hold the request until it reconnects; the plugin's retry schedule serves it better.
      return CompletableFuture.completedFuture(Reply.missing("the gateway has no NATS connection to reach the "
          + service + " on " + subject));
    }
    CompletableFuture<Message> reply;
    try {
      reply = bus.connection().requestWithTimeout(subject, request, budget);
    } catch (RuntimeException e) {
      return CompletableFuture.completedFuture(Reply.missing("the gateway could not send the " + what
          + " over NATS (" + Redaction.describe(e) + ")"));
    }
    CompletableFuture<Reply> answer = reply.handleAsync(this::read, pool);
    // jnats notices its own timeout only on a 5 s cleanup tick; the budget is kept here.
    return answer.orTimeout(budget.toNanos(), TimeUnit.NANOSECONDS).handle((read, failure) -> {
      if (failure == null) {
        return read;
      }
      reply.cancel(true);
      return Reply.missing(timedOut());
    });
  }

  private Reply read(Message message, Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
        : failure;
    if (cause instanceof CancellationException || cause instanceof JetStreamStatusException
        || (message != null && message.isStatusMessage() && message.getStatus().getCode() == 503)) {
      return Reply.missing("no " + service + " is listening on " + subject
          + " (no responders: is the recorder running?)");
    }
    if (cause instanceof TimeoutException) {
      return Reply.missing(timedOut());
    }
    if (cause != null) {
      return Reply.missing("the " + what + " request failed: " + Redaction.describe(cause));
    }
    if (message == null || message.isStatusMessage()) {
      return Reply.missing("the " + service + " answered nothing"
          + (message == null ? "" : " (NATS status " + message.getStatus().getMessageWithCode() + ")"));
    }
    return new Reply(message.getData(), null);
  }

  private String timedOut() {
    return "the " + service + " did not answer within " + DurationText.seconds(budget) + " (timeout on " + subject
        + ")";
  }
}

package dev.varroa.recorder;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.bus.v1.LedgerClaim;
import dev.varroa.recorder.store.ClaimLedger;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers build claims on {@code varroa.ledger.claim} in the queue group {@code varroa-recorder}, so each claim
 * reaches one recorder replica. Claims are decided on worker threads: the dispatcher never waits on the database.
 */
final class LedgerResponder implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(LedgerResponder.class);
  static final int WORKERS = 4;
  private static final Duration SUBSCRIBE_FLUSH = Duration.ofSeconds(2);

  private final ClaimLedger ledger;
  private final ExecutorService workers = Executors.newFixedThreadPool(WORKERS, runnable -> {
    Thread thread = new Thread(runnable, "varroa-recorder-ledger");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Dispatcher dispatcher;

  LedgerResponder(ClaimLedger ledger) {
    this.ledger = ledger;
  }

  /** Subscribes on the connection; called again with a replacement connection. */
  void subscribe(Connection connection) {
    Dispatcher next = connection.createDispatcher(message -> workers.execute(() -> answer(connection, message)));
    next.subscribe(BusNames.LEDGER_CLAIM_SUBJECT, BusNames.RECORDER_QUEUE_GROUP);
    dispatcher = next;
    try {
      // The subscription is on the server before the recorder calls itself started: no claim finds it deaf.
      connection.flush(SUBSCRIBE_FLUSH);
    } catch (TimeoutException e) {
      LOG.warn("event=ledger_subscribe_flush_timed_out wait={}", SUBSCRIBE_FLUSH);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    LOG.info("event=ledger_subscribed subject={} queueGroup={}", BusNames.LEDGER_CLAIM_SUBJECT,
        BusNames.RECORDER_QUEUE_GROUP);
  }

  private void answer(Connection connection, Message message) {
    if (message.getReplyTo() == null) {
      LOG.warn("event=ledger_claim_without_reply_subject action=drop");
      return;
    }
    ClaimDecision decision;
    try {
      decision = ledger.decide(LedgerClaim.parseFrom(message.getData()));
    } catch (InvalidProtocolBufferException e) {
      decision = ClaimDecision.newBuilder().setDecision("").setCode(ClaimLedger.CODE_INVALID_ARGUMENT)
          .setReason("the request is not a varroa.bus.v1.LedgerClaim: " + e.getMessage()).build();
    }
    connection.publish(message.getReplyTo(), decision.toByteArray());
  }

  @Override
  public void close() throws InterruptedException {
    Dispatcher current = dispatcher;
    if (current != null) {
      try {
        current.unsubscribe(BusNames.LEDGER_CLAIM_SUBJECT);
      } catch (IllegalStateException alreadyClosed) {
        // The connection closed first: nothing left to unsubscribe.
      }
    }
    workers.shutdown();
    workers.awaitTermination(5, TimeUnit.SECONDS);
  }
}

package dev.varroa.recorder;

import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.Redaction;
import io.nats.client.Connection;
import io.nats.client.ConsumerContext;
import io.nats.client.FetchConsumeOptions;
import io.nats.client.FetchConsumer;
import io.nats.client.JetStreamApiException;
import io.nats.client.Message;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recorder's loop on one durable pull consumer, on a thread of its own: fetch a batch, hand each message to the
 * round's {@link Round}, and pause with a growing backoff when the round says the database failed or the pull
 * itself failed (NATS away, the stream or consumer missing; the topology is then made sure of again, for a NATS
 * that lost its store). What a round stores it acknowledges after the commit; what it cannot store it hands back.
 */
final class DurablePull implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(DurablePull.class);

  static final Duration FETCH_WAIT = Duration.ofSeconds(1);
  static final Duration BACKOFF_START = Duration.ofMillis(500);
  static final Duration BACKOFF_CAP = Duration.ofSeconds(15);

  /** One fetch's worth of messages. */
  interface Round {
    /** A message as it arrives; the round may store it now or at {@link #end()}. */
    void message(Message message);

    /** After the fetch: false when the database failed, every message not stored then handed back. */
    boolean end();
  }

  @FunctionalInterface
  interface Topology {
    void ensure(Connection connection) throws IOException, JetStreamApiException;
  }

  private final String name;
  private final BusConnection bus;
  private final String stream;
  private final String consumer;
  private final int batch;
  private final Topology topology;
  private final Function<Duration, Round> rounds;
  private final CountDownLatch closing = new CountDownLatch(1);
  private final Thread thread;
  private Duration backoff = BACKOFF_START;

  /**
   * @param name what is pulled, in the thread's name and the log's event names, e.g. "activity"
   * @param rounds a new round per fetch, given the delay a message handed back gets
   */
  DurablePull(String name, BusConnection bus, String stream, String consumer, int batch, Topology topology,
      Function<Duration, Round> rounds) {
    this.name = name;
    this.bus = bus;
    this.stream = stream;
    this.consumer = consumer;
    this.batch = batch;
    this.topology = topology;
    this.rounds = rounds;
    this.thread = new Thread(this::run, "varroa-recorder-" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void run() {
    boolean topologyKnown = true;
    while (closing.getCount() > 0) {
      try {
        if (!topologyKnown) {
          topology.ensure(bus.connection());
          topologyKnown = true;
        }
        ConsumerContext context = bus.connection().getConsumerContext(stream, consumer);
        Round round = rounds.apply(backoff);
        try (FetchConsumer fetch = context.fetch(FetchConsumeOptions.builder()
            .maxMessages(batch).expiresIn(FETCH_WAIT.toMillis()).build())) {
          Message message;
          while ((message = fetch.nextMessage()) != null) {
            round.message(message);
          }
        }
        if (round.end()) {
          backoff = BACKOFF_START;
        } else {
          pause();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        // NATS away (jnats reconnects meanwhile), the stream or consumer missing, a pull refused: pause and ask again.
        if (closing.getCount() == 0) {
          return;
        }
        LOG.warn("event={}_pull_failed stream={} consumer={} retryIn={} error=\"{}\"", name, stream, consumer, backoff,
            Redaction.describe(e));
        topologyKnown = false;
        try {
          pause();
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  private void pause() throws InterruptedException {
    closing.await(backoff.toMillis(), TimeUnit.MILLISECONDS);
    Duration doubled = backoff.multipliedBy(2);
    backoff = doubled.compareTo(BACKOFF_CAP) > 0 ? BACKOFF_CAP : doubled;
  }

  @Override
  public void close() throws InterruptedException {
    closing.countDown();
    thread.join(FETCH_WAIT.multipliedBy(3).toMillis());
    if (thread.isAlive()) {
      thread.interrupt();
      thread.join(FETCH_WAIT.toMillis());
    }
  }
}

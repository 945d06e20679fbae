package dev.varroa.dashboard.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.dashboard.records.ControllerScope;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The live activity feed over the real varroa_activity stream, as the SSE clients of the BFF will see it. */
class BusFanoutIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final Predicate<ControllerScope> EVERYTHING = scope -> true;

  private Connection nats;
  private ActivityPublisher publisher;

  @BeforeEach
  void freshStream() throws Exception {
    nats = NATS.server().connect();
    // A fresh stream per test: its sequences start at 1, so every expected id is known.
    if (nats.jetStreamManagement().getStreamNames().contains(BusNames.ACTIVITY_STREAM)) {
      nats.jetStreamManagement().deleteStream(BusNames.ACTIVITY_STREAM);
    }
    BusTopology.ensureActivity(nats);
    publisher = new ActivityPublisher(() -> nats, "core", "operator", Clock.systemUTC());
  }

  @AfterEach
  void close() throws Exception {
    nats.close();
  }

  /** Collects what one subscriber receives, and each event's delay from its publication. */
  static class Collector implements BusFanout.Listener {
    private final List<ActivityDelivery> deliveries = new ArrayList<>();
    private final List<Long> delaysMillis = new ArrayList<>();
    final AtomicReference<String> ended = new AtomicReference<>();

    @Override
    public synchronized void event(ActivityDelivery delivery) {
      delaysMillis.add(System.currentTimeMillis() - delivery.event().occurredAt().toEpochMilli());
      deliveries.add(delivery);
    }

    @Override
    public void ended(String reason) {
      ended.set(reason);
    }

    synchronized List<ActivityDelivery> deliveries() {
      return List.copyOf(deliveries);
    }

    synchronized List<Long> delaysMillis() {
      return List.copyOf(delaysMillis);
    }

    synchronized int count() {
      return deliveries.size();
    }

    List<Long> sequences() {
      return deliveries().stream().map(ActivityDelivery::sequence).toList();
    }

    synchronized long last() {
      return deliveries.isEmpty() ? 0 : deliveries.get(deliveries.size() - 1).sequence();
    }
  }

  // Paced by the publisher's own count, never by sleeping: its hand-off queue must never overflow.
  private void publish(int count, String namespace) {
    long start = publisher.published() + publisher.dropped();
    for (int i = 0; i < count; i++) {
      publisher.controller(namespace, "app-" + (i % 5), "mite.connected", "event " + i, Map.of("i", "" + i));
      long submitted = start + i + 1;
      if (i % 200 == 199) {
        // At most a few hundred in the publisher's hand-off queue (it holds 1024).
        await().atMost(DEADLINE).until(() -> publisher.published() + publisher.dropped() >= submitted - 300);
      }
    }
    await().atMost(DEADLINE).until(() -> publisher.published() + publisher.dropped() == start + count);
    assertThat(publisher.dropped()).isZero();
  }

  private long streamLast() throws Exception {
    return nats.jetStreamManagement().getStreamInfo(BusNames.ACTIVITY_STREAM).getStreamState().getLastSequence();
  }

  private static List<Long> range(long first, long last) {
    return LongStream.rangeClosed(first, last).boxed().toList();
  }

  @Test
  void resumesAfterLastEventIdWithoutLossOrRepeatWhileEventsKeepComing() throws Exception {
    int total = 4000;
    try (BusFanout fanout = BusFanout.start(nats, "core")) {
      assertThat(fanout.resumable()).isTrue();
      Collector monitor = new Collector();
      fanout.subscribe(OptionalLong.empty(), EVERYTHING, monitor);
      Collector first = new Collector();
      FanoutSubscription firstSubscription = fanout.subscribe(OptionalLong.empty(), EVERYTHING, first);

      Thread publishing = new Thread(() -> publish(total, "ci"), "test-publisher");
      publishing.start();
      await().atMost(DEADLINE).until(() -> first.count() >= 500);
      // The client goes away; its browser reconnects later with the last id it saw.
      firstSubscription.close();
      long lastSeen = first.last();
      // The live feed is well past that id when the client returns: the gap must come from the replay.
      await().atMost(DEADLINE).until(() -> monitor.last() >= lastSeen + 300);
      Collector resumed = new Collector();
      fanout.subscribe(OptionalLong.of(lastSeen), EVERYTHING, resumed);

      publishing.join(DEADLINE.toMillis());
      assertThat(streamLast()).isEqualTo(total);
      await().atMost(DEADLINE).until(() -> resumed.last() == total && monitor.last() == total);

      assertThat(monitor.sequences()).containsExactlyElementsOf(range(1, total));
      assertThat(first.sequences()).containsExactlyElementsOf(range(1, lastSeen));
      assertThat(resumed.sequences()).as("every event after Last-Event-ID once, in order")
          .containsExactlyElementsOf(range(lastSeen + 1, total));
      // The same events, not just the same numbers.
      assertThat(resumed.deliveries()).extracting(d -> d.event().id())
          .containsExactlyElementsOf(monitor.deliveries().subList((int) lastSeen, total).stream()
              .map(d -> d.event().id()).toList());
      assertThat(resumed.ended.get()).isNull();
      assertThat(fanout.subscribers()).isEqualTo(2);
    }
  }

  @Test
  void aLongReplayGoesAtTheClientsPaceAndHonoursTheFilter() throws Exception {
    publish(300, "ci");
    publish(300, "secret");
    publish(300, "ci");
    // A queue far smaller than the replay: the replay waits for the client instead of dropping it.
    try (BusFanout fanout = BusFanout.start(nats, "core", 16)) {
      Collector ci = new Collector();
      fanout.subscribe(OptionalLong.of(100), scope -> scope.namespace().equals("ci"), ci);
      await().atMost(DEADLINE).until(() -> ci.count() == 500);
      publish(10, "ci");
      publish(10, "secret");
      await().atMost(DEADLINE).until(() -> ci.count() == 510);
      List<Long> expected = new ArrayList<>(range(101, 300));
      expected.addAll(range(601, 900));
      expected.addAll(range(901, 910));
      assertThat(ci.sequences()).containsExactlyElementsOf(expected);
      assertThat(ci.deliveries()).allSatisfy(d -> assertThat(d.event().namespace()).isEqualTo("ci"));
      assertThat(ci.ended.get()).isNull();

      // Without Last-Event-ID delivery starts at the live end: nothing old.
      Collector fresh = new Collector();
      fanout.subscribe(OptionalLong.empty(), EVERYTHING, fresh);
      publish(1, "ci");
      await().atMost(DEADLINE).until(() -> fresh.count() > 0);
      assertThat(fresh.sequences()).containsExactly(streamLast());
    }
  }

  @Test
  void fiveHundredSubscribersGetEveryEventAndStuckOnesAreEndedAlone() throws Exception {
    int events = 1500;
    // More stuck clients than delivery threads: each stuck call must get its thread replaced.
    int stuckClients = BusFanout.DELIVERY_THREADS + 4;
    try (BusFanout fanout = BusFanout.start(nats, "core")) {
      List<Collector> fast = new ArrayList<>();
      for (int i = 0; i < 500 - stuckClients; i++) {
        Collector collector = new Collector();
        fast.add(collector);
        fanout.subscribe(OptionalLong.empty(), EVERYTHING, collector);
      }
      CountDownLatch stuck = new CountDownLatch(1);
      List<Collector> slow = new ArrayList<>();
      for (int i = 0; i < stuckClients; i++) {
        Collector collector = new Collector() {
          @Override
          public void event(ActivityDelivery delivery) {
            super.event(delivery);
            try {
              // A client whose socket stopped taking bytes: the first write does not return until the test ends.
              stuck.await(DEADLINE.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
        slow.add(collector);
        fanout.subscribe(OptionalLong.empty(), EVERYTHING, collector);
      }
      assertThat(fanout.subscribers()).isEqualTo(500);

      // The stuck clients take their first event and never return from it; each gets its thread replaced.
      publish(1, "ci");
      await().atMost(DEADLINE).until(() -> slow.stream().allMatch(c -> c.count() == 1));
      await().atMost(DEADLINE).until(() -> fanout.deliveryThreads() == BusFanout.DELIVERY_THREADS + stuckClients);
      publish(events - 1, "ci");
      await().atMost(DEADLINE).until(() -> fast.stream().allMatch(c -> c.count() == events));
      for (Collector collector : fast) {
        assertThat(collector.sequences()).containsExactlyElementsOf(range(1, events));
        assertThat(collector.ended.get()).isNull();
      }
      stuck.countDown();
      await().atMost(DEADLINE).until(() -> slow.stream().allMatch(c -> c.ended.get() != null));
      for (Collector collector : slow) {
        assertThat(collector.ended.get())
            .isEqualTo(String.format(BusFanout.SLOW_SUBSCRIBER, BusFanout.SUBSCRIBER_QUEUE));
        assertThat(collector.count()).isEqualTo(1);
      }
      assertThat(fanout.subscribers()).isEqualTo(500 - stuckClients);
      // Returned calls give their stand-in threads back.
      await().atMost(DEADLINE).until(() -> fanout.deliveryThreads() == BusFanout.DELIVERY_THREADS);

      List<Long> delays = fast.stream().flatMap(c -> c.delaysMillis().stream()).sorted().toList();
      System.out.println("figure: activity fan-out to " + fast.size() + " subscribers (" + stuckClients
          + " stuck beside them), end-to-end delay p95 " + delays.get((int) (delays.size() * 0.95)) + " ms, max "
          + delays.get(delays.size() - 1) + " ms, " + events + " events published in a burst (loopback NATS)");
    }
  }

  @Test
  void withoutTheStreamEventsArriveLiveWithoutIds() throws Exception {
    nats.jetStreamManagement().deleteStream(BusNames.ACTIVITY_STREAM);
    try (BusFanout fanout = BusFanout.start(nats, "core")) {
      assertThat(fanout.resumable()).isFalse();
      Collector collector = new Collector();
      // Last-Event-ID cannot be honoured without the stream: delivery is live only.
      fanout.subscribe(OptionalLong.of(5), EVERYTHING, collector);
      nats.flush(DEADLINE);
      publisher.global("operator.started", "operator started", Map.of());
      await().atMost(DEADLINE).until(() -> collector.count() == 1);
      ActivityDelivery delivery = collector.deliveries().get(0);
      assertThat(delivery.hasSequence()).isFalse();
      assertThat(delivery.event().kind()).isEqualTo("operator.started");
      assertThat(delivery.event().scope().global()).isTrue();
    }
  }

  @Test
  void closingTheFanoutEndsEverySubscription() throws Exception {
    Collector collector = new Collector();
    BusFanout fanout = BusFanout.start(nats, "core");
    fanout.subscribe(OptionalLong.empty(), EVERYTHING, collector);
    fanout.close();
    await().atMost(DEADLINE).until(() -> collector.ended.get() != null);
    assertThat(collector.ended.get()).isEqualTo(BusFanout.SHUTTING_DOWN);
  }
}

package dev.varroa.protocol.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.RetentionPolicy;
import io.nats.client.api.StreamConfiguration;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ActivityPublisherIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(20);
  private static final Clock FIXED = Clock.fixed(Instant.parse("2025-05-01T10:00:00Z"), ZoneOffset.UTC);

  @Test
  void publishesControllerAndGlobalEventsWithTheIdAsMessageId() throws Exception {
    try (Connection nats = NATS.server().connect(); Connection reader = NATS.server().connect()) {
      Subscription live = reader.subscribe(BusNames.activityFilter());
      reader.flush(DEADLINE);
      ActivityPublisher publisher = new ActivityPublisher(() -> nats, "eu-1", "operator", FIXED);

      ActivityEvent phase = publisher.controller("ci", "sandbox", "controller.phase_changed",
          "phase Provisioning -> Running", Map.of("from", "Provisioning", "to", "Running"));
      ActivityEvent started = publisher.global("operator.started", "operator started", Map.of());

      Message first = live.nextMessage(DEADLINE);
      Message second = live.nextMessage(DEADLINE);
      assertThat(first.getSubject()).isEqualTo("activity.eu-1.ci.sandbox");
      assertThat(first.getHeaders().getFirst(ActivityPublisher.MESSAGE_ID_HEADER)).isEqualTo(phase.getId());
      ActivityEvent received = ActivityEvent.parseFrom(first.getData());
      assertThat(received).isEqualTo(phase);
      assertThat(received.getCluster()).isEqualTo("eu-1");
      assertThat(received.getActor()).isEqualTo("operator");
      assertThat(received.getOccurredAtEpochMillis()).isEqualTo(FIXED.millis());
      assertThat(received.getAttributesMap()).containsEntry("from", "Provisioning").containsEntry("to", "Running");
      assertThat(second.getSubject()).isEqualTo("activity.eu-1._global");
      assertThat(ActivityEvent.parseFrom(second.getData())).isEqualTo(started);
      assertThat(started.getNamespace()).isEmpty();
      assertThat(started.getController()).isEmpty();
      assertThat(phase.getId()).isNotEqualTo(started.getId());
      await().atMost(DEADLINE).until(() -> publisher.published() == 2);
      assertThat(publisher.dropped()).isZero();
    }
  }

  @Test
  void dropsAndCountsWhileNatsIsDownWithoutFailingTheCaller() throws Exception {
    Connection closed = NATS.server().connect();
    closed.close();
    ActivityPublisher publisher = new ActivityPublisher(() -> closed, "eu-1", "gateway/gw-1", Clock.systemUTC());
    ActivityEvent event = publisher.controller("ci", "sandbox", "mite.connected", "mite connected", Map.of());
    publisher.global("gateway.started", "gateway gw-1 started", null);
    assertThat(event.getKind()).isEqualTo("mite.connected");
    await().atMost(DEADLINE).until(() -> publisher.dropped() == 2);
    assertThat(publisher.published()).isZero();

    ActivityPublisher withoutBus = ActivityPublisher.withoutBus("eu-1", "operator");
    withoutBus.global("operator.started", "operator started", Map.of());
    await().atMost(DEADLINE).until(() -> withoutBus.dropped() == 1);
  }

  @Test
  void theRecorderBufferKeepsSeventyTwoHoursAndStoresARepublishedEventOnce() throws Exception {
    try (Connection recorder = NATS.server().connect(); Connection nats = NATS.server().connect()) {
      BusTopology.ensureActivity(recorder);
      BusTopology.ensureActivity(nats);
      StreamConfiguration config = recorder.jetStreamManagement().getStreamInfo(BusNames.ACTIVITY_STREAM)
          .getConfiguration();
      assertThat(config.getSubjects()).containsExactly("activity.>");
      assertThat(config.getRetentionPolicy()).isEqualTo(RetentionPolicy.Limits);
      assertThat(config.getDiscardPolicy()).isEqualTo(DiscardPolicy.Old);
      assertThat(config.getMaxAge()).isEqualTo(Duration.ofHours(72));
      assertThat(config.getDuplicateWindow()).isEqualTo(Duration.ofMinutes(2));
      assertThat(config.getMaxBytes()).isEqualTo(1L << 30);
      assertThat(recorder.jetStreamManagement().getConsumerNames(BusNames.ACTIVITY_STREAM))
          .containsExactly(BusNames.ACTIVITY_CONSUMER);

      ActivityPublisher publisher = new ActivityPublisher(() -> nats, "eu-1", "operator", FIXED);
      ActivityEvent event = publisher.global("operator.started", "operator started", Map.of());
      await().atMost(DEADLINE).until(() -> publisher.published() == 1);
      // The same event again (a publisher retrying) within the window: the header makes the stream keep one.
      nats.publish(BusNames.activityGlobal("eu-1"),
          new io.nats.client.impl.Headers().put(ActivityPublisher.MESSAGE_ID_HEADER, event.getId()), event.toByteArray());
      nats.flush(DEADLINE);
      publisher.controller("ci", "sandbox", "controller.created", "Controller created", Map.of());
      await().atMost(DEADLINE).until(() -> recorder.jetStreamManagement().getStreamInfo(BusNames.ACTIVITY_STREAM)
          .getStreamState().getMsgCount() == 2);
    }
  }
}

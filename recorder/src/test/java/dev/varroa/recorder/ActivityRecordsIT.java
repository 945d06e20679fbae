package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.Subscription;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Activity from the publishers to the activity table through the recorder's 72-hour buffer (seed 001). */
class ActivityRecordsIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private static RecorderSettings settings(String url) {
    PostgresServer postgres = POSTGRES.server();
    return RecorderSettings.of(url, postgres.user(), postgres.password(), NATS.server().url()).withHealthPort(0);
  }

  private static long rows(RecordedRows rows, String cluster) {
    return rows.count("SELECT count(*) FROM activity WHERE cluster = ?", cluster);
  }

  @Test
  void eventsOnBothSubjectsLandInTheActivityTable() throws Exception {
    String url = POSTGRES.server().createDatabase("activity_both");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    String cluster = "both-" + UUID.randomUUID().toString().substring(0, 8);
    try (Recorder recorder = Recorder.start(settings(url)); Connection nats = NATS.server().connect()) {
      ActivityPublisher publisher = new ActivityPublisher(() -> nats, cluster, "operator", Clock.systemUTC());
      ActivityEvent phase = publisher.controller("ci", "sandbox", "controller.phase_changed",
          "phase Provisioning -> Running", Map.of("from", "Provisioning", "to", "Running"));
      ActivityEvent started = publisher.global("operator.started", "operator started", Map.of());
      await().atMost(DEADLINE).until(() -> rows(rows, cluster) == 2);

      Map<String, Object> row = rows.query("SELECT id::text AS id, namespace, controller, kind, actor, summary, "
          + "occurred_at, attributes->>'from' AS from_phase, attributes->>'to' AS to_phase, recorded_at "
          + "FROM activity WHERE id = ?::uuid", phase.getId()).get(0);
      assertThat(row).containsEntry("namespace", "ci").containsEntry("controller", "sandbox")
          .containsEntry("kind", "controller.phase_changed").containsEntry("actor", "operator")
          .containsEntry("summary", "phase Provisioning -> Running")
          .containsEntry("from_phase", "Provisioning").containsEntry("to_phase", "Running");
      assertThat(((java.sql.Timestamp) row.get("occurred_at")).toInstant())
          .isEqualTo(Instant.ofEpochMilli(phase.getOccurredAtEpochMillis()));
      assertThat(row.get("recorded_at")).isNotNull();
      Map<String, Object> global = rows.query("SELECT namespace, controller, kind, attributes::text AS attributes "
          + "FROM activity WHERE id = ?::uuid", started.getId()).get(0);
      assertThat(global).containsEntry("namespace", "").containsEntry("controller", "")
          .containsEntry("kind", "operator.started").containsEntry("attributes", "{}");
    }
  }

  @Test
  void eventsPublishedWhileTheRecorderIsDownLandOnceWhenItReturns() throws Exception {
    String url = POSTGRES.server().createDatabase("activity_restart");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    String cluster = "restart-" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection nats = NATS.server().connect()) {
      ActivityPublisher publisher = new ActivityPublisher(() -> nats, cluster, "gateway/gw-1", Clock.systemUTC());
      List<String> ids = new ArrayList<>();
      Recorder first = Recorder.start(settings(url));
      try {
        for (int i = 0; i < 30; i++) {
          ids.add(publisher.controller("ci", "app-" + (i % 3), "mite.connected", "mite connected", Map.of()).getId());
        }
        await().atMost(DEADLINE).until(() -> rows(rows, cluster) >= 10);
      } finally {
        first.close();
      }
      // Nobody drains the buffer now: the stream keeps them for the durable consumer.
      for (int i = 0; i < 30; i++) {
        ids.add(publisher.controller("ci", "app-" + (i % 3), "mite.disconnected", "mite disconnected", Map.of()).getId());
      }
      await().atMost(DEADLINE).until(() -> publisher.published() == 60);
      try (Recorder second = Recorder.start(settings(url))) {
        await().atMost(DEADLINE).until(() -> rows(rows, cluster) == 60);
        assertThat(rows.query("SELECT id::text AS id FROM activity WHERE cluster = ?", cluster))
            .extracting(r -> r.get("id")).containsExactlyInAnyOrderElementsOf(ids);
      }
    }
  }

  @Test
  void aLiveSubscriberSeesTheEventsWithOrWithoutTheRecorder() throws Exception {
    String url = POSTGRES.server().createDatabase("activity_live");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    String cluster = "live-" + UUID.randomUUID().toString().substring(0, 8);
    try (Recorder recorder = Recorder.start(settings(url)); Connection nats = NATS.server().connect();
        Connection dashboard = NATS.server().connect()) {
      Subscription live = dashboard.subscribe("activity." + cluster + ".>");
      dashboard.flush(DEADLINE);
      ActivityPublisher publisher = new ActivityPublisher(() -> nats, cluster, "operator", Clock.systemUTC());
      ActivityEvent created = publisher.controller("ci", "sandbox", "controller.created", "Controller created",
          Map.of());
      Message seen = live.nextMessage(DEADLINE);
      assertThat(ActivityEvent.parseFrom(seen.getData()).getId()).isEqualTo(created.getId());
      await().atMost(DEADLINE).until(() -> rows(rows, cluster) == 1);
    }
  }

  @Test
  void withoutTheStreamNothingIsStoredAndThePublisherCarriesOn() throws Exception {
    String url = POSTGRES.server().createDatabase("activity_none");
    RecordedRows rows = RecordedRows.of(POSTGRES.server(), url);
    String cluster = "none-" + UUID.randomUUID().toString().substring(0, 8);
    try (Connection nats = NATS.server().connect(); Connection dashboard = NATS.server().connect()) {
      // Another class's test may have made the stream on this server: this one is about a bus without it.
      if (nats.jetStreamManagement().getStreamNames().contains(BusNames.ACTIVITY_STREAM)) {
        nats.jetStreamManagement().deleteStream(BusNames.ACTIVITY_STREAM);
      }
      Subscription live = dashboard.subscribe("activity." + cluster + ".>");
      dashboard.flush(DEADLINE);
      ActivityPublisher publisher = new ActivityPublisher(() -> nats, cluster, "operator", Clock.systemUTC());
      ActivityEvent lost = publisher.global("operator.started", "operator started", Map.of());
      assertThat(ActivityEvent.parseFrom(live.nextMessage(DEADLINE).getData()).getId()).isEqualTo(lost.getId());
      await().atMost(DEADLINE).until(() -> publisher.published() == 1);
      assertThat(publisher.dropped()).isZero();
      assertThat(nats.jetStreamManagement().getStreamNames()).doesNotContain(BusNames.ACTIVITY_STREAM);

      // A recorder that starts later makes the buffer from then on; what was published before it is gone.
      try (Recorder recorder = Recorder.start(settings(url))) {
        ActivityEvent kept = publisher.global("gateway.started", "gateway gw-1 started", Map.of());
        await().atMost(DEADLINE).until(() -> rows(rows, cluster) == 1);
        assertThat(rows.query("SELECT id::text AS id FROM activity WHERE cluster = ?", cluster))
            .extracting(r -> r.get("id")).containsExactly(kept.getId());
      }
    }
  }
}

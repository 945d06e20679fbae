package dev.varroa.operator.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.recorder.store.TeamPlacementReader;
import dev.varroa.recorder.store.TeamPlacementReader.Placement;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's side of team placements against the real recorder on NATS and PostgreSQL: a pool's snapshot is
 * recorded and replaced, a refusal comes back as the reason, and without a recorder the answer says so.
 */
class RecorderTeamPlacementsIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Instant MONDAY = Instant.parse("2026-06-01T08:00:00Z");
  private static final Instant TUESDAY = Instant.parse("2026-06-02T08:00:00Z");

  @Test
  void recordsAndReplacesAPoolsPlacementInTheRecordStore() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    RecorderSettings settings = RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0);
    try (Recorder recorder = Recorder.start(settings);
        Connection nats = NATS.server().connect();
        RecordStore store = RecordStore.open(settings)) {
      RecorderTeamPlacements placements = new RecorderTeamPlacements(nats, "member-eu1");
      TeamPlacementReader reader = new TeamPlacementReader(store.dataSource());

      Optional<String> first = placements.record("tenants", "shared", List.of(
          new PlacementRecord.Entry("alpha", "shared-0", MONDAY),
          new PlacementRecord.Entry("beta", "shared-1", MONDAY)));
      Optional<String> second = placements.record("tenants", "shared", List.of(
          new PlacementRecord.Entry("beta", "shared-0", TUESDAY)));

      assertThat(first).isEmpty();
      assertThat(second).isEmpty();
      assertThat(reader.inCluster("member-eu1")).extracting(Placement::namespace, Placement::pool, Placement::cell,
          Placement::team, Placement::since).containsExactly(tuple("tenants", "shared", "shared-0", "beta", TUESDAY));
    }
  }

  @Test
  void aRefusalComesBackAsTheReason() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    try (Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(),
        postgres.password(), NATS.server().url()).withHealthPort(0));
        Connection nats = NATS.server().connect()) {
      Optional<String> refused = new RecorderTeamPlacements(nats, "core").record("tenants", "shared", List.of(
          new PlacementRecord.Entry("alpha", "shared-0", MONDAY),
          new PlacementRecord.Entry("alpha", "shared-1", MONDAY)));

      assertThat(refused).get().asString().contains("team alpha is placed twice in CellPool core/tenants/shared");
    }
  }

  @Test
  void withoutARecorderTheAnswerSaysNoRecorderAnswers() throws Exception {
    try (Connection nats = NATS.server().connect()) {
      Optional<String> unanswered = new RecorderTeamPlacements(nats, "core").record("tenants", "shared", List.of(
          new PlacementRecord.Entry("alpha", "shared-0", MONDAY)));

      assertThat(unanswered).get().asString().contains("no recorder answers varroa.recorder.team-placements");
    }
  }
}

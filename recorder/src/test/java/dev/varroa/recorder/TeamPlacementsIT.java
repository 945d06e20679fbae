package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.TeamPlacement;
import dev.varroa.protocol.bus.v1.TeamPlacements;
import dev.varroa.protocol.bus.v1.TeamPlacementsRecorded;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.recorder.store.TeamPlacementReader;
import dev.varroa.recorder.store.TeamPlacementReader.Placement;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The recorder takes a CellPool's placements over NATS and keeps them in PostgreSQL: each snapshot replaces its pool's
 * rows, a repeat changes nothing, other pools and clusters are untouched, and since is what the operator sent.
 */
class TeamPlacementsIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration ANSWER_WITHIN = Duration.ofSeconds(5);
  private static final Instant MONDAY = Instant.parse("2026-06-01T08:00:00.123Z");
  private static final Instant TUESDAY = Instant.parse("2026-06-02T08:00:00Z");
  private static Recorder recorder;
  private static Connection nats;
  private static RecordStore store;
  private static TeamPlacementReader reader;

  @BeforeAll
  static void startRecorder() throws Exception {
    PostgresServer postgres = POSTGRES.server();
    RecorderSettings settings = RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0);
    recorder = Recorder.start(settings);
    nats = NATS.server().connect();
    store = RecordStore.open(settings);
    reader = new TeamPlacementReader(store.dataSource());
  }

  @AfterAll
  static void stopRecorder() throws Exception {
    if (nats != null) {
      nats.close();
    }
    if (store != null) {
      store.close();
    }
    if (recorder != null) {
      recorder.close();
    }
  }

  private static TeamPlacementsRecorded send(TeamPlacements snapshot) throws Exception {
    Message reply = nats.request(BusNames.TEAM_PLACEMENTS_SUBJECT, snapshot.toByteArray(), ANSWER_WITHIN);
    assertThat(reply).as("an answer on " + BusNames.TEAM_PLACEMENTS_SUBJECT).isNotNull();
    return TeamPlacementsRecorded.parseFrom(reply.getData());
  }

  private static TeamPlacements pool(String cluster, String namespace, String pool, TeamPlacement... placements) {
    return TeamPlacements.newBuilder().setCluster(cluster).setNamespace(namespace).setPool(pool)
        .addAllPlacements(List.of(placements)).build();
  }

  private static TeamPlacement team(String team, String cell, Instant since) {
    return TeamPlacement.newBuilder().setTeam(team).setCell(cell).setSinceEpochMillis(since.toEpochMilli()).build();
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  @Test
  void aSnapshotReplacesThePoolsRowsAndKeepsTheSinceTheOperatorSent() throws Exception {
    String ns = unique("tenants");
    assertThat(send(pool("core", ns, "shared", team("alpha", "shared-0", MONDAY), team("beta", "shared-0", MONDAY),
        team("gamma", "shared-1", MONDAY))).getRecorded()).isTrue();

    // beta moved to cell 1, gamma is gone, delta is new
    TeamPlacementsRecorded second = send(pool("core", ns, "shared", team("alpha", "shared-0", MONDAY),
        team("beta", "shared-1", TUESDAY), team("delta", "shared-0", TUESDAY)));

    assertThat(second.getRecorded()).as(second.getError()).isTrue();
    assertThat(reader.inNamespace("core", ns)).extracting(Placement::team, Placement::cell, Placement::since)
        .containsExactly(tuple("alpha", "shared-0", MONDAY), tuple("delta", "shared-0", TUESDAY),
            tuple("beta", "shared-1", TUESDAY));
    assertThat(reader.ofTeam("core", ns, "gamma")).isEmpty();
    assertThat(reader.ofTeam("core", ns, "alpha")).get().extracting(Placement::pool).isEqualTo("shared");
  }

  @Test
  void repeatingASnapshotChangesNoRow() throws Exception {
    String ns = unique("repeat");
    TeamPlacements snapshot = pool("core", ns, "shared", team("alpha", "shared-0", MONDAY),
        team("beta", "shared-1", MONDAY));
    assertThat(send(snapshot).getRecorded()).isTrue();
    List<Placement> first = reader.inNamespace("core", ns);

    assertThat(send(snapshot).getRecorded()).isTrue();

    assertThat(reader.inNamespace("core", ns)).as("same rows, recorded_at untouched").isEqualTo(first);
  }

  @Test
  void twoClustersAndTwoPoolsDoNotTouchEachOthersRows() throws Exception {
    String ns = unique("shared-ns");
    send(pool("core", ns, "blue", team("alpha", "blue-0", MONDAY), team("beta", "blue-0", MONDAY)));
    send(pool("core", ns, "green", team("gamma", "green-0", MONDAY)));
    send(pool("member-eu1", ns, "blue", team("alpha", "blue-3", TUESDAY)));

    // an empty snapshot of core's blue pool: no team placed there any more
    assertThat(send(pool("core", ns, "blue")).getRecorded()).isTrue();

    assertThat(reader.inNamespace("core", ns)).extracting(Placement::pool, Placement::team)
        .containsExactly(tuple("green", "gamma"));
    assertThat(reader.inNamespace("member-eu1", ns)).extracting(Placement::pool, Placement::cell, Placement::since)
        .containsExactly(tuple("blue", "blue-3", TUESDAY));
    assertThat(reader.inCluster("member-eu1")).extracting(Placement::namespace).contains(ns);
  }

  @Test
  void refusesASnapshotWithATeamTwiceOrNoPoolAndWritesNothing() throws Exception {
    String ns = unique("bad");
    TeamPlacementsRecorded twice = send(pool("core", ns, "shared", team("alpha", "shared-0", MONDAY),
        team("alpha", "shared-1", MONDAY)));
    TeamPlacementsRecorded noPool = send(pool("core", ns, "", team("beta", "shared-0", MONDAY)));
    TeamPlacementsRecorded noSince = send(pool("core", ns, "shared",
        TeamPlacement.newBuilder().setTeam("gamma").setCell("shared-0").build()));

    assertThat(twice.getRecorded()).isFalse();
    assertThat(twice.getError()).contains("team alpha is placed twice in CellPool core/" + ns + "/shared");
    assertThat(noPool.getError()).contains("names no CellPool");
    assertThat(noSince.getError()).contains("team gamma").contains("since_epoch_millis");
    assertThat(reader.inNamespace("core", ns)).isEmpty();
  }

  @Test
  void answersAMalformedRequestWithAnErrorRatherThanSilence() throws Exception {
    Message reply = nats.request(BusNames.TEAM_PLACEMENTS_SUBJECT, "not protobuf \u0000\u00ff".getBytes(
        StandardCharsets.ISO_8859_1), ANSWER_WITHIN);

    assertThat(reply).isNotNull();
    TeamPlacementsRecorded answer = TeamPlacementsRecorded.parseFrom(reply.getData());
    assertThat(answer.getRecorded()).isFalse();
    assertThat(answer.getError()).isNotEmpty();
  }
}

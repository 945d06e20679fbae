package dev.varroa.dashboard.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.dashboard.activity.ActivityItem;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.recorder.store.ActivityWriter;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** GET /activity's reader over the activity table the recorder writes, as the read-only varroa_dashboard role. */
class BackfillIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
  private static final Predicate<ControllerScope> EVERYTHING = scope -> true;

  @TempDir
  static Path folder;
  private static DashboardDatabase database;
  private static ActivityWriter writer;

  @BeforeAll
  static void database() throws Exception {
    database = DashboardDatabase.create(POSTGRES.server(), "backfill", folder);
    writer = new ActivityWriter(database.ownerDataSource(), "core");
  }

  @AfterAll
  static void close() {
    database.close();
  }

  private static ActivityEvent event(String cluster, String namespace, String controller, String kind,
      Instant occurredAt, Map<String, String> attributes) {
    return ActivityEvent.newBuilder().setId(UUID.randomUUID().toString()).setCluster(cluster)
        .setNamespace(namespace).setController(controller).setKind(kind).setActor("operator")
        .setSummary(kind + " of " + controller).setOccurredAtEpochMillis(occurredAt.toEpochMilli())
        .putAllAttributes(attributes).build();
  }

  private static Backfill backfill() {
    return new Backfill(database.pool().dataSource());
  }

  @Test
  void filtersByClusterNamespaceControllerAndSinceNewestFirst() throws Exception {
    String cluster = "filters-" + UUID.randomUUID().toString().substring(0, 6);
    ActivityEvent created = event(cluster, "ci", "app", "controller.created", T0, Map.of());
    ActivityEvent phase = event(cluster, "ci", "app", "controller.phase_changed", T0.plusSeconds(60),
        Map.of("to", "Running", "from", "Provisioning"));
    ActivityEvent other = event(cluster, "ci", "web", "mite.connected", T0.plusSeconds(120), Map.of());
    ActivityEvent team = event(cluster, "team", "app", "mite.connected", T0.plusSeconds(180), Map.of());
    ActivityEvent global = event(cluster, "", "", "operator.started", T0.plusSeconds(240), Map.of());
    ActivityEvent elsewhere = event("elsewhere-" + cluster, "ci", "app", "mite.connected", T0.plusSeconds(300),
        Map.of());
    writer.write(List.of(created, phase, other, team, global, elsewhere));

    List<ActivityItem> all = backfill().events(new ActivityQuery(cluster, null, null, null, 100), EVERYTHING);
    assertThat(all).extracting(ActivityItem::id)
        .containsExactly(global.getId(), team.getId(), other.getId(), phase.getId(), created.getId());
    ActivityItem phaseItem = all.get(3);
    assertThat(phaseItem).isEqualTo(new ActivityItem(phase.getId(), cluster, "ci", "app",
        "controller.phase_changed", "operator", "controller.phase_changed of app", T0.plusSeconds(60),
        Map.of("from", "Provisioning", "to", "Running")));
    assertThat(all.get(0).scope()).isEqualTo(new ControllerScope(cluster, "", ""));
    assertThat(all.get(0).scope().global()).isTrue();

    assertThat(backfill().events(new ActivityQuery(cluster, "ci", null, null, 100), EVERYTHING))
        .extracting(ActivityItem::id).containsExactly(other.getId(), phase.getId(), created.getId());
    assertThat(backfill().events(new ActivityQuery(cluster, "ci", "app", null, 100), EVERYTHING))
        .extracting(ActivityItem::id).containsExactly(phase.getId(), created.getId());
    assertThat(backfill().events(new ActivityQuery(cluster, null, "app", null, 100), EVERYTHING))
        .extracting(ActivityItem::id).containsExactly(team.getId(), phase.getId(), created.getId());
    assertThat(backfill().events(new ActivityQuery(cluster, null, null, T0.plusSeconds(120), 100), EVERYTHING))
        .extracting(ActivityItem::id).containsExactly(global.getId(), team.getId(), other.getId());
    assertThat(backfill().events(new ActivityQuery(cluster, null, null, null, 2), EVERYTHING))
        .extracting(ActivityItem::id).containsExactly(global.getId(), team.getId());
    assertThat(backfill().events(new ActivityQuery(null, "ci", "app", null, 100), EVERYTHING))
        .extracting(ActivityItem::cluster).contains(cluster, "elsewhere-" + cluster);
  }

  @Test
  void fillsThePageFromPastDeniedRowsAcrossManyTablePages() throws Exception {
    String cluster = "paging-" + UUID.randomUUID().toString().substring(0, 6);
    List<ActivityEvent> events = new ArrayList<>();
    List<String> allowedNewestFirst = new ArrayList<>();
    // 1,200 events: the newest 700 all denied, then one allowed event in every 25.
    for (int i = 0; i < 1200; i++) {
      boolean allowed = i < 500 && i % 25 == 0;
      ActivityEvent event = event(cluster, allowed ? "ci" : "secret", "app-" + (i % 4), "mite.connected",
          T0.plusMillis(i), Map.of("i", Integer.toString(i)));
      events.add(event);
      if (allowed) {
        allowedNewestFirst.add(0, event.getId());
      }
    }
    writer.write(events);
    Predicate<ControllerScope> onlyCi = scope -> scope.namespace().equals("ci");

    List<ActivityItem> page = backfill().events(new ActivityQuery(cluster, null, null, null, 15), onlyCi);
    assertThat(page).extracting(ActivityItem::id).containsExactlyElementsOf(allowedNewestFirst.subList(0, 15));

    // Fewer only when no more allowed rows exist.
    assertThat(backfill().events(new ActivityQuery(cluster, null, null, null, 1000), onlyCi))
        .extracting(ActivityItem::id).containsExactlyElementsOf(allowedNewestFirst);
    assertThat(backfill().events(new ActivityQuery(cluster, null, null, null, 1000), scope -> false)).isEmpty();
    assertThat(backfill().events(new ActivityQuery(cluster, null, null, null, 1000), EVERYTHING)).hasSize(1000);
  }

  @Test
  void withoutARecordStoreTheAnswerIsEmpty() throws Exception {
    assertThat(Backfill.disabled().recordStore()).isFalse();
    assertThat(Backfill.disabled().events(ActivityQuery.latest(), EVERYTHING)).isEmpty();
    assertThat(backfill().recordStore()).isTrue();
  }

  @Test
  void aLimitOutsideOneToAThousandNamesTheParameter() {
    assertThatThrownBy(() -> ActivityQuery.latest().withLimit(0)).isInstanceOf(InvalidParameterException.class)
        .hasMessageContaining("between 1 and 1000")
        .satisfies(e -> assertThat(((InvalidParameterException) e).parameter()).isEqualTo("limit"));
    assertThatThrownBy(() -> ActivityQuery.latest().withLimit(1001)).isInstanceOf(InvalidParameterException.class);
  }
}

package dev.varroa.dashboard.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /statistics/runs' figures over the recorder's table runs in real PostgreSQL, read as varroa_dashboard: builds
 * per hour by result, queue-to-start p50/p95 per hour and over the window, counting only the allowed Controllers.
 */
class BuildStatisticsIT {

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  /** 15:20: the window is 2026-12-03T16:00 .. 2026-12-04T16:00, the last hour 15:00 holding now. */
  private static final Instant NOW = Instant.parse("2026-12-04T15:20:00Z");
  private static final Instant FROM = Instant.parse("2026-12-03T16:00:00Z");
  private static final Instant HOUR_10 = Instant.parse("2026-12-04T10:00:00Z");
  private static final Instant HOUR_12 = Instant.parse("2026-12-04T12:00:00Z");
  private static final Instant HOUR_15 = Instant.parse("2026-12-04T15:00:00Z");
  private static final List<Long> ORDERS_QUEUE = LongStream.rangeClosed(1, 20).map(i -> i * 1000).boxed().toList();
  private static final long SEARCH_QUEUE = 90_000;

  @TempDir
  static Path folder;
  private static DashboardDatabase database;

  @BeforeAll
  static void seed() throws Exception {
    database = DashboardDatabase.create(POSTGRES.server(), "statistics", folder);
    // completed in the last hour: orders 3 SUCCESS + 1 FAILURE, search 2 SUCCESS + 1 ABORTED
    for (String result : List.of("SUCCESS", "SUCCESS", "SUCCESS", "FAILURE")) {
      completed("team-a", "orders", result, HOUR_15.plusSeconds(300));
    }
    for (String result : List.of("SUCCESS", "SUCCESS", "ABORTED")) {
      completed("team-b", "search", result, HOUR_15.plusSeconds(600));
    }
    // at 10:00: one UNSTABLE, one completed that never got a result event
    completed("team-a", "orders", "UNSTABLE", HOUR_10.plusSeconds(1));
    completed("team-a", "orders", null, HOUR_10.plusSeconds(3599));
    // the first instant of the window counts, the one before it does not
    completed("team-a", "orders", "SUCCESS", FROM);
    completed("team-a", "orders", "FAILURE", FROM.minusSeconds(1));
    // started at 12:xx: orders with Jenkins' queued time, search with only the two timestamps, one still running
    for (long queued : ORDERS_QUEUE) {
      started("team-a", "orders", HOUR_12.plusSeconds(queued / 1000), queued, null);
    }
    started("team-b", "search", HOUR_12.plusSeconds(1800), null, HOUR_12.plusSeconds(1800).minusMillis(SEARCH_QUEUE));
    // started before the window: no queue figure
    started("team-a", "orders", FROM.minusSeconds(60), 500_000L, null);
  }

  @AfterAll
  static void close() {
    database.close();
  }

  @Test
  void countsCompletedBuildsPerHourByResult() throws Exception {
    BuildStatistics.Window window = statistics().hourly(NOW, 24, scope -> true);
    assertThat(window.from()).isEqualTo(FROM);
    assertThat(window.until()).isEqualTo(Instant.parse("2026-12-04T16:00:00Z"));
    assertThat(window.hours()).hasSize(24);
    assertThat(window.hours().get(0).start()).isEqualTo(FROM);
    assertThat(hour(window, FROM).completed()).isEqualTo(Map.of("SUCCESS", 1L));
    assertThat(hour(window, HOUR_10).completed()).isEqualTo(Map.of("UNSTABLE", 1L, BuildStatistics.NO_RESULT, 1L));
    assertThat(hour(window, HOUR_15).completed()).isEqualTo(Map.of("SUCCESS", 5L, "FAILURE", 1L, "ABORTED", 1L));
    long total = window.hours().stream().flatMap(h -> h.completed().values().stream()).mapToLong(Long::longValue)
        .sum();
    assertThat(total).as("the run completed a second before the window is not counted").isEqualTo(10);
  }

  @Test
  void queueToStartPercentilesPerHourAndOverTheWindow() throws Exception {
    BuildStatistics.Window window = statistics().hourly(NOW, 24, scope -> true);
    List<Long> all = new ArrayList<>(ORDERS_QUEUE);
    all.add(SEARCH_QUEUE);
    BuildStatistics.Hour noon = hour(window, HOUR_12);
    assertThat(noon.started()).isEqualTo(21);
    assertThat(noon.queueP50Millis()).isEqualTo(percentile(all, 0.5)).isEqualTo(11_000);
    assertThat(noon.queueP95Millis()).isEqualTo(percentile(all, 0.95)).isEqualTo(20_000);
    assertThat(hour(window, HOUR_15).started()).isZero();
    assertThat(hour(window, HOUR_15).queueP50Millis()).isNull();
    assertThat(window.queue()).isEqualTo(new BuildStatistics.Queue(21, 11_000L, 20_000L));
  }

  @Test
  void onlyTheAllowedControllersCount() throws Exception {
    BuildStatistics.Window window = statistics().hourly(NOW, 24, scope -> scope.namespace().equals("team-a"));
    assertThat(hour(window, HOUR_15).completed()).isEqualTo(Map.of("SUCCESS", 3L, "FAILURE", 1L));
    BuildStatistics.Hour noon = hour(window, HOUR_12);
    assertThat(noon.started()).isEqualTo(20);
    assertThat(noon.queueP50Millis()).isEqualTo(percentile(ORDERS_QUEUE, 0.5)).isEqualTo(10_500);
    assertThat(noon.queueP95Millis()).isEqualTo(percentile(ORDERS_QUEUE, 0.95)).isEqualTo(19_050);

    BuildStatistics.Window nothing = statistics().hourly(NOW, 24, scope -> false);
    assertThat(nothing.hours()).hasSize(24).allSatisfy(h -> {
      assertThat(h.completed()).isEmpty();
      assertThat(h.started()).isZero();
    });
    assertThat(nothing.queue()).isEqualTo(new BuildStatistics.Queue(0, null, null));
  }

  @Test
  void aShorterWindowAndAnOutOfRangeOne() throws Exception {
    BuildStatistics.Window three = statistics().hourly(NOW, 3, scope -> true);
    assertThat(three.from()).isEqualTo(Instant.parse("2026-12-04T13:00:00Z"));
    assertThat(three.hours()).extracting(BuildStatistics.Hour::started).containsOnly(0L);
    assertThat(three.queue().started()).isZero();
    assertThatThrownBy(() -> statistics().hourly(NOW, 0, scope -> true))
        .isInstanceOf(InvalidParameterException.class).hasMessageContaining("hours must be between 1 and 168");
  }

  /** Linear between the two nearest ranks, as percentile_cont: rank p*(n-1) over the sorted values. */
  private static long percentile(List<Long> values, double p) {
    List<Long> sorted = values.stream().sorted().toList();
    double rank = p * (sorted.size() - 1);
    int low = (int) Math.floor(rank);
    int high = (int) Math.ceil(rank);
    return Math.round(sorted.get(low) + (rank - low) * (sorted.get(high) - sorted.get(low)));
  }

  private static BuildStatistics.Hour hour(BuildStatistics.Window window, Instant start) {
    return window.hours().stream().filter(h -> h.start().equals(start)).findFirst().orElseThrow();
  }

  private static BuildStatistics statistics() {
    return new RunRecords(database.pool().dataSource()).statistics();
  }

  private static void completed(String namespace, String controller, String result, Instant at) throws Exception {
    Instant started = at.minus(Duration.ofMinutes(2));
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, started_at, result, completed_at, last_sequence) VALUES (?, ?, 'core', ?, ?, 'main', 1, ?, ?, "
        + "?, 5)", "uid-" + controller, UUID.randomUUID().toString(), namespace, controller,
        // their start falls in an earlier hour than the queue checks look at, and carries no queue time
        Timestamp.from(started.minus(Duration.ofDays(3))), result, Timestamp.from(at));
  }

  private static void started(String namespace, String controller, Instant at, Long queuedMillis, Instant queuedAt)
      throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, queued_at, started_at, queued_millis, last_sequence) VALUES (?, ?, 'core', ?, ?, 'main', 2, ?, "
        + "?, ?, 3)", "uid-" + controller, UUID.randomUUID().toString(), namespace, controller,
        queuedAt == null ? null : Timestamp.from(queuedAt), Timestamp.from(at), queuedMillis);
  }
}

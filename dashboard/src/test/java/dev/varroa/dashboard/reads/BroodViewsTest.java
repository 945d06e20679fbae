package dev.varroa.dashboard.reads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.BroodOperationRow;
import dev.varroa.protocol.bus.v1.BroodScheduleRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON of a brood operation and schedule row: every field of docs/dashboard-api.md, and what empty means. */
class BroodViewsTest {

  @Test
  void anOperationRowHasEveryCountAndNullForTimesNotReached() {
    Map<String, Object> view = BroodViews.operation("core", BroodOperationRow.newBuilder().setNamespace("ci")
        .setName("wave").setPhase("Running").addSteps("backup").setTotal(4).setSucceeded(1).setRunning(1)
        .setPending(2).setCreatedAt("2026-12-04T20:00:00Z").setStartedAt("2026-12-04T20:00:01Z").build());
    assertThat(view).containsOnlyKeys("cluster", "namespace", "name", "phase", "message", "dryRun", "steps", "counts",
        "createdAt", "startedAt", "completedAt", "schedule");
    assertThat(view).containsEntry("cluster", "core").containsEntry("steps", List.of("backup"))
        .containsEntry("completedAt", null).containsEntry("schedule", null).containsEntry("dryRun", false);
    assertThat(view.get("counts")).isEqualTo(Map.of("total", 4, "pending", 2, "running", 1, "paused", 0,
        "succeeded", 1, "failed", 0, "unknown", 0, "cancelled", 0));
  }

  @Test
  void aScheduleRowShowsTheDefaultsTheSpecOmits() {
    Map<String, Object> view = BroodViews.schedule("core", BroodScheduleRow.newBuilder().setNamespace("ci")
        .setName("nightly").setSchedule("@daily").addActive("nightly-1").build());
    assertThat(view).containsEntry("timeZone", "UTC").containsEntry("concurrencyPolicy", "Forbid")
        .containsEntry("nextRunTime", null).containsEntry("lastResult", null)
        .containsEntry("active", List.of("nightly-1")).containsEntry("suspend", false);
  }
}

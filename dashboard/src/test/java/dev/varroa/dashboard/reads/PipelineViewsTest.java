package dev.varroa.dashboard.reads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pipeline row: kind from where the Team is, empty texts as null, the run reduced to what the list shows. */
class PipelineViewsTest {

  private static final TeamRow TEAM = TeamRow.newBuilder().setNamespace("tenant-a").setName("payments")
      .setCell("shared-0").setCellNamespace("cells").build();
  private static final PipelineRow BUILD = PipelineRow.newBuilder().setName("build").setJob("tenant-a_payments/build")
      .setRepository("https://git.example/payments.git").setCron("H 2 * * *").setNextRun("2026-12-06T02:17:00Z")
      .build();

  @Test
  void aTeamOnTheCoreRunsPipelineJobsAndAMembersIsUnknown() {
    assertThat(PipelineViews.pipeline("eu-1", "eu-1", TEAM, BUILD, null).get("kind")).isEqualTo("pipeline");
    assertThat(PipelineViews.pipeline("east", "eu-1", TEAM, BUILD, null).get("kind")).isEqualTo("unknown");
  }

  @Test
  void showsTheJobOnItsCellAndLeavesWhatIsNotSetNull() {
    Map<String, Object> row = PipelineViews.pipeline("eu-1", "eu-1", TEAM, BUILD, null);
    assertThat(row).containsEntry("team", "payments").containsEntry("pipeline", "build")
        .containsEntry("cell", "shared-0").containsEntry("cellNamespace", "cells")
        .containsEntry("job", "tenant-a_payments/build").containsEntry("branch", null)
        .containsEntry("nextRun", "2026-12-06T02:17:00Z").containsEntry("lastRun", null);
    assertThat(row.get("triggers")).isEqualTo(triggers("H 2 * * *", null, false));
    TeamRow late = TeamRow.newBuilder().setNamespace("tenant-a").setName("late").build();
    Map<String, Object> pending = PipelineViews.pipeline("eu-1", "eu-1", late,
        PipelineRow.newBuilder().setName("build").setJob("tenant-a_late/build").build(), null);
    assertThat(pending).containsEntry("cell", null).containsEntry("cellNamespace", null).containsEntry("nextRun", null);
  }

  @Test
  void aLastRunKeepsItsIdResultDurationAndTimes() {
    Map<String, Object> run = new HashMap<>();
    run.put("runId", "r-1");
    run.put("build", 7L);
    run.put("result", null);
    run.put("startedAt", "2026-12-05T03:00:00Z");
    run.put("node", "agent-1");
    Map<String, Object> last = PipelineViews.lastRun(run);
    assertThat(last).containsEntry("runId", "r-1").containsEntry("build", 7L).containsEntry("result", null)
        .containsEntry("startedAt", "2026-12-05T03:00:00Z").containsEntry("completedAt", null)
        .doesNotContainKey("node");
  }

  private static Map<String, Object> triggers(String cron, String pollScm, boolean push) {
    Map<String, Object> out = new HashMap<>();
    out.put("cron", cron);
    out.put("pollScm", pollScm);
    out.put("push", push);
    return out;
  }
}

package dev.varroa.operator.bffresponders;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Team's row carries its pipelines as the /pipelines list shows them: the job name and the next timer run. */
class CellPoolRowRendererTest {

  private static final Instant NOW = Instant.parse("2026-12-05T03:30:00Z");

  private static Team team(String namespace, String poolNamespace, TeamSpec.Pipeline... pipelines) {
    Team team = new Team();
    team.setMetadata(new ObjectMetaBuilder().withNamespace(namespace).withName("payments").build());
    TeamSpec spec = new TeamSpec();
    spec.pool = "shared";
    spec.poolNamespace = poolNamespace;
    spec.pipelines = List.of(pipelines);
    team.setSpec(spec);
    TeamStatus status = new TeamStatus();
    status.phase = TeamStatus.Phase.Placed;
    status.cell = "shared-0";
    status.cellNamespace = poolNamespace == null ? namespace : poolNamespace;
    team.setStatus(status);
    return team;
  }

  private static TeamSpec.Pipeline pipeline(String name, String cron, String pollScm) {
    TeamSpec.Pipeline pipeline = new TeamSpec.Pipeline();
    pipeline.name = name;
    pipeline.repository = "https://git.example/" + name + ".git";
    if (cron != null || pollScm != null) {
      pipeline.triggers = new TeamSpec.Triggers();
      pipeline.triggers.cron = cron;
      pipeline.triggers.pollScm = pollScm;
    }
    return pipeline;
  }

  @Test
  void namesEachPipelinesJobInTheTeamsFolderAndTheCellNamespace() {
    TeamRow row = CellPoolRowRenderer.renderWithPipelines(team("tenant-a", "cells", pipeline("build", null, null)),
        NOW);

    assertThat(row.getCellNamespace()).isEqualTo("cells");
    assertThat(row.getPipelineRowsList()).singleElement().satisfies(p -> {
      assertThat(p.getJob()).isEqualTo("tenant-a_payments/build");
      assertThat(p.getRepository()).isEqualTo("https://git.example/build.git");
      assertThat(p.getBranch()).isEmpty();
      assertThat(p.getNextRun()).isEmpty();
      assertThat(p.getPush()).isFalse();
    });
  }

  @Test
  void theTeamsRowAloneCountsItsPipelinesWithoutListingThem() {
    TeamRow row = CellPoolRowRenderer.render(team("tenant-a", "cells", pipeline("build", null, null)));

    assertThat(row.getPipelines()).isEqualTo(1);
    assertThat(row.getPipelineRowsList()).isEmpty();
    assertThat(row.getCellNamespace()).isEqualTo("cells");
  }

  @Test
  void givesTheNextRunOfTheCronTriggerInUtc() {
    Team team = team("cells", null, pipeline("nightly", "0 2 * * *", "H/5 * * * *"));
    PipelineRow row = CellPoolRowRenderer.renderWithPipelines(team, NOW).getPipelineRows(0);

    assertThat(row.getJob()).isEqualTo("payments/nightly");
    assertThat(row.getCron()).isEqualTo("0 2 * * *");
    assertThat(row.getPollScm()).isEqualTo("H/5 * * * *");
    assertThat(row.getNextRun()).isEqualTo("2026-12-06T02:00:00Z");
    assertThat(row.getPush()).isFalse();
  }

  @Test
  void saysWhenAPushRunsThePipeline() {
    TeamSpec.Pipeline onPush = pipeline("service", null, null);
    onPush.triggers = new TeamSpec.Triggers();
    onPush.triggers.push = true;
    PipelineRow row = CellPoolRowRenderer.renderWithPipelines(team("cells", null, onPush), NOW).getPipelineRows(0);

    assertThat(row.getPush()).isTrue();
    assertThat(row.getNextRun()).isEmpty();
  }

  @Test
  void showsNoNextRunForACronJenkinsRefuses() {
    Team team = team("cells", null, pipeline("odd", "61 * * * *", null));
    PipelineRow row = CellPoolRowRenderer.renderWithPipelines(team, NOW).getPipelineRows(0);

    assertThat(row.getCron()).isEqualTo("61 * * * *");
    assertThat(row.getNextRun()).isEmpty();
  }
}

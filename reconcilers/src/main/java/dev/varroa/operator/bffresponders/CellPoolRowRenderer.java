package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolSpec;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.hibernation.CronSyntaxException;
import dev.varroa.operator.hibernation.TimerSpec;
import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellRow;
import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Objects;

/** CellPools and Teams as the lists show them, from the objects alone: pure, no client. */
public final class CellPoolRowRenderer {

  private CellPoolRowRenderer() {
  }

  public static CellPoolRow render(CellPool pool) {
    CellPoolRow.Builder row = CellPoolRow.newBuilder()
        .setNamespace(text(pool.getMetadata().getNamespace()))
        .setName(text(pool.getMetadata().getName()))
        .setCreatedAt(text(pool.getMetadata().getCreationTimestamp()))
        .setTeamsPerCell(CellPoolSpec.DEFAULT_TEAMS_PER_CELL);
    CellPoolSpec spec = pool.getSpec();
    if (spec != null) {
      row.setReplicas(count(spec.replicas));
      if (spec.teamsPerCell != null && spec.teamsPerCell > 0) {
        row.setTeamsPerCell(spec.teamsPerCell);
      }
    }
    CellPoolStatus status = pool.getStatus();
    if (status == null) {
      return row.build();
    }
    row.setReadyReplicas(count(status.readyReplicas));
    if (status.unplacedTeams != null) {
      status.unplacedTeams.stream().filter(Objects::nonNull).forEach(row::addUnplacedTeams);
    }
    if (status.cells != null) {
      for (CellPoolStatus.Cell cell : status.cells) {
        if (cell == null) {
          continue;
        }
        CellRow.Builder one = CellRow.newBuilder().setName(text(cell.name)).setPhase(text(cell.phase))
            .setDraining(Boolean.TRUE.equals(cell.draining));
        if (cell.teams != null) {
          cell.teams.stream().filter(Objects::nonNull).forEach(one::addTeams);
        }
        row.addCells(one);
      }
    }
    return row.build();
  }

  /** The Team's row with a row per pipeline; {@code now} is when the answer is made, the next timer runs follow it. */
  public static TeamRow renderWithPipelines(Team team, Instant now) {
    TeamRow.Builder row = render(team).toBuilder();
    if (team.getSpec() != null && team.getSpec().pipelines != null) {
      String folder = TeamRef.folder(team);
      team.getSpec().pipelines.stream().filter(Objects::nonNull)
          .map(pipeline -> pipeline(folder, pipeline, now)).forEach(row::addPipelineRows);
    }
    return row.build();
  }

  /** The Team's row, its pipelines counted only. */
  public static TeamRow render(Team team) {
    TeamRow.Builder row = TeamRow.newBuilder()
        .setNamespace(text(team.getMetadata().getNamespace()))
        .setName(text(team.getMetadata().getName()))
        .setCreatedAt(text(team.getMetadata().getCreationTimestamp()));
    if (team.getSpec() != null) {
      row.setPool(text(team.getSpec().pool))
          .setPipelines(team.getSpec().pipelines == null ? 0 : team.getSpec().pipelines.size());
    }
    TeamStatus status = team.getStatus();
    if (status != null) {
      row.setCell(text(status.cell))
          .setCellNamespace(text(status.cellNamespace))
          .setPhase(status.phase == null ? "" : status.phase.name())
          .setPlacedSince(text(status.placedSince))
          .setMessage(text(status.message));
    }
    return row.build();
  }

  /** One pipeline and its job as the generated layer names it: the Team's folder, then the pipeline's name. */
  static PipelineRow pipeline(String folder, TeamSpec.Pipeline pipeline, Instant now) {
    String job = folder + "/" + text(pipeline.name);
    PipelineRow.Builder row = PipelineRow.newBuilder()
        .setName(text(pipeline.name))
        .setRepository(text(pipeline.repository))
        .setBranch(text(pipeline.branch))
        .setScriptPath(text(pipeline.scriptPath))
        .setJob(job);
    TeamSpec.Triggers triggers = pipeline.triggers;
    if (triggers != null) {
      row.setCron(text(triggers.cron)).setPollScm(text(triggers.pollScm)).setPush(Boolean.TRUE.equals(triggers.push));
      if (triggers.cron != null && !triggers.cron.isBlank()) {
        row.setNextRun(nextRun(job, triggers.cron, now));
      }
    }
    return row.build();
  }

  // Read as the cell's Jenkins reads the generated cron trigger: H hashed by the job's full name, the JVM in UTC.
  private static String nextRun(String job, String cron, Instant now) {
    try {
      return TimerSpec.parse(job, Arrays.asList(cron.split("\\R")), ZoneOffset.UTC).nextFireAfter(now)
          .map(Instant::toString).orElse("");
    } catch (CronSyntaxException e) {
      // Jenkins refuses the same spec and never runs the job by timer; the list shows no next run.
      return "";
    }
  }

  private static int count(Integer value) {
    return value == null ? 0 : Math.max(0, value);
  }

  private static String text(String value) {
    return Objects.toString(value, "");
  }
}

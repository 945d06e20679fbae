package dev.varroa.operator.bffresponders;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolSpec;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellRow;
import dev.varroa.protocol.bus.v1.TeamRow;
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
          .setPhase(status.phase == null ? "" : status.phase.name())
          .setPlacedSince(text(status.placedSince))
          .setMessage(text(status.message));
    }
    return row.build();
  }

  private static int count(Integer value) {
    return value == null ? 0 : Math.max(0, value);
  }

  private static String text(String value) {
    return Objects.toString(value, "");
  }
}

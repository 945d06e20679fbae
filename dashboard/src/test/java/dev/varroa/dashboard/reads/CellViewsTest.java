package dev.varroa.dashboard.reads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CellViewsTest {

  @Test
  void loadIsHostedTeamsOverRoomPerCellAndOverTheExistingCellsForThePool() {
    CellPoolRow row = CellPoolRow.newBuilder().setNamespace("tenant-a").setName("builds").setReplicas(3)
        .setReadyReplicas(1).setTeamsPerCell(3)
        .addCells(CellRow.newBuilder().setName("builds-0").setPhase("Connected").addTeams("a").addTeams("b"))
        .addCells(CellRow.newBuilder().setName("builds-1").setPhase("Provisioning").setDraining(true))
        .addUnplacedTeams("c").build();
    Map<String, Object> pool = CellViews.pool("eu-1", row);
    assertThat(pool).containsEntry("cluster", "eu-1").containsEntry("replicas", 3).containsEntry("ready", 1)
        .containsEntry("teams", 2).containsEntry("load", 0.33).containsEntry("unplacedTeams", List.of("c"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> cells = (List<Map<String, Object>>) pool.get("cells");
    assertThat(cells.get(0)).containsEntry("load", 0.67).containsEntry("teams", List.of("a", "b"));
    assertThat(cells.get(1)).containsEntry("load", 0.0).containsEntry("draining", true);
    assertThat(pool.get("createdAt")).isNull();
  }

  @Test
  void aPoolWithoutCellsHasLoadZeroAndAMissingTeamsPerCellCountsAsOne() {
    Map<String, Object> pool = CellViews.pool("eu-1", CellPoolRow.newBuilder().setName("empty").build());
    assertThat(pool).containsEntry("load", 0.0).containsEntry("teamsPerCell", 1);
  }

  @Test
  void aPendingTeamHasNoCell() {
    Map<String, Object> team = CellViews.team("east", TeamRow.newBuilder().setNamespace("tenant-b").setName("web")
        .setPool("ci").setPhase("Pending").setPipelines(2).setMessage("every cell is full").build());
    assertThat(team).containsEntry("cell", null).containsEntry("pipelines", 2).containsEntry("phase", "Pending")
        .containsEntry("pool", "ci");
  }
}

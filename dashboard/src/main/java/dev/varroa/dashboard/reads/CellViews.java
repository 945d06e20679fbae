package dev.varroa.dashboard.reads;

import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** CellPools and Teams as the API's JSON shows them (docs/dashboard-api.md). Pure. */
public final class CellViews {

  private CellViews() {}

  /** One pool: its cells with their hosted teams and load (teams / teamsPerCell), and the pool's own load. */
  public static Map<String, Object> pool(String cluster, CellPoolRow row) {
    int perCell = Math.max(1, row.getTeamsPerCell());
    List<Map<String, Object>> cells = new ArrayList<>();
    int hosted = 0;
    for (CellRow cell : row.getCellsList()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("name", cell.getName());
      one.put("phase", cell.getPhase());
      one.put("teams", List.copyOf(cell.getTeamsList()));
      one.put("draining", cell.getDraining());
      one.put("load", load(cell.getTeamsCount(), perCell));
      cells.add(one);
      hosted += cell.getTeamsCount();
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", row.getNamespace());
    out.put("name", row.getName());
    out.put("replicas", row.getReplicas());
    out.put("ready", row.getReadyReplicas());
    out.put("teamsPerCell", perCell);
    out.put("teams", hosted);
    // the pool's load counts the cells that exist: a pool scaled to 0 with no cells has load 0, not a division by 0
    out.put("load", cells.isEmpty() ? 0.0 : load(hosted, perCell * cells.size()));
    out.put("cells", cells);
    out.put("unplacedTeams", List.copyOf(row.getUnplacedTeamsList()));
    out.put("createdAt", orNull(row.getCreatedAt()));
    return out;
  }

  public static Map<String, Object> team(String cluster, TeamRow row) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("namespace", row.getNamespace());
    out.put("name", row.getName());
    out.put("pool", row.getPool());
    out.put("cell", orNull(row.getCell()));
    out.put("phase", row.getPhase());
    out.put("pipelines", row.getPipelines());
    out.put("placedSince", orNull(row.getPlacedSince()));
    out.put("message", row.getMessage());
    out.put("createdAt", orNull(row.getCreatedAt()));
    return out;
  }

  /** Teams over room, rounded to two decimals so the JSON shows 0.3, not 0.30000000000000004. */
  static double load(int teams, int room) {
    return Math.round(teams * 100.0 / room) / 100.0;
  }

  private static String orNull(String value) {
    return value.isEmpty() ? null : value;
  }
}

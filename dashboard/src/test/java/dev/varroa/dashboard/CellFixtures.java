package dev.varroa.dashboard;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CellPools and Teams as the tests put them in the API server, with the status the cell reconcilers would write (they
 * do not run in these tests: the tests write the status themselves).
 */
public final class CellFixtures {

  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private CellFixtures() {}

  /**
   * A pool of {@code hosted.size()} cells, each Connected and hosting its teams (a Team object per team, Placed on its
   * cell), every team with one pipeline.
   *
   * @param hosted cell ordinal to the teams it hosts, in ordinal order
   */
  public static CellPool pool(KubernetesClient client, String namespace, String name, int teamsPerCell,
      List<List<String>> hosted) {
    CellPool pool = client.resource(YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: CellPool\nmetadata: {name: "
        + name + ", namespace: " + namespace + "}\nspec: {replicas: " + hosted.size() + ", teamsPerCell: "
        + teamsPerCell + ", template: {spec: {}}}\n", CellPool.class)).create();
    CellPoolStatus status = new CellPoolStatus();
    status.replicas = hosted.size();
    status.readyReplicas = hosted.size();
    status.cells = new ArrayList<>();
    status.placedTeams = 0;
    Map<String, String> placements = new LinkedHashMap<>();
    for (int ordinal = 0; ordinal < hosted.size(); ordinal++) {
      CellPoolStatus.Cell cell = new CellPoolStatus.Cell();
      cell.name = name + "-" + ordinal;
      cell.phase = "Connected";
      cell.teams = hosted.get(ordinal).stream().sorted().toList();
      status.cells.add(cell);
      status.placedTeams += cell.teams.size();
      for (String team : cell.teams) {
        placements.put(team, cell.name);
      }
    }
    pool.setStatus(status);
    CellPool written = client.resource(pool).updateStatus();
    placements.forEach((team, cell) -> team(client, namespace, team, name, cell));
    return written;
  }

  /**
   * A Team of the pool with one pipeline, Placed on the cell; when cell is null, Pending and named in the pool's
   * status.unplacedTeams, as the pool reconciler writes it when every cell is full.
   */
  public static Team team(KubernetesClient client, String namespace, String name, String pool, String cell) {
    Team team = client.resource(YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: Team\nmetadata: {name: " + name
        + ", namespace: " + namespace + "}\nspec:\n  pool: " + pool + "\n  pipelines:\n    - {name: build, repository: "
        + "\"https://git.example/" + name + "/app.git\"}\n", Team.class)).create();
    TeamStatus status = new TeamStatus();
    status.phase = cell == null ? TeamStatus.Phase.Pending : TeamStatus.Phase.Placed;
    status.cell = cell;
    status.cellNamespace = cell == null ? null : namespace;
    status.placedSince = cell == null ? null : "2026-12-05T00:00:00Z";
    status.message = cell == null ? "every cell of pool " + pool + " is full; fix: scale the pool" : null;
    team.setStatus(status);
    Team written = client.resource(team).updateStatus();
    if (cell == null) {
      CellPool owner = client.resources(CellPool.class).inNamespace(namespace).withName(pool).get();
      List<String> unplaced = new ArrayList<>(owner.getStatus().unplacedTeams == null ? List.of()
          : owner.getStatus().unplacedTeams);
      unplaced.add(name);
      owner.getStatus().unplacedTeams = unplaced;
      client.resource(owner).updateStatus();
    }
    return written;
  }
}

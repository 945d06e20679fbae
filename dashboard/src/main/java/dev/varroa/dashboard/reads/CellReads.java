package dev.varroa.dashboard.reads;

import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.access.Target;
import dev.varroa.dashboard.clusters.ClusterLists;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellPoolRows;
import dev.varroa.protocol.bus.v1.CellPoolsRequest;
import dev.varroa.protocol.bus.v1.TeamRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * GET /cells and /teams: asked of every registered cluster's operator at once, filtered by the caller's
 * VarroaRoleBindings by namespace (a tenant's binding shows its namespace's pools and teams only), each naming a
 * cluster whose list did not arrive as GET /controllers does (seed 002). Nothing here changes anything.
 */
public final class CellReads {

  /** Why a cluster whose cell pool list cannot be read contributes no rows. */
  public static final String INVALID_CELL_POOL_ROW = "invalid cell pool row";

  private final DashboardReads reads;

  CellReads(DashboardReads reads) {
    this.reads = reads;
  }

  /** Every CellPool the caller may list, a block per pool per cluster, in cluster, namespace, name order. */
  public Map<String, Object> pools(Caller caller, Parameters query) throws ReadRefused {
    Permission list = Permission.of(Permission.LIST, Permission.CELL_POOLS);
    Listed listed = ask(caller, query, list, false);
    List<Map<String, Object>> pools = new ArrayList<>();
    for (ClusterLists.Reply<CellPoolRows> reply : listed.answers().replies()) {
      for (CellPoolRow row : reply.value().getPoolsList()) {
        if (listed.shows(reply.cluster(), row.getNamespace())) {
          pools.add(CellViews.pool(reply.cluster(), row));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("pools", pools);
    out.put("clusters", DashboardReads.answers(listed.answers().clusters(), listed.grants(), list, listed.cluster()));
    return out;
  }

  /** Every Team the caller may list, with its pool, cell and phase; {@code pool} narrows to one pool's teams. */
  public Map<String, Object> teams(Caller caller, Parameters query) throws ReadRefused {
    Optional<String> pool = query.pool("pool");
    Permission list = Permission.of(Permission.LIST, Permission.TEAMS);
    Listed listed = ask(caller, query, list, false);
    List<Map<String, Object>> teams = new ArrayList<>();
    for (ClusterLists.Reply<CellPoolRows> reply : listed.answers().replies()) {
      for (TeamRow row : reply.value().getTeamsList()) {
        if (pool.isPresent() && !pool.get().equals(row.getPool())) {
          continue;
        }
        if (listed.shows(reply.cluster(), row.getNamespace())) {
          teams.add(CellViews.team(reply.cluster(), row));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("teams", teams);
    out.put("clusters", DashboardReads.answers(listed.answers().clusters(), listed.grants(), list, listed.cluster()));
    return out;
  }

  /** The answers of the clusters asked, and who may see which row of them. */
  record Listed(ClusterLists.Answers<CellPoolRows> answers, Grants grants, Permission list,
      Optional<String> cluster, Optional<String> namespace) {
    boolean shows(String rowCluster, String rowNamespace) {
      return (namespace.isEmpty() || namespace.get().equals(rowNamespace))
          && grants.allows(list, Target.namespaced(rowCluster, rowNamespace));
    }
  }

  /** @param pipelines whether each Team's pipeline rows are wanted (GET /pipelines) */
  Listed ask(Caller caller, Parameters query, Permission list, boolean pipelines) throws ReadRefused {
    Optional<String> cluster = query.cluster("cluster");
    Optional<String> namespace = query.namespace("namespace");
    Grants grants = reads.grants(caller);
    DashboardReads.require(grants, list);
    var registered = reads.presences();
    if (cluster.isPresent() && registered.stream().noneMatch(p -> p.getName().equals(cluster.get()))) {
      throw ReadRefused.notFound("cluster " + cluster.get() + " is not registered; `varroactl get clusters` lists "
          + "the registered ones");
    }
    byte[] request = CellPoolsRequest.newBuilder().setNamespace(namespace.orElse("")).setPipelines(pipelines)
        .build().toByteArray();
    ClusterLists.Asked<CellPoolRows> asked = ClusterLists.ask(reads.bus().get(),
        registered.stream().filter(p -> cluster.isEmpty() || cluster.get().equals(p.getName())).toList(),
        BusNames::clusterCellPools, request, CellPoolRows::parseFrom, INVALID_CELL_POOL_ROW,
        DashboardReads.CLUSTER_ANSWER_WAIT);
    try {
      return new Listed(asked.collect(), grants, list, cluster, namespace);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }
}

package dev.varroa.dashboard.reads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.dashboard.access.Forbidden;
import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.access.Target;
import dev.varroa.dashboard.clusters.ClusterLists;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.BroodOperationRow;
import dev.varroa.protocol.bus.v1.BroodOperationRows;
import dev.varroa.protocol.bus.v1.BroodOperationsRequest;
import dev.varroa.protocol.bus.v1.BroodScheduleRow;
import dev.varroa.protocol.bus.v1.BroodScheduleRows;
import dev.varroa.protocol.bus.v1.BroodSchedulesRequest;
import io.nats.client.Message;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * GET /broodoperations, /broodoperations/{cluster}/{namespace}/{name} and /broodschedules: asked of every registered
 * cluster's operator at once, filtered by the caller's VarroaRoleBindings, each naming a cluster whose list did not
 * arrive as GET /controllers does (seed 002). Nothing here changes anything.
 */
public final class BroodReads {

  /** Why a cluster whose brood list cannot be read contributes no rows. */
  public static final String INVALID_OPERATION_ROW = "invalid brood operation row";
  public static final String INVALID_SCHEDULE_ROW = "invalid brood schedule row";

  private final DashboardReads reads;
  private final RecordReads records;

  BroodReads(DashboardReads reads, RecordReads records) {
    this.reads = reads;
    this.records = records;
  }

  /** Every BroodOperation the caller may list, in cluster, namespace, name order, and how each cluster answered. */
  public Map<String, Object> operations(Caller caller, Parameters query) throws ReadRefused {
    Optional<String> cluster = query.cluster("cluster");
    Optional<String> namespace = query.namespace("namespace");
    Grants grants = reads.grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.BROOD_OPERATIONS);
    DashboardReads.require(grants, list);
    var registered = reads.presences();
    if (cluster.isPresent() && registered.stream().noneMatch(p -> p.getName().equals(cluster.get()))) {
      throw ReadRefused.notFound("cluster " + cluster.get() + " is not registered; `varroactl get clusters` lists "
          + "the registered ones");
    }
    ClusterLists.Answers<BroodOperationRows> answers = collect(ClusterLists.ask(reads.bus().get(),
        registered.stream().filter(p -> cluster.isEmpty() || cluster.get().equals(p.getName())).toList(),
        BusNames::clusterBroodOperations, BroodOperationsRequest.getDefaultInstance().toByteArray(),
        BroodOperationRows::parseFrom, INVALID_OPERATION_ROW, DashboardReads.CLUSTER_ANSWER_WAIT));
    List<Map<String, Object>> operations = new ArrayList<>();
    for (ClusterLists.Reply<BroodOperationRows> reply : answers.replies()) {
      for (BroodOperationRow row : reply.value().getRowsList()) {
        if (namespace.isPresent() && !namespace.get().equals(row.getNamespace())) {
          continue;
        }
        if (grants.allows(list, Target.namespaced(reply.cluster(), row.getNamespace()))) {
          operations.add(BroodViews.operation(reply.cluster(), row));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("operations", operations);
    out.put("clusters", DashboardReads.answers(answers.clusters(), grants, list, cluster));
    return out;
  }

  /** One BroodOperation in full: {cluster, operation: the object as JSON (metadata, spec, status)}. */
  public Map<String, Object> operation(Caller caller, String cluster, String namespace, String name)
      throws ReadRefused {
    Parameters path = new Parameters(Map.of("cluster", cluster, "namespace", namespace, "name", name));
    path.cluster("cluster");
    path.namespace("namespace");
    path.controller("name");
    Grants grants = reads.grants(caller);
    Permission get = Permission.of(Permission.GET, Permission.BROOD_OPERATIONS);
    DashboardReads.require(grants, get);
    try {
      grants.require(get, Target.namespaced(cluster, namespace));
    } catch (Forbidden denied) {
      throw ReadRefused.forbidden(denied);
    }
    if (reads.presences().stream().noneMatch(p -> p.getName().equals(cluster))) {
      throw ReadRefused.notFound("cluster " + cluster + " is not registered; `varroactl get clusters` lists the "
          + "registered ones");
    }
    BroodOperationRows rows = one(cluster, BroodOperationsRequest.newBuilder().setNamespace(namespace).setName(name)
        .build());
    BroodOperationRow row = rows.getRowsList().stream()
        .filter(r -> namespace.equals(r.getNamespace()) && name.equals(r.getName())).findFirst()
        .orElseThrow(() -> ReadRefused.notFound("BroodOperation " + namespace + "/" + name + " does not exist in"
            + " cluster " + cluster + "; `varroactl broodop list` lists the operations"));
    JsonNode object = DashboardReads.parse(row.getObjectJson());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("cluster", cluster);
    out.put("operation", object);
    return out;
  }

  /**
   * Every BroodSchedule the caller may list, and the job schedules the plugin reports of every Controller the caller
   * may list (from the record store's job_schedules; empty without the store), with how each cluster answered.
   */
  public Map<String, Object> schedules(Caller caller, Parameters query) throws ReadRefused {
    Optional<String> cluster = query.cluster("cluster");
    Grants grants = reads.grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.BROOD_SCHEDULES);
    DashboardReads.require(grants, list);
    var registered = reads.presences();
    if (cluster.isPresent() && registered.stream().noneMatch(p -> p.getName().equals(cluster.get()))) {
      throw ReadRefused.notFound("cluster " + cluster.get() + " is not registered; `varroactl get clusters` lists "
          + "the registered ones");
    }
    ClusterLists.Asked<BroodScheduleRows> asked = ClusterLists.ask(reads.bus().get(),
        registered.stream().filter(p -> cluster.isEmpty() || cluster.get().equals(p.getName())).toList(),
        BusNames::clusterBroodSchedules, BroodSchedulesRequest.getDefaultInstance().toByteArray(),
        BroodScheduleRows::parseFrom, INVALID_SCHEDULE_ROW, DashboardReads.CLUSTER_ANSWER_WAIT);
    // job schedules are decided on their Controller, labels included, as runs are; asked while the clusters answer
    Permission controllers = Permission.of(Permission.LIST, Permission.CONTROLLERS);
    List<Map<String, Object>> jobSchedules = records.enabled() && grants.anywhere(controllers)
        ? records.jobSchedules(DashboardReads.allowed(grants, controllers, reads.labels(reads.controllerList())))
        : List.of();
    ClusterLists.Answers<BroodScheduleRows> answers = collect(asked);
    List<Map<String, Object>> schedules = new ArrayList<>();
    for (ClusterLists.Reply<BroodScheduleRows> reply : answers.replies()) {
      for (BroodScheduleRow row : reply.value().getRowsList()) {
        if (grants.allows(list, Target.namespaced(reply.cluster(), row.getNamespace()))) {
          schedules.add(BroodViews.schedule(reply.cluster(), row));
        }
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("schedules", schedules);
    out.put("jobSchedules", cluster.isEmpty() ? jobSchedules
        : jobSchedules.stream().filter(j -> cluster.get().equals(j.get("cluster"))).toList());
    out.put("recordStore", records.enabled());
    out.put("clusters", DashboardReads.answers(answers.clusters(), grants, list, cluster));
    return out;
  }

  private BroodOperationRows one(String cluster, BroodOperationsRequest request) throws ReadRefused {
    CompletableFuture<Message> reply = reads.bus().get().requestWithTimeout(BusNames.clusterBroodOperations(cluster),
        request.toByteArray(), DashboardReads.CLUSTER_ANSWER_WAIT);
    try {
      return BroodOperationRows.parseFrom(reply.get(DashboardReads.CLUSTER_ANSWER_WAIT.toMillis() + 100,
          TimeUnit.MILLISECONDS).getData());
    } catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException e) {
      throw ReadRefused.unavailable("cluster " + cluster + " did not answer within "
          + DashboardReads.CLUSTER_ANSWER_WAIT.toMillis() + " ms; check its operator's pods and NATS connection");
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw ReadRefused.unavailable("cluster " + cluster + " sent an answer the BFF cannot read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }

  private static <T> ClusterLists.Answers<T> collect(ClusterLists.Asked<T> asked) throws ReadRefused {
    try {
      return asked.collect();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }
}

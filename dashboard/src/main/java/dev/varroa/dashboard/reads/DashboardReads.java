package dev.varroa.dashboard.reads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.access.AccessPolicyView;
import dev.varroa.dashboard.access.Forbidden;
import dev.varroa.dashboard.access.Grants;
import dev.varroa.dashboard.access.Permission;
import dev.varroa.dashboard.access.Target;
import dev.varroa.dashboard.clusters.ClusterRoster;
import dev.varroa.dashboard.identity.Caller;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.CellFolders;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.protocol.bus.v1.ControllerDetailRequest;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Every read the BFF serves, decided and filtered by the caller's VarroaRoleBindings: the HTTP routes and the MCP
 * tools are two ways into these methods and give the same answers. Nothing here changes anything.
 */
public final class DashboardReads {

  /** How long a cluster's operator has to answer a list or a detail. */
  public static final Duration CLUSTER_ANSWER_WAIT = Duration.ofSeconds(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<Connection> nats;
  private final ClusterRoster roster;
  private final AccessPolicyView policy;
  private final String coreCluster;
  private final Clock clock;
  private final RecordReads records;

  public DashboardReads(Supplier<Connection> nats, AccessPolicyView policy, String coreCluster, RecordReads records,
      Clock clock) {
    this.nats = nats;
    this.roster = new ClusterRoster(nats);
    this.policy = policy;
    this.coreCluster = coreCluster;
    this.records = records;
    this.clock = clock;
  }

  /** The access policy in force now. */
  public dev.varroa.protocol.bus.v1.AccessPolicy policy() {
    return policy.policy();
  }

  /** Refuses a caller whose bindings grant the permission nowhere. */
  public void requireAnywhere(Caller caller, Permission permission) throws ReadRefused {
    require(grants(caller), permission);
  }

  public Grants grants(Caller caller) {
    return Grants.of(caller, policy.policy());
  }

  public String coreCluster() {
    return coreCluster;
  }

  /** The brood operation and schedule reads (docs/dashboard-api.md). */
  public BroodReads brood() {
    return new BroodReads(this, records);
  }

  /** The cell pool and team reads (docs/dashboard-api.md). */
  public CellReads cells() {
    return new CellReads(this);
  }

  /** Where requested pipeline runs are, from the recorder (docs/pipelines.md). */
  public PipelineRunReads pipelineRuns() {
    return new PipelineRunReads(nats, this::grants);
  }

  /** GET /pipelines: the Teams' pipelines across clusters, with their last recorded run. */
  public PipelineReads pipelines() {
    return new PipelineReads(this, records);
  }

  /** The NATS connection the reads use, for the actions sent beside them (docs/actions.md). */
  public Supplier<Connection> bus() {
    return nats;
  }

  public Clock clock() {
    return clock;
  }

  /** Who the caller is and which bindings name them; needs no permission. */
  public Map<String, Object> me(Caller caller) {
    Grants grants = grants(caller);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("user", caller.user());
    out.put("groups", caller.groups());
    out.put("bindings", grants.bindings());
    return out;
  }

  public Map<String, Object> clusters(Caller caller) throws ReadRefused {
    Grants grants = grants(caller);
    require(grants, Permission.of(Permission.LIST, Permission.CLUSTERS));
    List<Map<String, Object>> items = new ArrayList<>();
    for (ClusterPresence presence : presences()) {
      if (grants.allows(Permission.of(Permission.LIST, Permission.CLUSTERS), Target.cluster(presence.getName()))) {
        items.add(ControllerViews.cluster(presence, clock.instant()));
      }
    }
    items.sort(Comparator.comparing((Map<String, Object> c) -> !(Boolean) c.get("core"))
        .thenComparing(c -> (String) c.get("name")));
    return Map.of("items", items);
  }

  /** The controller rows the caller may list, with how every cluster they may list in answered. */
  public Map<String, Object> controllers(Caller caller, Parameters query) throws ReadRefused {
    Optional<String> cluster = query.cluster("cluster");
    Optional<String> namespace = query.namespace("namespace");
    Optional<Boolean> attention = query.bool("attention");
    Grants grants = grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.CONTROLLERS);
    require(grants, list);
    ClusterRoster.ControllerList all = controllerList();
    if (cluster.isPresent() && all.clusters().stream().noneMatch(c -> c.name().equals(cluster.get()))) {
      throw ReadRefused.notFound("cluster " + cluster.get() + " is not registered; `varroactl get clusters` lists "
          + "the registered ones");
    }
    List<Map<String, Object>> items = new ArrayList<>();
    for (ClusterRoster.ClusterRow row : all.rows()) {
      if (cluster.isPresent() && !cluster.get().equals(row.cluster())
          || namespace.isPresent() && !namespace.get().equals(row.row().getNamespace())
          || attention.isPresent() && attention.get() == row.row().getAttention().isEmpty()) {
        continue;
      }
      if (grants.allows(list, targetOf(row))) {
        items.add(ControllerViews.row(row.cluster(), row.row()));
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", items);
    out.put("clusters", answers(all, grants, list, cluster));
    return out;
  }

  /** One Controller in full: its row, status with conditions, resolved settings and the plugin lock. */
  public Map<String, Object> controller(Caller caller, String namespace, String name, Parameters query)
      throws ReadRefused {
    Parameters path = new Parameters(Map.of("namespace", namespace, "name", name));
    path.namespace("namespace");
    path.controller("name");
    String cluster = query.cluster("cluster").orElse(coreCluster);
    Grants grants = grants(caller);
    Permission get = Permission.of(Permission.GET, Permission.CONTROLLERS);
    require(grants, get);
    ControllerDetail detail = detail(cluster, namespace, name);
    if (!detail.getFound()) {
      throw ReadRefused.notFound("Controller " + namespace + "/" + name + " does not exist in cluster " + cluster);
    }
    try {
      grants.require(get, Target.controller(cluster, namespace, name, detail.getRow().getLabelsMap()));
    } catch (Forbidden denied) {
      throw ReadRefused.forbidden(denied);
    }
    Map<String, Object> out = new LinkedHashMap<>(ControllerViews.row(cluster, detail.getRow()));
    JsonNode object = parse(detail.getControllerJson());
    JsonNode status = object.path("status");
    out.put("spec", object.path("spec"));
    out.put("status", status);
    out.put("conditions", status.path("conditions").isArray() ? status.path("conditions") : JSON.createArrayNode());
    out.put("generation", object.path("metadata").path("generation"));
    out.put("settings", detail.getSettingsJson().isEmpty() ? null : parse(detail.getSettingsJson()));
    out.put("versionProfile", detail.getVersionProfile());
    out.put("lock", new TreeMap<>(detail.getLockMap()));
    out.put("resolutionProblem", detail.getResolutionProblem());
    out.put("desiredBundleDigest", detail.getDesiredBundleDigest());
    out.put("pendingBundleDigest", ControllerViews.pendingDigest(detail));
    out.put("bundlePlugins", new TreeMap<>(detail.getBundlePluginsMap()));
    out.put("profileJenkinsVersion", detail.getProfileJenkinsVersion());
    return out;
  }

  /** Controllers (name, namespace, label values, bundle) and runs (job names) that contain the text. */
  public Map<String, Object> search(Caller caller, Parameters query) throws ReadRefused {
    String text = query.text("q").map(String::trim).filter(t -> !t.isEmpty())
        .orElseThrow(() -> ReadRefused.badParameter("q", "q must be the text to search for"));
    if (text.length() > 200) {
      throw ReadRefused.badParameter("q", "q must be at most 200 characters");
    }
    String needle = text.toLowerCase(Locale.ROOT);
    Grants grants = grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.CONTROLLERS);
    boolean mayListControllers = grants.anywhere(list);
    boolean mayListRuns = grants.anywhere(Permission.of(Permission.LIST, Permission.RUNS));
    if (!mayListControllers && !mayListRuns) {
      require(grants, list);
    }
    ClusterRoster.ControllerList all = controllerList();
    List<Map<String, Object>> controllers = new ArrayList<>();
    if (mayListControllers) {
      for (ClusterRoster.ClusterRow row : all.rows()) {
        var r = row.row();
        boolean hit = r.getName().toLowerCase(Locale.ROOT).contains(needle)
            || r.getNamespace().toLowerCase(Locale.ROOT).contains(needle)
            || r.getBundle().toLowerCase(Locale.ROOT).contains(needle)
            || r.getLabelsMap().values().stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains(needle));
        if (hit && grants.allows(list, targetOf(row))) {
          controllers.add(ControllerViews.row(row.cluster(), r));
        }
      }
    }
    List<Map<String, Object>> runs = mayListRuns
        ? records.searchRuns(needle, allowedRuns(grants, Permission.of(Permission.LIST, Permission.RUNS), labels(all)))
        : List.of();
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("controllers", controllers);
    out.put("runs", runs);
    out.put("clusters", answers(all, grants, list, Optional.empty()));
    return out;
  }

  /** Activity history, newest first; empty (recordStore: false) without the build record store. */
  public Map<String, Object> activity(Caller caller, Parameters query) throws ReadRefused {
    RecordReads.ActivityQuery filters = new RecordReads.ActivityQuery(query.cluster("cluster"),
        query.namespace("namespace"), query.controller("controller"), query.time("since"),
        query.integer("limit", 100, 1, 1000));
    Grants grants = grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.ACTIVITY);
    require(grants, list);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", records.enabled() ? records.activity(filters, allowed(grants, list, labels(controllerList())))
        : List.of());
    out.put("recordStore", records.enabled());
    return out;
  }

  /** Runs, newest first; empty (recordStore: false) without the build record store. */
  public Map<String, Object> runs(Caller caller, Parameters query) throws ReadRefused {
    RecordReads.RunQuery filters = new RecordReads.RunQuery(query.cluster("cluster"), query.namespace("namespace"),
        query.controller("controller"), query.text("job"), query.positive("build"), query.time("before"),
        query.integer("limit", 50, 1, 500));
    Grants grants = grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.RUNS);
    require(grants, list);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("items", records.enabled() ? records.runs(filters, allowedRuns(grants, list, labels(controllerList())))
        : List.of());
    out.put("recordStore", records.enabled());
    return out;
  }

  /**
   * Builds per hour by result and queue-to-start p50/p95 over the last {@code hours} (default 24), counting only the
   * runs of Controllers the caller may list runs of; recordStore: false (no hours) without the build record store.
   */
  public Map<String, Object> runStatistics(Caller caller, Parameters query) throws ReadRefused {
    int hours = query.integer("hours", dev.varroa.dashboard.records.BuildStatistics.DEFAULT_HOURS, 1,
        dev.varroa.dashboard.records.BuildStatistics.MAX_HOURS);
    Grants grants = grants(caller);
    Permission list = Permission.of(Permission.LIST, Permission.RUNS);
    require(grants, list);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("recordStore", records.enabled());
    if (records.enabled()) {
      out.putAll(records.buildStatistics(clock.instant(), hours, allowed(grants, list, labels(controllerList()))));
    }
    return out;
  }

  /** One run with its stages and tests. */
  public Map<String, Object> run(Caller caller, String runId) throws ReadRefused {
    return authorizedRun(caller, runId, Permission.of(Permission.GET, Permission.RUNS)).body();
  }

  /** The run, once the caller may use the permission on its Controller (get runs, get logs, watch logs). */
  public RecordReads.RunView authorizedRun(Caller caller, String runId, Permission permission) throws ReadRefused {
    if (runId.length() > 64 || !runId.matches("[A-Za-z0-9._-]+")) {
      throw ReadRefused.badParameter("runId", "runId must be a run id as the run list gives it (a UUID), not '"
          + runId + "'");
    }
    Grants grants = grants(caller);
    require(grants, permission);
    RecordReads.RunView run = records.run(runId).orElseThrow(() -> ReadRefused.notFound("run " + runId
        + (records.enabled() ? " is not recorded" : " is not recorded: the build record store is not enabled")));
    ControllerKey key = run.controller();
    Map<ControllerKey, Map<String, String>> labels = labels(controllerList());
    try {
      grants.require(permission, Target.controller(key.cluster(), key.namespace(), key.name(),
          labels.getOrDefault(key, Map.of())));
    } catch (Forbidden denied) {
      Object job = run.body().get("job");
      if (!teamRun(grants, permission, labels, new RunKey(key, job == null ? "" : job.toString()))) {
        throw ReadRefused.forbidden(denied);
      }
    }
    return run;
  }

  /**
   * Which runs a list may show: those of Controllers the caller holds the permission over, and on a cell those in the
   * folder of a Team of a namespace the caller holds it in (a tenant sees its own Teams' runs, not the cell's others).
   */
  public static Predicate<RunKey> allowedRuns(Grants grants, Permission permission,
      Map<ControllerKey, Map<String, String>> labels) {
    Predicate<ControllerKey> controllers = allowed(grants, permission, labels);
    return run -> controllers.test(run.controller()) || teamRun(grants, permission, labels, run);
  }

  // A Team of the cell's own namespace is covered by the cell's namespace already; this opens a tenant's own folder.
  private static boolean teamRun(Grants grants, Permission permission, Map<ControllerKey, Map<String, String>> labels,
      RunKey run) {
    ControllerKey cell = run.controller();
    if (!labels.getOrDefault(cell, Map.of()).containsKey(CellFolders.POOL_LABEL)) {
      return false;
    }
    return CellFolders.teamNamespace(run.job(), cell.namespace())
        .filter(namespace -> !namespace.equals(cell.namespace()))
        .map(namespace -> grants.allows(permission, Target.namespaced(cell.cluster(), namespace)))
        .orElse(false);
  }

  /** Which Controllers a list may show: the permission over each, with the labels the clusters listed. */
  public static Predicate<ControllerKey> allowed(Grants grants, Permission permission,
      Map<ControllerKey, Map<String, String>> labels) {
    return key -> grants.allows(permission, key.namespace().isEmpty() && key.name().isEmpty()
        ? Target.cluster(key.cluster())
        : Target.controller(key.cluster(), key.namespace(), key.name(), labels.getOrDefault(key, Map.of())));
  }

  /** The labels of every listed Controller, so rules by label can decide over runs, logs and activity. */
  public Map<ControllerKey, Map<String, String>> labels(ClusterRoster.ControllerList all) {
    Map<ControllerKey, Map<String, String>> labels = new java.util.HashMap<>();
    for (ClusterRoster.ClusterRow row : all.rows()) {
      labels.put(new ControllerKey(row.cluster(), row.row().getNamespace(), row.row().getName()),
          row.row().getLabelsMap());
    }
    return labels;
  }

  /** A Controller by cluster, namespace and name. */
  public record ControllerKey(String cluster, String namespace, String name) {}

  /** A run by its Controller and its job's full name. */
  public record RunKey(ControllerKey controller, String job) {}

  public ClusterRoster.ControllerList controllerList() throws ReadRefused {
    try {
      return roster.controllers(CLUSTER_ANSWER_WAIT);
    } catch (IOException | io.nats.client.JetStreamApiException e) {
      throw ReadRefused.unavailable("the cluster registry could not be read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }

  List<ClusterPresence> presences() throws ReadRefused {
    try {
      return roster.clusters();
    } catch (IOException | io.nats.client.JetStreamApiException e) {
      throw ReadRefused.unavailable("the cluster registry could not be read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }

  private ControllerDetail detail(String cluster, String namespace, String name) throws ReadRefused {
    if (presences().stream().noneMatch(p -> p.getName().equals(cluster))) {
      throw ReadRefused.notFound("cluster " + cluster + " is not registered; `varroactl get clusters` lists the "
          + "registered ones");
    }
    byte[] request = ControllerDetailRequest.newBuilder().setNamespace(namespace).setName(name).build().toByteArray();
    CompletableFuture<Message> reply = nats.get().requestWithTimeout(BusNames.clusterController(cluster), request,
        CLUSTER_ANSWER_WAIT);
    try {
      return ControllerDetail.parseFrom(reply.get(CLUSTER_ANSWER_WAIT.toMillis() + 100, TimeUnit.MILLISECONDS)
          .getData());
    } catch (TimeoutException | ExecutionException | java.util.concurrent.CancellationException e) {
      throw ReadRefused.unavailable("cluster " + cluster + " did not answer within " + CLUSTER_ANSWER_WAIT.toMillis()
          + " ms; check its operator's pods and NATS connection");
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw ReadRefused.unavailable("cluster " + cluster + " sent a detail the BFF cannot read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw ReadRefused.unavailable("interrupted");
    }
  }

  /** How each cluster the caller may list in answered: {name, ok, reason}. */
  private static List<Map<String, Object>> answers(ClusterRoster.ControllerList all, Grants grants,
      Permission permission, Optional<String> cluster) {
    return answers(all.clusters(), grants, permission, cluster);
  }

  /** How each cluster the caller may list in answered, as every list across clusters shows it: {name, ok, reason}. */
  static List<Map<String, Object>> answers(List<ClusterRoster.ClusterAnswer> clusters, Grants grants,
      Permission permission, Optional<String> cluster) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (ClusterRoster.ClusterAnswer answer : clusters) {
      if (cluster.isPresent() && !cluster.get().equals(answer.name())
          || !grants.anywhereIn(permission, answer.name())) {
        continue;
      }
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("name", answer.name());
      one.put("ok", answer.ok());
      one.put("reason", answer.reason());
      out.add(one);
    }
    return out;
  }

  private static Target targetOf(ClusterRoster.ClusterRow row) {
    return Target.controller(row.cluster(), row.row().getNamespace(), row.row().getName(), row.row().getLabelsMap());
  }

  static void require(Grants grants, Permission permission) throws ReadRefused {
    try {
      grants.requireAnywhere(permission);
    } catch (Forbidden denied) {
      throw ReadRefused.forbidden(denied);
    }
  }

  static JsonNode parse(String json) throws ReadRefused {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw ReadRefused.unavailable("the operator sent JSON the BFF cannot read: " + e.getMessage());
    }
  }
}

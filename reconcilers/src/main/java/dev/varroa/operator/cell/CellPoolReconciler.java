package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolSpec;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.operator.render.JenkinsContainer;
import dev.varroa.operator.render.resolve.CellArtifactSettings;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.ObservedState;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.EventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import io.javaoperatorsdk.operator.processing.event.source.informer.Mappers;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles each CellPool (docs/cells.md): keeps spec.replicas cell Controllers made from the template, places the
 * pool's Teams on them ({@link TeamPlacement}) and writes each cell's spec.cell, moves the teams of cells scaled away
 * before deleting such a cell once no build is queued or running on it, rolls a cell that stays unready past the
 * grace period, and records every placement in the core record store.
 */
@ControllerConfiguration(name = "cellpool")
public final class CellPoolReconciler implements Reconciler<CellPool> {
  /** Activity kind of a cell rolled after its unready grace period. */
  public static final String CELL_ROLLED = "cell.rolled";
  /** Activity kind of a cell deleted after a scale-down drained it. */
  public static final String CELL_REMOVED = "cell.removed";
  /** On a pool's artifact Secret in the release namespace: the namespace of the one pool it is for. */
  public static final String POOL_NAMESPACE_ANNOTATION = "varroa.dev/cell-pool-namespace";
  /** How soon a pool looks again while a cell drains or a placement is not yet recorded. */
  static final Duration DRAIN_PASS = Duration.ofSeconds(5);
  private static final Set<ControllerStatus.Phase> NOT_UNREADY = Set.of(ControllerStatus.Phase.Connected,
      ControllerStatus.Phase.Hibernated, ControllerStatus.Phase.Stopped);
  /** Phases in which no Jenkins runs, so nothing can be queued or running. */
  private static final Set<ControllerStatus.Phase> NO_JENKINS = Set.of(ControllerStatus.Phase.Hibernated,
      ControllerStatus.Phase.Stopped, ControllerStatus.Phase.Pending);
  private static final Logger LOG = LoggerFactory.getLogger(CellPoolReconciler.class);
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Clock clock;
  private final JenkinsOfController jenkins;
  private final ActivityPublisher activity;
  private final PlacementRecord record;
  private final Optional<CellIsolation> isolation;
  private Optional<CellArtifactSettings> artifacts = Optional.empty();
  /** Why this installation hosts no cell at all (postgres blob mode); empty: it hosts them. */
  private Optional<String> cellsRefused = Optional.empty();
  private String releaseNamespace = "default";
  /** The artifact credential last copied per pool (namespace/name): an unchanged one is not written again. */
  private final Map<String, String> credentials = new java.util.concurrent.ConcurrentHashMap<>();
  /** The egress policy last written per pool (namespace/name), so an unchanged one is not written again. */
  private final Map<String, String> policies = new java.util.concurrent.ConcurrentHashMap<>();
  private InformerEventSource<Controller, CellPool> cells;
  private InformerEventSource<Team, CellPool> teams;
  /** The last placement recorded per pool (namespace/name): an unchanged placement is not sent again. */
  private volatile Instant lastPassAt;
  private final Map<String, List<PlacementRecord.Entry>> recorded = new java.util.concurrent.ConcurrentHashMap<>();

  public CellPoolReconciler(Clock clock, JenkinsOfController jenkins, ActivityPublisher activity,
      PlacementRecord record, Optional<CellIsolation> isolation) {
    this.clock = clock;
    this.jenkins = jenkins;
    this.activity = activity;
    this.record = record;
    this.isolation = isolation;
  }

  /**
   * Cells write archived artifacts as {@code settings} says; each pool's credential is copied from the Secret
   * {@code <artifactSecret>-<pool>} in {@code releaseNamespace}. Call before the reconciler is registered.
   */
  public CellPoolReconciler withArtifacts(Optional<CellArtifactSettings> settings, String releaseNamespace) {
    this.artifacts = settings;
    this.releaseNamespace = releaseNamespace;
    return this;
  }

  /** An installation that cannot host cells: every pool says why and makes none. */
  public CellPoolReconciler refusingCells(Optional<String> why) {
    this.cellsRefused = why;
    return this;
  }

  @Override
  public List<EventSource<?, CellPool>> prepareEventSources(EventSourceContext<CellPool> context) {
    cells = new InformerEventSource<>(InformerEventSourceConfiguration.from(Controller.class, CellPool.class)
        .withName("cellpool-cells").withLabelSelector(CellRenderer.POOL_LABEL)
        .withSecondaryToPrimaryMapper(Mappers.fromOwnerReferences(CellPool.class)).build(), context);
    teams = new InformerEventSource<>(InformerEventSourceConfiguration.from(Team.class, CellPool.class)
        .withName("cellpool-teams")
        .withSecondaryToPrimaryMapper(CellPoolReconciler::poolsOf).build(), context);
    return List.of(cells, teams);
  }

  @Override
  public UpdateControl<CellPool> reconcile(CellPool pool, Context<CellPool> context) {
    Instant now = clock.instant();
    UpdateControl<CellPool> control = new Pass(pool, context.getClient(), now).run();
    lastPassAt = now;
    return control;
  }

  /** The clock's instant the last completed pass read: tests that move the clock wait for a pass that saw it. */
  public Instant lastPassAt() {
    return lastPassAt;
  }

  /** One look at one pool. */
  private final class Pass {
    private final CellPool pool;
    private final KubernetesClient client;
    private final Instant now;
    private final String namespace;
    private final String name;
    private final CellPoolStatus previous;
    private Duration requeue;

    Pass(CellPool pool, KubernetesClient client, Instant now) {
      this.pool = pool;
      this.client = client;
      this.now = now;
      this.namespace = pool.getMetadata().getNamespace();
      this.name = pool.getMetadata().getName();
      this.previous = pool.getStatus() == null ? new CellPoolStatus() : pool.getStatus();
    }

    UpdateControl<CellPool> run() {
      if (cellsRefused.isPresent()) {
        return refused(cellsRefused.get());
      }
      CellPoolSpec spec = pool.getSpec();
      int replicas = spec.replicas == null ? 1 : spec.replicas;
      int capacity = spec.teamsPerCell == null ? CellPoolSpec.DEFAULT_TEAMS_PER_CELL : spec.teamsPerCell;
      TreeMap<Integer, Controller> existing = new TreeMap<>();
      cells.list(namespace, c -> ownedByPool(c)).forEach(c ->
          CellRenderer.ordinal(name, c.getMetadata().getName()).ifPresent(o -> existing.put(o, c)));
      List<Team> wanting = teams.list(t -> wants(t) && allowed(t.getMetadata().getNamespace())).toList();

      List<String> staying = new ArrayList<>();
      for (int ordinal = 0; ordinal < replicas; ordinal++) {
        staying.add(CellRenderer.name(name, ordinal));
      }
      TeamPlacement.Result placement = TeamPlacement.place(staying, currentPlacement(existing, replicas),
          wanting.stream().map(t -> new TeamPlacement.Wanting(TeamRef.key(t), created(t))).toList(), capacity);

      CellPoolStatus status = new CellPoolStatus();
      status.cells = new ArrayList<>();
      for (int ordinal = 0; ordinal < replicas; ordinal++) {
        String cell = CellRenderer.name(name, ordinal);
        Controller current = existing.get(ordinal);
        apply(current, CellRenderer.render(pool, ordinal, placement.teamsOfCell().get(cell), false));
        status.cells.add(watchReadiness(cell, current, placement.teamsOfCell().get(cell), spec));
      }
      for (Map.Entry<Integer, Controller> going : existing.tailMap(replicas).entrySet()) {
        drain(going.getKey(), going.getValue()).ifPresent(status.cells::add);
      }
      status.replicas = status.cells.size();
      status.readyReplicas = (int) status.cells.stream()
          .filter(c -> ControllerStatus.Phase.Connected.name().equals(c.phase)).count();
      status.selector = CellRenderer.selector(name);
      status.placedTeams = wanting.size() - placement.unplaced().size();
      status.unplacedTeams = placement.unplaced().isEmpty() ? null : placement.unplaced();
      recordPlacement(placement, wanting);
      isolate(status.cells.stream().map(c -> c.name).toList());
      Optional<String> credential = copyArtifactCredential();
      return finish(status, placement, credential);
    }

    /** networkPolicy.cellIsolation: the pool's egress policy names every cell; off, the policy is removed once. */
    private void isolate(List<String> cellNames) {
      String key = namespace + "/" + name;
      if (isolation.isEmpty() || cellNames.isEmpty()) {
        if (!"".equals(policies.put(key, ""))) {
          client.network().v1().networkPolicies().inNamespace(namespace)
              .withName(CellNetworkPolicyRenderer.name(name)).delete();
        }
        return;
      }
      var policy = CellNetworkPolicyRenderer.render(pool, cellNames, isolation.get());
      String json = JSON.asJson(policy);
      if (!json.equals(policies.get(key))) {
        client.resource(policy).fieldManager(OwnedObjectApplier.FIELD_MANAGER).forceConflicts().serverSideApply();
        policies.put(key, json);
      }
    }

    /**
     * Copies the pool's artifact credential beside its cells (pods read Secrets of their own namespace only); empty,
     * or what is wrong with it, naming the Secret and the fix.
     */
    private Optional<String> copyArtifactCredential() {
      if (artifacts.isEmpty()) {
        return Optional.empty();
      }
      String wanted = pool.getSpec().artifacts == null || pool.getSpec().artifacts.mode == null ? null
          : pool.getSpec().artifacts.mode;
      String installed = artifacts.get().artifactSecret().isPresent() ? "Secret" : "STS";
      if (wanted != null && !wanted.equals(installed)) {
        return Optional.of("CellPool " + namespace + "/" + name + ": spec.artifacts.mode is " + wanted + " but the"
            + " installation gives pools their credentials by " + installed + " (recordStore.blobs.s3." + ("Secret"
            .equals(installed) ? "artifactSecret" : "artifactSTS") + "); fix: set spec.artifacts.mode to " + installed
            + " or omit it");
      }
      Optional<String> source = artifacts.get().poolSecret(name);
      if (source.isEmpty()) {
        return Optional.empty();
      }
      io.fabric8.kubernetes.api.model.Secret secret = client.secrets().inNamespace(releaseNamespace)
          .withName(source.get()).get();
      String fix = "; fix: create it in " + releaseNamespace + " with keys access-key-id and secret-access-key, a"
          + " credential limited to the pool's prefix " + dev.varroa.protocol.ArtifactPrefixes.poolPrefix(
          artifacts.get().bucketUrl(), artifacts.get().cluster(), namespace, name);
      if (secret == null) {
        return Optional.of("CellPool " + namespace + "/" + name + ": the artifact Secret " + releaseNamespace + "/"
            + source.get() + " does not exist" + fix);
      }
      // the Secret's name holds only the pool's name: a pool of that name in another namespace must not get it
      String markedFor = secret.getMetadata().getAnnotations() == null ? null
          : secret.getMetadata().getAnnotations().get(POOL_NAMESPACE_ANNOTATION);
      if (!namespace.equals(markedFor)) {
        return Optional.of("CellPool " + namespace + "/" + name + ": the artifact Secret " + releaseNamespace + "/"
            + source.get() + " is " + (markedFor == null ? "not marked for a namespace" : "marked for namespace "
            + markedFor) + ", so it is not copied here; fix: annotate it " + POOL_NAMESPACE_ANNOTATION + "="
            + namespace + " if it is this pool's credential");
      }
      Map<String, String> data = secret.getData() == null ? Map.of() : secret.getData();
      if (!data.containsKey(JenkinsContainer.ARTIFACT_ACCESS_KEY)
          || !data.containsKey(JenkinsContainer.ARTIFACT_SECRET_KEY)) {
        return Optional.of("CellPool " + namespace + "/" + name + ": the artifact Secret " + releaseNamespace + "/"
            + source.get() + " lacks access-key-id or secret-access-key" + fix);
      }
      Map<String, String> copied = new java.util.TreeMap<>();
      for (String key : List.of(JenkinsContainer.ARTIFACT_ACCESS_KEY, JenkinsContainer.ARTIFACT_SECRET_KEY,
          "session-token")) {
        if (data.containsKey(key)) {
          copied.put(key, data.get(key));
        }
      }
      io.fabric8.kubernetes.api.model.Secret copy = new io.fabric8.kubernetes.api.model.SecretBuilder()
          .withNewMetadata().withName(CellArtifactSettings.copyName(name)).withNamespace(namespace)
          .withLabels(Map.of(CellRenderer.POOL_LABEL, name))
          .withOwnerReferences(CellRenderer.ownedBy(pool))
          .endMetadata().withType("Opaque").withData(copied).build();
      String digest = dev.varroa.operator.render.naming.ControllerLabels.sha256(JSON.asJson(copy));
      String key = namespace + "/" + name;
      if (!digest.equals(credentials.get(key))) {
        client.resource(copy).fieldManager(OwnedObjectApplier.FIELD_MANAGER).forceConflicts().serverSideApply();
        credentials.put(key, digest);
        LOG.info("event=cell_artifact_credential_copied pool={}/{} from={}/{}", namespace, name, releaseNamespace,
            source.get());
      }
      return Optional.empty();
    }

    /** A Team whose spec names this pool, in its namespace or through spec.poolNamespace. */
    private boolean wants(Team team) {
      return team.getSpec() != null && name.equals(team.getSpec().pool)
          && namespace.equals(TeamRef.poolNamespace(team));
    }

    /** The pool's own namespace, and those its spec.tenantNamespaces lists ("*": every one). */
    private boolean allowed(String teamNamespace) {
      List<String> tenants = pool.getSpec().tenantNamespaces;
      return namespace.equals(teamNamespace) || tenants != null && (tenants.contains("*")
          || tenants.contains(teamNamespace));
    }

    /** Each team's cell now: a staying cell wins over a cell scaled away that still lists the team while it drains. */
    private Map<String, String> currentPlacement(TreeMap<Integer, Controller> existing, int replicas) {
      Map<String, String> current = new java.util.HashMap<>();
      existing.headMap(replicas).values().forEach(c -> teamsOf(c).forEach(t -> current.putIfAbsent(t,
          c.getMetadata().getName())));
      existing.tailMap(replicas).values().forEach(c -> teamsOf(c).forEach(t -> current.putIfAbsent(t,
          c.getMetadata().getName())));
      return current;
    }

    private void apply(Controller current, Controller desired) {
      if (current != null && Objects.equals(JSON.asJson(current.getSpec()), JSON.asJson(desired.getSpec()))
          && current.getMetadata().getLabels() != null
          && current.getMetadata().getLabels().entrySet().containsAll(desired.getMetadata().getLabels().entrySet())) {
        return;
      }
      client.resource(desired).fieldManager(OwnedObjectApplier.FIELD_MANAGER).forceConflicts().serverSideApply();
      LOG.info("event=cell_applied pool={}/{} cell={} teams={} draining={}", namespace, name,
          desired.getMetadata().getName(), desired.getSpec().cell.teams, desired.getSpec().cell.draining != null);
    }

    /**
     * A cell scaled away: its teams already have other cells; it keeps its jobs (without triggers) until nothing is
     * queued or running on it, then it is deleted.
     */
    private Optional<CellPoolStatus.Cell> drain(int ordinal, Controller cell) {
      List<String> kept = teamsOf(cell);
      apply(cell, CellRenderer.render(pool, ordinal, kept, true));
      Optional<String> busy = busy(cell);
      if (busy.isEmpty()) {
        client.resources(Controller.class).inNamespace(namespace).withName(cell.getMetadata().getName()).delete();
        LOG.info("event=cell_removed pool={}/{} cell={}", namespace, name, cell.getMetadata().getName());
        activity.controller(namespace, cell.getMetadata().getName(), CELL_REMOVED, "cell " + cell.getMetadata().getName()
            + " removed from pool " + name + " after a scale-down; its teams " + kept + " run on the pool's other cells", Map.of("pool", name));
        return Optional.empty();
      }
      LOG.info("event=cell_draining pool={}/{} cell={} waiting=\"{}\"", namespace, name, cell.getMetadata().getName(),
          busy.get());
      soon(DRAIN_PASS);
      CellPoolStatus.Cell entry = entry(cell.getMetadata().getName(), cell, kept);
      entry.draining = true;
      return Optional.of(entry);
    }

    /** Why the cell cannot go yet, or empty when nothing is queued or running on it. */
    private Optional<String> busy(Controller cell) {
      ControllerStatus.Phase phase = phase(cell);
      if (phase == null || NO_JENKINS.contains(phase)) {
        return Optional.empty();
      }
      Optional<ObservedState> observed = jenkins.route(identity(cell)).map(r -> r.getObserved());
      if (observed.isEmpty()) {
        return Optional.of("its mite is not connected, so whether builds wait on it is unknown");
      }
      int queued = observed.get().getQueuedBuilds();
      int running = observed.get().getRunningBuilds();
      return queued + running == 0 ? Optional.empty()
          : Optional.of(queued + " queued and " + running + " running build(s)");
    }

    /** The status entry of a staying cell; rolls it when it stayed unready past the grace period. */
    private CellPoolStatus.Cell watchReadiness(String name, Controller cell, List<String> teams, CellPoolSpec spec) {
      CellPoolStatus.Cell entry = entry(name, cell, teams);
      CellPoolStatus.Cell before = previous.cells == null ? null : previous.cells.stream()
          .filter(c -> name.equals(c.name)).findFirst().orElse(null);
      entry.lastRolledAt = before == null ? null : before.lastRolledAt;
      ControllerStatus.Phase phase = cell == null ? null : phase(cell);
      if (phase != null && NOT_UNREADY.contains(phase)) {
        return entry;
      }
      Instant since = before == null || before.unreadySince == null ? now : Instant.parse(before.unreadySince);
      Duration grace = Duration.ofSeconds(spec.unreadyGracePeriodSeconds == null
          ? CellPoolSpec.DEFAULT_UNREADY_GRACE_SECONDS : spec.unreadyGracePeriodSeconds);
      if (cell != null && !now.isBefore(since.plus(grace))) {
        roll(cell, since, grace);
        entry.lastRolledAt = now.toString();
        since = now;
      }
      entry.unreadySince = since.toString();
      soon(Duration.between(now, since.plus(grace)).plusMillis(10));
      return entry;
    }

    /** Deletes the cell's pod so its StatefulSet makes it again; JENKINS_HOME stays on its claim. */
    private void roll(Controller cell, Instant since, Duration grace) {
      String statefulSet = cell.getStatus() == null ? null : cell.getStatus().statefulSetName;
      String pod = statefulSet == null ? null : statefulSet + "-0";
      if (pod != null) {
        client.pods().inNamespace(namespace).withName(pod).delete();
      }
      String summary = "cell rolled: not ready since " + since + ", longer than its pool's grace of "
          + grace.toSeconds() + " s" + (pod == null ? " (it has no pod yet)" : "; pod " + pod + " deleted");
      LOG.info("event=cell_rolled pool={}/{} cell={} pod={} unready_since={}", namespace, name,
          cell.getMetadata().getName(), pod, since);
      activity.controller(namespace, cell.getMetadata().getName(), CELL_ROLLED, summary, Map.of("pool", name,
          "unreadySince", since.toString(), "pod", pod == null ? "" : pod));
    }

    private CellPoolStatus.Cell entry(String cellName, Controller cell, List<String> cellTeams) {
      CellPoolStatus.Cell entry = new CellPoolStatus.Cell();
      entry.name = cellName;
      ControllerStatus.Phase phase = cell == null ? null : phase(cell);
      entry.phase = phase == null ? ControllerStatus.Phase.Pending.name() : phase.name();
      entry.teams = List.copyOf(cellTeams);
      return entry;
    }

    private void recordPlacement(TeamPlacement.Result placement, List<Team> wanting) {
      List<PlacementRecord.Entry> entries = new ArrayList<>();
      for (Team team : wanting) {
        String cell = placement.cellOf(TeamRef.key(team));
        if (cell == null) {
          continue;
        }
        // the Team's status dates the placement; until it has caught up the team is recorded on a later pass (its
        // status change brings the pool back)
        if (team.getStatus() != null && cell.equals(team.getStatus().cell) && team.getStatus().placedSince != null) {
          entries.add(new PlacementRecord.Entry(TeamRef.key(team), cell,
              Instant.parse(team.getStatus().placedSince)));
        }
      }
      String key = namespace + "/" + name;
      if (entries.equals(recorded.get(key))) {
        return;
      }
      Optional<String> failed = record.record(namespace, name, entries);
      if (failed.isEmpty()) {
        recorded.put(key, List.copyOf(entries));
      } else {
        LOG.warn("event=team_placements_not_recorded pool={}/{} reason=\"{}\"", namespace, name, failed.get());
        soon(DRAIN_PASS);
      }
    }

    // No cell is made or changed: the status says why, and the Teams that want the pool stay Pending.
    private UpdateControl<CellPool> refused(String why) {
      String message = "CellPool " + namespace + "/" + name + ": " + why;
      CellPoolStatus status = new CellPoolStatus();
      Conditions conditions = new Conditions(previous.conditions, generation(), now.toString());
      conditions.kstatus(Kstatus.STALLED, new Kstatus.Wording("CellsNotHostable", message),
          new Kstatus.Wording("CellsNotHostable", message), new Kstatus.Wording("CellsNotHostable", message));
      status.conditions = conditions.build();
      status.observedGeneration = generation();
      status.cells = new ArrayList<>();
      status.replicas = 0;
      status.readyReplicas = 0;
      status.placedTeams = 0;
      status.selector = CellRenderer.selector(name);
      if (JSON.asJson(status).equals(JSON.asJson(previous))) {
        return UpdateControl.noUpdate();
      }
      pool.setStatus(status);
      return UpdateControl.patchStatus(pool);
    }

    private UpdateControl<CellPool> finish(CellPoolStatus status, TeamPlacement.Result placement,
        Optional<String> credential) {
      Conditions conditions = new Conditions(previous.conditions, generation(), now.toString());
      boolean draining = status.cells.stream().anyMatch(c -> Boolean.TRUE.equals(c.draining));
      if (credential.isPresent()) {
        conditions.kstatus(Kstatus.STALLED, new Kstatus.Wording("ArtifactCredential", credential.get()),
            new Kstatus.Wording("ArtifactCredential", "waiting for the pool's artifact credential"),
            new Kstatus.Wording("ArtifactCredential", credential.get()));
        soon(DRAIN_PASS);
      } else if (!placement.unplaced().isEmpty()) {
        String message = "CellPool " + namespace + "/" + name + ": " + placement.unplaced().size() + " team(s) have no"
            + " cell (" + String.join(", ", placement.unplaced()) + "): every cell hosts spec.teamsPerCell teams;"
            + " fix: raise spec.replicas or spec.teamsPerCell";
        conditions.kstatus(Kstatus.STALLED, new Kstatus.Wording("PoolFull", message),
            new Kstatus.Wording("PoolFull", "waiting for room"), new Kstatus.Wording("PoolFull", message));
      } else if (draining) {
        String message = "cells scaled away wait for their queued and running builds before they are deleted";
        conditions.kstatus(Kstatus.RECONCILING, "Draining", message);
      } else {
        conditions.kstatus(Kstatus.READY, "Placed", status.cells.size() + " cell(s), " + status.placedTeams
            + " team(s) placed");
      }
      status.conditions = conditions.build();
      status.observedGeneration = generation();
      UpdateControl<CellPool> control;
      if (JSON.asJson(status).equals(JSON.asJson(previous))) {
        control = UpdateControl.noUpdate();
      } else {
        pool.setStatus(status);
        // only this reconciler writes this status
        pool.getMetadata().setResourceVersion(null);
        control = UpdateControl.patchStatus(pool);
      }
      return requeue == null ? control : control.rescheduleAfter(requeue);
    }

    private void soon(Duration after) {
      Duration at = after.isNegative() ? Duration.ZERO : after;
      if (requeue == null || at.compareTo(requeue) < 0) {
        requeue = at;
      }
    }

    private long generation() {
      return pool.getMetadata().getGeneration() == null ? 0 : pool.getMetadata().getGeneration();
    }

    private boolean ownedByPool(Controller cell) {
      return cell.getMetadata().getOwnerReferences() != null && cell.getMetadata().getOwnerReferences().stream()
          .anyMatch(o -> Objects.equals(o.getUid(), pool.getMetadata().getUid()));
    }
  }

  /** The pool a team wants, and the pool whose cell hosts it now: a team that changed pools leaves the old one. */
  static Set<ResourceID> poolsOf(Team team) {
    Set<ResourceID> pools = new java.util.HashSet<>();
    if (team.getSpec() != null && team.getSpec().pool != null) {
      pools.add(new ResourceID(team.getSpec().pool, TeamRef.poolNamespace(team)));
    }
    if (team.getStatus() != null && team.getStatus().cell != null) {
      String cell = team.getStatus().cell;
      String cellNamespace = team.getStatus().cellNamespace == null ? TeamRef.poolNamespace(team)
          : team.getStatus().cellNamespace;
      int dash = cell.lastIndexOf('-');
      if (dash > 0) {
        pools.add(new ResourceID(cell.substring(0, dash), cellNamespace));
      }
    }
    return pools;
  }

  static List<String> teamsOf(Controller cell) {
    return dev.varroa.operator.render.CellLayerResolver.hosted(cell);
  }

  private static ControllerStatus.Phase phase(Controller cell) {
    return cell.getStatus() == null ? null : cell.getStatus().phase;
  }

  private static Instant created(Team team) {
    String created = team.getMetadata().getCreationTimestamp();
    return created == null ? Instant.EPOCH : Instant.parse(created);
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }
}

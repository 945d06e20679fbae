package dev.varroa.operator.cell;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamRef;
import dev.varroa.api.v1alpha1.TeamSpec;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.status.Conditions;
import dev.varroa.operator.status.Kstatus;
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
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reports where each Team is (docs/cells.md): the cell its pool placed it on, since when, or why it has none; and
 * refuses what the CRD cannot check (a pipeline name or credential id given twice, a pipeline's credentialsId that is
 * not one of the team's credentials). The placement itself is the CellPool's.
 */
@ControllerConfiguration(name = "team")
public final class TeamReconciler implements Reconciler<Team> {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final Clock clock;
  private InformerEventSource<CellPool, Team> pools;

  public TeamReconciler(Clock clock) {
    this.clock = clock;
  }

  @Override
  public List<EventSource<?, Team>> prepareEventSources(EventSourceContext<Team> context) {
    // every team a pool places or turns away is named in its status, so a pool's status change reaches them all
    pools = new InformerEventSource<>(InformerEventSourceConfiguration.from(CellPool.class, Team.class)
        .withName("team-pools")
        .withSecondaryToPrimaryMapper(pool -> teamsNamedIn(pool)).build(), context);
    return List.of(pools);
  }

  @Override
  public UpdateControl<Team> reconcile(Team team, Context<Team> context) {
    String namespace = team.getMetadata().getNamespace();
    String name = team.getMetadata().getName();
    TeamStatus previous = team.getStatus() == null ? new TeamStatus() : team.getStatus();
    // milliseconds: the record store keeps placedSince to the millisecond
    Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    long generation = team.getMetadata().getGeneration() == null ? 0 : team.getMetadata().getGeneration();
    Conditions conditions = new Conditions(previous.conditions, generation, now.toString());
    TeamStatus status = new TeamStatus();
    Optional<String> invalid = invalid(team);
    String poolNamespace = TeamRef.poolNamespace(team);
    String key = TeamRef.key(team);
    Optional<CellPool> pool = pools.get(new ResourceID(team.getSpec().pool, poolNamespace));
    boolean allowed = pool.map(p -> admits(p, namespace)).orElse(true);
    Optional<String> cell = pool.filter(p -> allowed).flatMap(p -> cellOf(p, key));
    String which = "Team " + namespace + "/" + name;
    if (cell.isPresent()) {
      status.phase = TeamStatus.Phase.Placed;
      status.cell = cell.get();
      status.cellNamespace = poolNamespace;
      status.placedSince = cell.get().equals(previous.cell) && poolNamespace.equals(previous.cellNamespace)
          && previous.placedSince != null ? previous.placedSince : now.toString();
    } else {
      status.phase = TeamStatus.Phase.Pending;
      status.message = pool.isEmpty()
          ? which + ": spec.pool " + team.getSpec().pool + " is not a CellPool in namespace " + poolNamespace
              + "; fix: create the CellPool or name an existing one"
          : !allowed
              ? which + ": CellPool " + poolNamespace + "/" + team.getSpec().pool + " does not list namespace "
                  + namespace + " in spec.tenantNamespaces; fix: add it there, or use a pool of " + namespace
              : unplaced(pool.get(), key)
                  ? which + ": every cell of CellPool " + team.getSpec().pool + " already hosts spec.teamsPerCell"
                      + " teams; fix: raise the pool's spec.replicas or spec.teamsPerCell"
                  : "waiting for CellPool " + team.getSpec().pool + " to place the team";
    }
    if (invalid.isPresent()) {
      status.message = invalid.get();
      conditions.kstatus(Kstatus.STALLED, "InvalidSpec", invalid.get());
    } else if (status.phase == TeamStatus.Phase.Placed) {
      conditions.kstatus(Kstatus.READY, "Placed", "on cell " + status.cell);
    } else if (pool.isEmpty()) {
      conditions.kstatus(Kstatus.STALLED, "PoolNotFound", status.message);
    } else if (!allowed) {
      conditions.kstatus(Kstatus.STALLED, "NamespaceNotAdmitted", status.message);
    } else {
      conditions.kstatus(Kstatus.RECONCILING, "Pending", status.message);
    }
    status.conditions = conditions.build();
    status.observedGeneration = generation;
    if (team.getStatus() == null && invalid.isEmpty() && pool.isPresent() && allowed && !unplaced(pool.get(), key)
        && status.phase == TeamStatus.Phase.Pending) {
      // a new team its pool has not looked at yet: the pool's pass brings it back placed, one status write instead of two
      return UpdateControl.noUpdate();
    }
    if (JSON.asJson(status).equals(JSON.asJson(previous))) {
      return UpdateControl.noUpdate();
    }
    team.setStatus(status);
    team.getMetadata().setResourceVersion(null);
    return UpdateControl.patchStatus(team);
  }

  /** The staying cell the pool's status lists the team on. */
  static Optional<String> cellOf(CellPool pool, String team) {
    if (pool.getStatus() == null || pool.getStatus().cells == null) {
      return Optional.empty();
    }
    return pool.getStatus().cells.stream()
        .filter(c -> !Boolean.TRUE.equals(c.draining) && c.teams != null && c.teams.contains(team))
        .map(c -> c.name).findFirst();
  }

  /** The pool's own namespace, and those its spec.tenantNamespaces lists ("*": every one). */
  private static boolean admits(CellPool pool, String namespace) {
    List<String> tenants = pool.getSpec() == null ? null : pool.getSpec().tenantNamespaces;
    return namespace.equals(pool.getMetadata().getNamespace())
        || tenants != null && (tenants.contains("*") || tenants.contains(namespace));
  }

  private static boolean unplaced(CellPool pool, String team) {
    return pool.getStatus() != null && pool.getStatus().unplacedTeams != null
        && pool.getStatus().unplacedTeams.contains(team);
  }

  private static Set<ResourceID> teamsNamedIn(CellPool pool) {
    Set<ResourceID> named = new HashSet<>();
    String namespace = pool.getMetadata().getNamespace();
    CellPoolStatus status = pool.getStatus();
    if (status == null) {
      return named;
    }
    java.util.function.Consumer<String> add = key -> {
      TeamRef team = TeamRef.parse(key, namespace);
      named.add(new ResourceID(team.name(), team.namespace()));
    };
    if (status.cells != null) {
      status.cells.stream().filter(c -> c.teams != null).flatMap(c -> c.teams.stream()).forEach(add);
    }
    if (status.unplacedTeams != null) {
      status.unplacedTeams.forEach(add);
    }
    return named;
  }

  /** What the CRD cannot check: each message names the Team, the field and the fix. */
  static Optional<String> invalid(Team team) {
    TeamSpec spec = team.getSpec();
    String which = "Team " + team.getMetadata().getNamespace() + "/" + team.getMetadata().getName();
    Set<String> pipelines = new HashSet<>();
    Set<String> credentials = new HashSet<>();
    List<String> problems = new ArrayList<>();
    if (spec.credentials != null) {
      for (TeamSpec.Credential credential : spec.credentials) {
        if (!credentials.add(credential.id)) {
          problems.add("spec.credentials: id " + credential.id + " is given twice; fix: give each credential its own"
              + " id");
        }
      }
    }
    if (spec.pipelines != null) {
      for (TeamSpec.Pipeline pipeline : spec.pipelines) {
        if (!pipelines.add(pipeline.name)) {
          problems.add("spec.pipelines: name " + pipeline.name + " is given twice; fix: give each pipeline its own"
              + " name (it is the job's name in the team's folder)");
        }
        if (pipeline.credentialsId != null && !credentials.contains(pipeline.credentialsId)) {
          problems.add("spec.pipelines[" + pipeline.name + "].credentialsId " + pipeline.credentialsId + " is not an"
              + " id in spec.credentials; fix: add that credential or correct the id");
        }
      }
    }
    return problems.isEmpty() ? Optional.empty() : Optional.of(which + ": " + String.join("; ", problems));
  }
}

package dev.varroa.operator.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.operator.brood.schedule.SettableClock;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.nats.client.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CellPools and Teams on a real API server, reconciled as the chart's ServiceAccount under the chart's RBAC, activity
 * on a real NATS. The test plays the rest: it writes the cells' phases (no ControllerReconciler runs) and what their
 * mites observe (queued and running builds), and sets the clock the grace period is measured with.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CellPoolReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  /** What the chart would hand over for networkPolicy.cellIsolation: here, the resolver only. */
  private static final CellIsolation ISOLATION = CellIsolation.fromEnv(Map.of(CellIsolation.ENV,
      "[{\"to\":[{\"namespaceSelector\":{\"matchLabels\":{\"kubernetes.io/metadata.name\":\"kube-system\"}}}],"
          + "\"ports\":[{\"port\":53,\"protocol\":\"UDP\"}]}]")).orElseThrow();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private KubernetesClient admin;
  private ServiceAccountClient account;
  private Operator operator;
  private CellPoolReconciler pools;
  private Optional<dev.varroa.operator.render.resolve.CellArtifactSettings> artifacts = Optional.empty();
  private Connection bus;
  private final Queue<ActivityEvent> activity = new ConcurrentLinkedQueue<>();
  private final ObservedJenkins jenkins = new ObservedJenkins();
  private Optional<String> refusal = Optional.empty();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-12-01T10:00:00Z"));

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    admin = kube.client();
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "operator-cells");
    bus = NATS.server().connect();
    Connection watcher = NATS.server().connect();
    watcher.createDispatcher(m -> {
      try {
        activity.add(ActivityEvent.parseFrom(m.getData()));
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
    }).subscribe("activity.>");
    watcher.flush(DEADLINE);
  }

  @AfterEach
  void stopOperator() {
    if (operator != null) {
      operator.stop();
      operator = null;
    }
  }

  @AfterAll
  void refusedNothing() throws Exception {
    bus.close();
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }

  @Test
  void threeCellsHostSevenTeamsAndKeepThemAcrossAnOperatorRestart() {
    String ns = namespace("seven-teams");
    startOperator(ns);
    admin.resource(pool(ns, "shared", 3, 3)).create();
    for (int i = 1; i <= 7; i++) {
      admin.resource(team(ns, "team-" + i, "shared")).create();
    }
    Map<String, String> placed = awaitPlaced(ns, 7);
    assertThat(placed.values()).allMatch(c -> c.matches("shared-[0-2]"));
    Map<String, Long> load = placed.values().stream().collect(Collectors.groupingBy(c -> c, Collectors.counting()));
    assertThat(load.values()).as("least loaded first: 3 + 2 + 2").containsExactlyInAnyOrder(3L, 2L, 2L);
    for (String cell : List.of("shared-0", "shared-1", "shared-2")) {
      Controller controller = cell(ns, cell);
      assertThat(controller.getMetadata().getLabels()).containsEntry(CellRenderer.POOL_LABEL, "shared")
          .containsEntry("tier", "cells");
      assertThat(controller.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getKind()).isEqualTo("CellPool"));
      assertThat(controller.getSpec().cell.pool).isEqualTo("shared");
      assertThat(controller.getSpec().cell.teams).containsExactlyElementsOf(placed.entrySet().stream()
          .filter(e -> e.getValue().equals(cell)).map(Map.Entry::getKey).sorted().toList());
      assertThat(controller.getSpec().composedBundleRef.name).as("the template's spec").isEqualTo("cells");
    }
    CellPool status = awaitPool(ns, "shared", s -> s.placedTeams != null && s.placedTeams == 7);
    var policy = admin.network().v1().networkPolicies().inNamespace(ns).withName("varroa-cells-shared").get();
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Egress");
    assertThat(policy.getSpec().getPodSelector().getMatchExpressions()).singleElement()
        .satisfies(e -> assertThat(e.getValues()).containsExactly("shared-0", "shared-1", "shared-2"));
    assertThat(policy.getSpec().getEgress()).hasSize(2);
    assertThat(policy.getSpec().getEgress().get(1).getTo().get(0).getPodSelector().getMatchLabels())
        .containsEntry("app.kubernetes.io/name", "varroa-update-center");
    assertThat(status.getStatus().replicas).isEqualTo(3);
    assertThat(status.getStatus().selector).isEqualTo("varroa.dev/cell-pool=shared");
    Map<String, String> since = teams(ns).stream().collect(Collectors.toMap(t -> t.getMetadata().getName(),
        t -> t.getStatus().placedSince));
    Map<String, String> versions = cells(ns).stream().collect(Collectors.toMap(c -> c.getMetadata().getName(),
        c -> c.getMetadata().getResourceVersion()));

    stopOperator();
    clock.set(clock.instant().plusSeconds(3600));
    startOperator(ns);
    // a team created after the restart is placed by a pass of the new operator over the whole pool
    admin.resource(team(ns, "team-8", "shared")).create();
    Map<String, String> after = awaitPlaced(ns, 8);
    placed.forEach((team, cell) -> assertThat(after).containsEntry(team, cell));
    assertThat(teams(ns).stream().filter(t -> !t.getMetadata().getName().equals("team-8")))
        .allSatisfy(t -> assertThat(t.getStatus().placedSince).isEqualTo(since.get(t.getMetadata().getName())));
    String newHome = after.get("team-8");
    cells(ns).stream().filter(c -> !c.getMetadata().getName().equals(newHome)).forEach(c ->
        assertThat(c.getMetadata().getResourceVersion()).as(c.getMetadata().getName() + " untouched")
            .isEqualTo(versions.get(c.getMetadata().getName())));
  }

  @Test
  void scalingDownMovesTheTeamsFirstAndDeletesTheCellOnlyOnceNothingWaitsOnIt() {
    String ns = namespace("scale-down");
    startOperator(ns);
    admin.resource(pool(ns, "pool", 3, 10)).create();
    for (int i = 1; i <= 6; i++) {
      admin.resource(team(ns, "t" + i, "pool")).create();
    }
    Map<String, String> before = awaitPlaced(ns, 6);
    List<String> leaving = before.entrySet().stream().filter(e -> e.getValue().equals("pool-2"))
        .map(Map.Entry::getKey).sorted().toList();
    assertThat(leaving).hasSize(2);
    for (String cell : List.of("pool-0", "pool-1", "pool-2")) {
      phase(ns, cell, ControllerStatus.Phase.Connected);
    }
    Controller third = cell(ns, "pool-2");
    jenkins.observe(third, 1, 0);

    admin.resources(CellPool.class).inNamespace(ns).withName("pool").scale(2);

    Map<String, String> moved = await().atMost(DEADLINE).until(() -> placedMap(ns),
        m -> leaving.stream().allMatch(t -> m.get(t) != null && !m.get(t).equals("pool-2")));
    before.forEach((team, cell) -> {
      if (!leaving.contains(team)) {
        assertThat(moved).as("a team of a staying cell stays").containsEntry(team, cell);
      }
    });
    CellPool draining = awaitPool(ns, "pool", s -> s.cells != null && s.cells.stream()
        .anyMatch(c -> "pool-2".equals(c.name) && Boolean.TRUE.equals(c.draining)));
    assertThat(draining.getStatus().condition(Condition.RECONCILING)).get()
        .satisfies(c -> assertThat(c.reason).isEqualTo("Draining"));
    Controller drainingCell = cell(ns, "pool-2");
    assertThat(drainingCell.getSpec().cell.draining).isTrue();
    assertThat(drainingCell.getSpec().cell.teams).as("the queued build still finds its job")
        .containsExactlyElementsOf(leaving);

    jenkins.observe(third, 0, 1);
    await().during(Duration.ofMillis(300)).atMost(DEADLINE).until(() -> cell(ns, "pool-2") != null);
    jenkins.observe(third, 0, 0);
    await().atMost(DEADLINE).until(() -> cell(ns, "pool-2") == null);
    CellPool after = awaitPool(ns, "pool", s -> s.replicas != null && s.replicas == 2);
    await().atMost(DEADLINE).until(() -> admin.network().v1().networkPolicies().inNamespace(ns)
        .withName("varroa-cells-pool").get().getSpec().getPodSelector().getMatchExpressions().get(0).getValues(),
        v -> v.equals(List.of("pool-0", "pool-1")));
    assertThat(after.getStatus().cells).extracting(c -> c.name).containsExactly("pool-0", "pool-1");
    assertThat(awaitActivity(e -> CellPoolReconciler.CELL_REMOVED.equals(e.getKind())).getSummary())
        .contains("pool-2").contains(leaving.get(0));
  }

  @Test
  void aCellUnreadyPastItsGraceIsRolledOnceWithAnActivityEvent() {
    String ns = namespace("roll");
    startOperator(ns);
    CellPool pool = pool(ns, "slow", 1, 5);
    pool.getSpec().unreadyGracePeriodSeconds = 60L;
    admin.resource(pool).create();
    await().atMost(DEADLINE).until(() -> cell(ns, "slow-0") != null);
    Controller cell = cell(ns, "slow-0");
    cell.setStatus(new ControllerStatus());
    cell.getStatus().phase = ControllerStatus.Phase.Running;
    cell.getStatus().statefulSetName = "slow-0-abcd1234";
    admin.resource(cell).updateStatus();
    admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("slow-0-abcd1234-0")
        .endMetadata().withNewSpec().addNewContainer().withName("jenkins").withImage("jenkins").endContainer()
        .endSpec().build()).create();
    CellPool unready = awaitPool(ns, "slow", s -> s.cells != null && s.cells.get(0).unreadySince != null);
    Instant since = Instant.parse(unready.getStatus().cells.get(0).unreadySince);

    clock.set(since.plusSeconds(59));
    touch(ns, "slow-0");
    await().atMost(DEADLINE).until(() -> clock.instant().equals(pools.lastPassAt()));
    assertThat(admin.pods().inNamespace(ns).withName("slow-0-abcd1234-0").get()).as("within the grace").isNotNull();

    clock.set(since.plusSeconds(61));
    touch(ns, "slow-0");
    await().atMost(DEADLINE).until(() -> admin.pods().inNamespace(ns).withName("slow-0-abcd1234-0").get() == null);
    CellPool rolled = awaitPool(ns, "slow", s -> s.cells.get(0).lastRolledAt != null);
    assertThat(rolled.getStatus().cells.get(0).unreadySince).as("the grace starts again")
        .isEqualTo(since.plusSeconds(61).toString());
    ActivityEvent event = awaitActivity(e -> CellPoolReconciler.CELL_ROLLED.equals(e.getKind())
        && "slow".equals(e.getAttributesMap().get("pool")));
    assertThat(event.getSummary()).contains("slow-0-abcd1234-0").contains("60 s");
    assertThat(event.getAttributesMap()).containsEntry("pool", "slow");

    phase(ns, "slow-0", ControllerStatus.Phase.Connected);
    awaitPool(ns, "slow", s -> s.cells.get(0).unreadySince == null && s.readyReplicas == 1);
  }

  @Test
  void aTeamWithoutRoomOrPoolOrWithAnInvalidSpecSaysWhyAndTheFix() {
    String ns = namespace("pending");
    startOperator(ns);
    admin.resource(pool(ns, "tiny", 1, 1)).create();
    admin.resource(team(ns, "first", "tiny")).create();
    awaitPlaced(ns, 1);
    admin.resource(team(ns, "second", "tiny")).create();
    admin.resource(team(ns, "lost", "nowhere")).create();
    Team invalid = team(ns, "twice", "tiny");
    invalid.getSpec().pipelines.add(invalid.getSpec().pipelines.get(0));
    admin.resource(invalid).create();

    Team second = awaitTeam(ns, "second", s -> s.message != null && s.message.contains("teamsPerCell"));
    assertThat(second.getStatus().phase).isEqualTo(TeamStatus.Phase.Pending);
    assertThat(second.getStatus().message).contains("fix: raise the pool's spec.replicas or spec.teamsPerCell");
    Team lost = awaitTeam(ns, "lost", s -> s.message != null);
    assertThat(lost.getStatus().message).contains("spec.pool nowhere is not a CellPool in namespace " + ns);
    assertThat(lost.getStatus().condition(Condition.STALLED)).get()
        .satisfies(c -> assertThat(c.status).isEqualTo(Condition.Status.True));
    Team twice = awaitTeam(ns, "twice", s -> s.message != null && s.message.contains("twice"));
    assertThat(twice.getStatus().message).contains("spec.pipelines: name build is given twice");
    CellPool full = awaitPool(ns, "tiny", s -> s.unplacedTeams != null && s.unplacedTeams.contains("second"));
    assertThat(full.getStatus().condition(Condition.STALLED)).get().satisfies(c -> {
      assertThat(c.reason).isEqualTo("PoolFull");
      assertThat(c.message).contains("fix: raise spec.replicas or spec.teamsPerCell");
    });

    // room made: the oldest waiting team gets it
    admin.resources(CellPool.class).inNamespace(ns).withName("tiny").scale(2);
    awaitTeam(ns, "second", s -> s.phase == TeamStatus.Phase.Placed && "tiny-1".equals(s.cell));
  }

  @Test
  void aPoolsArtifactCredentialIsCopiedBesideItsCellsAndItsAbsenceNamesTheSecretAndTheFix() {
    String ns = namespace("artifacts");
    if (admin.namespaces().withName(ChartRbac.NAMESPACE).get() == null) {
      namespace(ChartRbac.NAMESPACE);
    }
    artifacts = dev.varroa.operator.render.resolve.CellArtifactSettings.fromEnv(Map.of("VARROA_BLOB_MODE", "s3",
        "VARROA_BLOB_S3_URL", "https://s3.example.com/varroa-records", "VARROA_CLUSTER_NAME", "core",
        "VARROA_CELL_ARTIFACT_SECRET", "cell-artifacts"));
    startOperator(ns);
    admin.resource(pool(ns, "builds", 1, 5)).create();

    CellPool missing = awaitPool(ns, "builds", s -> s.condition(Condition.STALLED).map(c -> c.status
        == Condition.Status.True).orElse(false));
    assertThat(missing.getStatus().condition(Condition.STALLED).get().message)
        .contains("the artifact Secret varroa-system/cell-artifacts-builds does not exist")
        .contains("limited to the pool's prefix artifacts/core/artifacts/builds/");
    assertThat(cell(ns, "builds-0")).as("the cells are made all the same").isNotNull();

    admin.secrets().inNamespace(ChartRbac.NAMESPACE).resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
        .withNewMetadata().withName("cell-artifacts-builds").endMetadata()
        .withStringData(Map.of("access-key-id", "builds-key", "secret-access-key", "builds-secret")).build()).create();
    // named after the pool only: unmarked, a pool "builds" of any namespace could claim it
    CellPool unmarked = awaitPool(ns, "builds", s -> s.condition(Condition.STALLED).map(c -> c.message.contains(
        "not marked for a namespace")).orElse(false));
    assertThat(unmarked.getStatus().condition(Condition.STALLED).get().message)
        .contains("fix: annotate it varroa.dev/cell-pool-namespace=" + ns);
    assertThat(admin.secrets().inNamespace(ns).withName("varroa-artifacts-builds").get()).isNull();
    admin.secrets().inNamespace(ChartRbac.NAMESPACE).withName("cell-artifacts-builds").edit(secret -> {
      secret.getMetadata().setAnnotations(Map.of(CellPoolReconciler.POOL_NAMESPACE_ANNOTATION, ns));
      return secret;
    });
    awaitPool(ns, "builds", s -> s.condition(Condition.READY).map(c -> c.status == Condition.Status.True)
        .orElse(false));
    var copy = admin.secrets().inNamespace(ns).withName("varroa-artifacts-builds").get();
    assertThat(copy.getData()).containsOnlyKeys("access-key-id", "secret-access-key");
    assertThat(new String(java.util.Base64.getDecoder().decode(copy.getData().get("access-key-id"))))
        .isEqualTo("builds-key");
    assertThat(copy.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("CellPool"));
    artifacts = Optional.empty();
  }

  @Test
  void aPoolAdmitsTeamsOfTheNamespacesItListsAndTellsOthersWhy() {
    String home = namespace("cells-home");
    String tenantA = namespace("tenant-a");
    String tenantB = namespace("tenant-b");
    startOperator(home, tenantA, tenantB);
    CellPool shared = pool(home, "shared", 1, 5);
    shared.getSpec().tenantNamespaces = List.of(tenantA);
    admin.resource(shared).create();
    Team payments = team(tenantA, "payments", "shared");
    payments.getSpec().poolNamespace = home;
    admin.resource(payments).create();
    admin.resource(team(home, "local", "shared")).create();
    Team intruder = team(tenantB, "intruder", "shared");
    intruder.getSpec().poolNamespace = home;
    admin.resource(intruder).create();

    Team placed = awaitTeam(tenantA, "payments", s -> s.phase == TeamStatus.Phase.Placed);
    assertThat(placed.getStatus().cell).isEqualTo("shared-0");
    assertThat(placed.getStatus().cellNamespace).isEqualTo(home);
    await().atMost(DEADLINE).until(() -> cell(home, "shared-0").getSpec().cell.teams,
        teams -> teams.equals(List.of("local", "tenant-a/payments")));
    Team refused = awaitTeam(tenantB, "intruder", s -> s.message != null);
    assertThat(refused.getStatus().phase).isEqualTo(TeamStatus.Phase.Pending);
    assertThat(refused.getStatus().message).contains("CellPool cells-home/shared does not list namespace tenant-b in"
        + " spec.tenantNamespaces");
    assertThat(refused.getStatus().condition(Condition.STALLED)).get()
        .satisfies(c -> assertThat(c.reason).isEqualTo("NamespaceNotAdmitted"));
    assertThat(awaitPool(home, "shared", s -> s.placedTeams != null && s.placedTeams == 2).getStatus().cells.get(0)
        .teams).containsExactly("local", "tenant-a/payments");
  }

  @Test
  void anInstallationKeepingBlobsInPostgresHostsNoCellAndThePoolSaysWhy() {
    String ns = namespace("cells-postgres");
    refusal = dev.varroa.operator.render.resolve.CellArtifactSettings.cellsRefused(
        java.util.Map.of("VARROA_BLOB_MODE", "postgres"));
    startOperator(ns);
    admin.resource(pool(ns, "shared", 2, 5)).create();
    admin.resource(team(ns, "payments", "shared")).create();
    CellPool refused = awaitPool(ns, "shared", s -> s.conditions != null && !s.conditions.isEmpty());
    assertThat(refused.getStatus().condition(Condition.STALLED)).get().satisfies(c -> {
      assertThat(c.reason).isEqualTo("CellsNotHostable");
      assertThat(c.message).startsWith("CellPool " + ns + "/shared: this installation keeps its blobs in PostgreSQL")
          .contains("fix: install with recordStore.blobs.mode=s3");
    });
    assertThat(admin.resources(Controller.class).inNamespace(ns).list().getItems()).isEmpty();
    assertThat(admin.resources(Team.class).inNamespace(ns).withName("payments").get().getStatus())
        .satisfies(status -> assertThat(status == null || status.cell == null).isTrue());
  }

  private void startOperator(String... namespaces) {
    java.util.Set<String> watched = java.util.Set.of(namespaces);
    ActivityPublisher publisher = new ActivityPublisher(() -> bus, "core", "operator", clock);
    operator = new Operator(o -> o.withKubernetesClient(account.client()).withCloseClientOnStop(false));
    pools = new CellPoolReconciler(clock, jenkins, publisher, PlacementRecord.NONE, Optional.of(ISOLATION))
        .withArtifacts(artifacts, ChartRbac.NAMESPACE).refusingCells(refusal);
    refusal = Optional.empty();
    operator.register(pools, c -> c.settingNamespaces(watched));
    operator.register(new TeamReconciler(clock), c -> c.settingNamespaces(watched));
    operator.start();
  }

  private static CellPool pool(String ns, String name, int replicas, int teamsPerCell) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: %s, namespace: %s}
        spec:
          replicas: %d
          teamsPerCell: %d
          template:
            metadata: {labels: {tier: cells}}
            spec: {composedBundleRef: {name: cells}}
        """.formatted(name, ns, replicas, teamsPerCell), CellPool.class);
  }

  private static Team team(String ns, String name, String pool) {
    Team team = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec:
          pool: %s
          pipelines:
            - {name: build, repository: "https://git.example.com/%s/app.git"}
        """.formatted(name, ns, pool, name), Team.class);
    team.getSpec().pipelines = new ArrayList<>(team.getSpec().pipelines);
    return team;
  }

  private String namespace(String name) {
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
        .create();
    return name;
  }

  private Map<String, String> awaitPlaced(String ns, int count) {
    return await().atMost(DEADLINE).until(() -> placedMap(ns), m -> m.size() == count);
  }

  private Map<String, String> placedMap(String ns) {
    return teams(ns).stream().filter(t -> t.getStatus() != null && t.getStatus().phase == TeamStatus.Phase.Placed)
        .collect(Collectors.toMap(t -> t.getMetadata().getName(), t -> t.getStatus().cell));
  }

  private List<Team> teams(String ns) {
    return admin.resources(Team.class).inNamespace(ns).list().getItems();
  }

  private List<Controller> cells(String ns) {
    return admin.resources(Controller.class).inNamespace(ns).list().getItems();
  }

  private Controller cell(String ns, String name) {
    return admin.resources(Controller.class).inNamespace(ns).withName(name).get();
  }

  private void phase(String ns, String name, ControllerStatus.Phase phase) {
    Controller cell = cell(ns, name);
    ControllerStatus status = cell.getStatus() == null ? new ControllerStatus() : cell.getStatus();
    status.phase = phase;
    cell.setStatus(status);
    admin.resource(cell).updateStatus();
  }

  /** Annotates the pool's cell (an event of the pool's own informer), so the pool reconciles at the moved clock. */
  private void touch(String ns, String cell) {
    admin.resources(Controller.class).inNamespace(ns).withName(cell).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"test/clock\":\"" + clock.instant() + "\"}}}");
  }

  private CellPool awaitPool(String ns, String name, Predicate<CellPoolStatus> condition) {
    return await().atMost(DEADLINE).until(() -> admin.resources(CellPool.class).inNamespace(ns).withName(name).get(),
        p -> p != null && p.getStatus() != null && condition.test(p.getStatus()));
  }

  private Team awaitTeam(String ns, String name, Predicate<TeamStatus> condition) {
    return await().atMost(DEADLINE).until(() -> admin.resources(Team.class).inNamespace(ns).withName(name).get(),
        t -> t != null && t.getStatus() != null && condition.test(t.getStatus()));
  }

  private ActivityEvent awaitActivity(Predicate<ActivityEvent> match) {
    return await().atMost(DEADLINE).until(() -> activity.stream().filter(match).findFirst().orElse(null),
        e -> e != null);
  }

  /** What each cell's mite observes: queued and running builds; a cell never observed has no mite. */
  private static final class ObservedJenkins implements JenkinsOfController {
    private final Map<String, ObservedState> observed = new ConcurrentHashMap<>();

    void observe(Controller cell, int queued, int running) {
      observed.put(cell.getMetadata().getUid(), ObservedState.newBuilder().setJenkinsReachable(true)
          .setQueuedBuilds(queued).setRunningBuilds(running).build());
    }

    @Override
    public Optional<MiteRoute> route(ControllerIdentity controller) {
      return Optional.ofNullable(observed.get(controller.uid()))
          .map(o -> MiteRoute.newBuilder().setObserved(o).build());
    }

    @Override
    public void oneShot(ControllerIdentity controller, OneShot.Action action, String commandId, Instant deadline) {}
  }
}

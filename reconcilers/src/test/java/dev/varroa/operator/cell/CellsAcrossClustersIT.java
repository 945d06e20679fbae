package dev.varroa.operator.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.store.RecordStore;
import dev.varroa.recorder.store.TeamPlacementReader.Placement;
import dev.varroa.recorder.store.TeamPlacementReader;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.KubeApiServerExtension;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Cells on two clusters' API servers, one NATS, the core's recorder on a real PostgreSQL: each cluster's operator
 * places its own teams and the core record store holds every cluster's placement (seed 002: a member runs no
 * recorder), unchanged when the member's operator restarts.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CellsAcrossClustersIT {
  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private Recorder recorder;
  private RecordStore store;
  private Connection bus;
  private KubernetesClient core;
  private KubernetesClient member;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    PostgresServer postgres = POSTGRES.server();
    RecorderSettings settings = RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0);
    recorder = Recorder.start(settings);
    store = RecordStore.open(settings);
    bus = NATS.server().connect();
    core = kube.client();
    member = MEMBER_API.server().client();
    for (KubernetesClient client : List.of(core, member)) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("tenants").endMetadata()
          .build()).serverSideApply();
    }
  }

  @AfterAll
  void stop() throws Exception {
    bus.close();
    store.close();
    recorder.close();
  }

  @Test
  void everyClustersPlacementReachesTheCoreRecordStoreAndSurvivesAMemberRestart() throws Exception {
    Operator coreOperator = operator(core, "core");
    Operator memberOperator = operator(member, "member-eu1");
    try {
      member.resource(pool("shared", 3, 3)).create();
      core.resource(pool("shared", 1, 10)).create();
      for (int i = 1; i <= 7; i++) {
        member.resource(team("team-" + i)).create();
      }
      core.resource(team("team-1")).create();
      core.resource(team("platform")).create();

      TeamPlacementReader reader = new TeamPlacementReader(store.dataSource());
      List<Placement> memberRows = await().atMost(DEADLINE).until(() -> reader.inCluster("member-eu1"),
          rows -> rows.size() == 7);
      Map<String, Team> memberTeams = placedTeams(member, 7);
      assertThat(memberRows).allSatisfy(row -> {
        Team team = memberTeams.get(row.team());
        assertThat(row.namespace()).isEqualTo("tenants");
        assertThat(row.pool()).isEqualTo("shared");
        assertThat(row.cell()).isEqualTo(team.getStatus().cell);
        assertThat(row.since()).isEqualTo(Instant.parse(team.getStatus().placedSince));
      });
      List<Placement> coreRows = await().atMost(DEADLINE).until(() -> reader.inCluster("core"),
          rows -> rows.size() == 2);
      assertThat(coreRows).extracting(Placement::team, Placement::cell)
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("team-1", "shared-0"),
              org.assertj.core.groups.Tuple.tuple("platform", "shared-0"));

      memberOperator.stop();
      memberOperator = operator(member, "member-eu1");
      member.resource(team("team-8")).create();
      List<Placement> after = await().atMost(DEADLINE).until(() -> reader.inCluster("member-eu1"),
          rows -> rows.size() == 8);
      Map<String, Placement> byTeam = after.stream().collect(Collectors.toMap(Placement::team, p -> p));
      memberRows.forEach(row -> assertThat(byTeam.get(row.team())).as(row.team() + " kept its cell and since")
          .isEqualTo(row));
      assertThat(reader.inCluster("core")).containsExactlyInAnyOrderElementsOf(coreRows);
    } finally {
      coreOperator.stop();
      memberOperator.stop();
    }
  }

  private Operator operator(KubernetesClient client, String cluster) {
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new CellPoolReconciler(Clock.systemUTC(), JenkinsOfController.NONE,
        new ActivityPublisher(() -> bus, cluster, "operator", Clock.systemUTC()),
        new RecorderTeamPlacements(bus, cluster), Optional.empty()), c -> c.settingNamespace("tenants"));
    operator.register(new TeamReconciler(Clock.systemUTC()), c -> c.settingNamespace("tenants"));
    operator.start();
    return operator;
  }

  private static Map<String, Team> placedTeams(KubernetesClient client, int count) {
    return await().atMost(DEADLINE).until(() -> client.resources(Team.class).inNamespace("tenants").list().getItems()
        .stream().filter(t -> t.getStatus() != null && t.getStatus().phase == TeamStatus.Phase.Placed)
        .collect(Collectors.toMap(t -> t.getMetadata().getName(), t -> t)), m -> m.size() == count);
  }

  private static CellPool pool(String name, int replicas, int teamsPerCell) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: %s, namespace: tenants}
        spec: {replicas: %d, teamsPerCell: %d, template: {spec: {}}}
        """.formatted(name, replicas, teamsPerCell), CellPool.class);
  }

  private static Team team(String name) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: tenants}
        spec:
          pool: shared
          pipelines: [{name: build, repository: "https://git.example.com/%s.git"}]
        """.formatted(name, name), Team.class);
  }
}

package dev.varroa.operator.bffresponders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.CellPoolStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.CellPoolRow;
import dev.varroa.protocol.bus.v1.CellPoolRows;
import dev.varroa.protocol.bus.v1.CellPoolsRequest;
import dev.varroa.protocol.bus.v1.PipelineRow;
import dev.varroa.protocol.bus.v1.TeamRow;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cell pool rows a BFF asks a cluster's operator for, on a real API server and a real NATS: every CellPool with
 * its cells, hosted teams and unplaced teams, every Team with its placement, one namespace on request, a status change
 * seen without asking, and no call to the API server per request (the answers come from the informers). No cell
 * reconciler runs: the test writes the status it would write.
 */
@WithKubeApiServer
class CellPoolListResponderIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final Duration ANSWER = Duration.ofSeconds(5);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void answersWithEveryPoolAndTeamFromItsCaches(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    for (String namespace : List.of("tenant-a", "tenant-b")) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    CellPool builds = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: builds, namespace: tenant-a}
        spec: {replicas: 2, teamsPerCell: 4, template: {spec: {}}}
        """, CellPool.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: small, namespace: tenant-b}
        spec: {template: {spec: {}}}
        """, CellPool.class)).create();
    Team payments = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: payments, namespace: tenant-a}
        spec:
          pool: builds
          pipelines:
            - {name: api, repository: "https://git.example/payments/api.git"}
            - {name: web, repository: "https://git.example/payments/web.git"}
        """, Team.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: search, namespace: tenant-b}
        spec: {pool: small}
        """, Team.class)).create();

    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube);
        Connection operatorBus = NATS.server().connect(); Connection bff = NATS.server().connect();
        CellPoolListResponder responder = CellPoolListResponder.informing(counted, operatorBus, "eu-1")) {
      responder.start();
      operatorBus.flush(DEADLINE);
      CellPoolRows all = await().atMost(DEADLINE).until(() -> rows(bff, ""),
          rows -> rows.getPoolsCount() == 2 && rows.getTeamsCount() == 2);
      // from here on every answer must come from the informers
      counter.reset();
      assertThat(all.getCluster()).isEqualTo("eu-1");
      assertThat(all.getPoolsList()).extracting(p -> p.getNamespace() + "/" + p.getName())
          .containsExactly("tenant-a/builds", "tenant-b/small");
      CellPoolRow fresh = all.getPools(0);
      assertThat(fresh.getReplicas()).isEqualTo(2);
      assertThat(fresh.getTeamsPerCell()).isEqualTo(4);
      assertThat(fresh.getCellsCount()).as("no status yet").isZero();
      assertThat(all.getPools(1).getTeamsPerCell()).as("the CRD's default").isEqualTo(10);
      assertThat(all.getPools(1).getReplicas()).as("the CRD's default").isEqualTo(1);
      TeamRow pending = all.getTeams(0);
      assertThat(pending.getName()).isEqualTo("payments");
      assertThat(pending.getPool()).isEqualTo("builds");
      assertThat(pending.getPipelines()).isEqualTo(2);
      assertThat(pending.getPhase()).isEmpty();
      assertThat(pending.getPipelineRowsList()).as("asked without pipelines").isEmpty();
      assertThat(pipelineRows(bff).getTeams(0).getPipelineRowsList()).extracting(PipelineRow::getJob)
          .containsExactly("payments/api", "payments/web");

      // the pool reconciler writes the pool's and the team's status: the next answer carries them, from the informers
      CellPoolStatus status = new CellPoolStatus();
      status.replicas = 2;
      status.readyReplicas = 1;
      status.placedTeams = 1;
      status.unplacedTeams = List.of("late");
      status.cells = List.of(cell("builds-0", "Connected", List.of("payments"), null),
          cell("builds-1", "Provisioning", List.of(), true));
      builds.setStatus(status);
      client.resource(builds).updateStatus();
      TeamStatus placed = new TeamStatus();
      placed.phase = TeamStatus.Phase.Placed;
      placed.cell = "builds-0";
      placed.placedSince = "2026-12-05T00:00:00Z";
      payments.setStatus(placed);
      client.resource(payments).updateStatus();

      CellPoolRows tenantA = await().atMost(DEADLINE).until(() -> rows(bff, "tenant-a"),
          rows -> rows.getPoolsCount() == 1 && rows.getPools(0).getCellsCount() == 2
              && rows.getTeams(0).getPhase().equals("Placed"));
      assertThat(tenantA.getTeamsList()).extracting(TeamRow::getName).containsExactly("payments");
      CellPoolRow pool = tenantA.getPools(0);
      assertThat(pool.getReadyReplicas()).isEqualTo(1);
      assertThat(pool.getUnplacedTeamsList()).containsExactly("late");
      assertThat(pool.getCells(0).getName()).isEqualTo("builds-0");
      assertThat(pool.getCells(0).getPhase()).isEqualTo("Connected");
      assertThat(pool.getCells(0).getTeamsList()).containsExactly("payments");
      assertThat(pool.getCells(0).getDraining()).isFalse();
      assertThat(pool.getCells(1).getDraining()).isTrue();
      TeamRow team = tenantA.getTeams(0);
      assertThat(team.getCell()).isEqualTo("builds-0");
      assertThat(team.getPlacedSince()).isEqualTo("2026-12-05T00:00:00Z");
      assertThat(rows(bff, "nowhere").getPoolsCount()).isZero();

      assertThat(counter.of(RequestCounter.Kind.LIST)).isEmpty();
      assertThat(counter.of(RequestCounter.Kind.GET)).isEmpty();
    }
  }

  private static CellPoolStatus.Cell cell(String name, String phase, List<String> teams, Boolean draining) {
    CellPoolStatus.Cell cell = new CellPoolStatus.Cell();
    cell.name = name;
    cell.phase = phase;
    cell.teams = teams;
    cell.draining = draining;
    return cell;
  }

  private static CellPoolRows pipelineRows(Connection bff) throws Exception {
    return CellPoolRows.parseFrom(bff.request(BusNames.clusterCellPools("eu-1"), CellPoolsRequest.newBuilder()
        .setPipelines(true).build().toByteArray(), ANSWER).getData());
  }

  private static CellPoolRows rows(Connection bff, String namespace) throws Exception {
    return CellPoolRows.parseFrom(bff.request(BusNames.clusterCellPools("eu-1"), CellPoolsRequest.newBuilder()
        .setNamespace(namespace).build().toByteArray(), ANSWER).getData());
  }
}

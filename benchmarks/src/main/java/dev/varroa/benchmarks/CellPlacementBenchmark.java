package dev.varroa.benchmarks;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.benchmarks.channel.FleetPhase;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.operator.cell.CellPoolReconciler;
import dev.varroa.operator.cell.PlacementRecord;
import dev.varroa.operator.cell.TeamReconciler;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 29's placement figures: one CellPool of 50 cells (10 teams each) on a real kube-apiserver and etcd, then 500
 * Teams created at once; the CellPool and Team reconcilers (a real JOSDK Operator in this JVM, the record store left
 * out) place them. Measured: the time from the first Team created to every Team reporting Placed, and the writes the
 * operator's client sent per team; then the operator is restarted and the writes it sends for an unchanged placement
 * are counted. Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 */
public final class CellPlacementBenchmark {
  private static final int CELLS = 50;
  private static final int TEAMS_PER_CELL = 10;
  private static final int TEAMS = 500;
  private static final String NAMESPACE = "tenants";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private CellPlacementBenchmark() {}

  public static void main(String[] args) throws Exception {
    int teams = args.length > 0 ? Integer.parseInt(args[0]) : TEAMS;
    int cells = args.length > 1 ? Integer.parseInt(args[1]) : CELLS;
    Map<String, String> figures = new LinkedHashMap<>();
    try (Teardown teardown = new Teardown()) {
      run(teardown, teams, cells, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    System.exit(0);
  }

  private static void run(Teardown teardown, int teams, int cells, Map<String, String> figures) throws Exception {
    System.out.printf("machine: %d cores, %s, load average %s (other work on this machine shares the cores)%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), loadAverage());
    KubeApiServer kube = teardown.add(KubeApiServer.start());
    kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
    KubernetesClient admin = kube.client();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    WriteCounter writes = new WriteCounter();
    KubernetesClient operatorClient = new KubernetesClientBuilder()
        .withConfig(Config.fromKubeconfig(kube.kubeconfigYaml()))
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("cell-bench-writes", writes)).build();
    teardown.then(operatorClient::close);
    SharedIndexInformer<Team> placed = admin.resources(Team.class).inNamespace(NAMESPACE).inform();
    teardown.then(placed::close);

    Operator operator = operator(operatorClient);
    admin.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: shared, namespace: %s}
        spec: {replicas: %d, teamsPerCell: %d, template: {spec: {}}}
        """.formatted(NAMESPACE, cells, TEAMS_PER_CELL), CellPool.class)).create();
    DashboardBenchmark.await(cells + " cells made", () -> admin.resources(dev.varroa.api.v1alpha1.Controller.class)
        .inNamespace(NAMESPACE).list().getItems().size() == cells);
    writes.reset();

    long start = System.nanoTime();
    FleetPhase.run("create Teams", teams, 16, i -> admin.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec:
          pool: shared
          pipelines: [{name: build, repository: "https://git.example.com/t%d.git"}]
        """.formatted(String.format("team-%04d", i), NAMESPACE, i), Team.class)).create()).requireAllDone();
    double created = seconds(System.nanoTime() - start);
    DashboardBenchmark.await("every Team Placed", () -> placed.getStore().list().stream()
        .filter(t -> t.getStatus() != null && t.getStatus().phase == TeamStatus.Phase.Placed).count() == teams);
    double wall = seconds(System.nanoTime() - start);
    long placementWrites = writes.total();
    long cellApplies = writes.cells.get();
    System.out.printf("%d Teams created in %.1f s; every Team Placed %.1f s after the first was created%n", teams,
        created, wall);
    System.out.printf("writes by the operator: %d cell applies, %d pool status, %d team status (%.2f per team)%n",
        writes.cells.get(), writes.poolStatus.get(), writes.teamStatus.get(), placementWrites / (double) teams);
    Map<String, Long> load = new java.util.TreeMap<>();
    placed.getStore().list().forEach(t -> load.merge(t.getStatus().cell, 1L, Long::sum));
    long most = load.values().stream().mapToLong(Long::longValue).max().orElse(0);
    long least = load.values().stream().mapToLong(Long::longValue).min().orElse(0);
    System.out.printf("teams per cell: %d to %d over %d cells%n", least, most, load.size());

    operator.stop();
    writes.reset();
    long restart = System.nanoTime();
    CellPoolReconciler pools = new CellPoolReconciler(Clock.systemUTC(), JenkinsOfController.NONE,
        ActivityPublisher.withoutBus("bench", "operator"), PlacementRecord.NONE, Optional.empty());
    Operator again = operator(operatorClient, pools);
    teardown.then(again::stop);
    // a pass over the pool after the restart: an annotation on one cell reaches the pool through its informer
    admin.resources(dev.varroa.api.v1alpha1.Controller.class).inNamespace(NAMESPACE).withName("shared-0")
        .edit(c -> {
          c.getMetadata().setAnnotations(Map.of("bench/touch", "1"));
          return c;
        });
    DashboardBenchmark.await("a pass of the restarted operator over the pool", () -> pools.lastPassAt() != null);
    long quietSince = System.nanoTime();
    long seen = writes.total();
    // the restarted operator also looks at every Team once: counted once no write came for 2 s
    while (System.nanoTime() - quietSince < 2_000_000_000L) {
      Thread.sleep(100);
      if (writes.total() != seen) {
        seen = writes.total();
        quietSince = System.nanoTime();
      }
    }
    System.out.printf("after an operator restart, once quiet for 2 s: %d writes (%d cell applies, %d pool status, %d team"
        + " status, %d other: the pool's egress policy is deleted once per start when cellIsolation is off)%n",
        writes.total(), writes.cells.get(), writes.poolStatus.get(), writes.teamStatus.get(), writes.other.get());
    figures.put("cells_placement_wall_" + teams + "_teams_" + cells + "_cells", String.format("%.1f s", wall));
    figures.put("cells_placement_writes_per_team", String.format("%.2f count", placementWrites / (double) teams));
    figures.put("cells_cell_applies_per_team", String.format("%.2f count", cellApplies / (double) teams));
    figures.put("cells_writes_after_restart", writes.total() + " count");
    figures.put("cells_teams_per_cell_spread", (most - least) + " teams");
    figures.put("cells_restart_seconds_observed", String.format("%.1f s", seconds(System.nanoTime() - restart)));
  }

  private static Operator operator(KubernetesClient client) {
    return operator(client, new CellPoolReconciler(Clock.systemUTC(), JenkinsOfController.NONE,
        ActivityPublisher.withoutBus("bench", "operator"), PlacementRecord.NONE, Optional.empty()));
  }

  private static Operator operator(KubernetesClient client, CellPoolReconciler pools) {
    Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(pools, c -> c.settingNamespace(NAMESPACE));
    operator.register(new TeamReconciler(Clock.systemUTC()), c -> c.settingNamespace(NAMESPACE));
    operator.start();
    return operator;
  }

  /** Counts the writes the operator's client sends, by what they write. */
  private static final class WriteCounter implements Interceptor {
    final AtomicLong cells = new AtomicLong();
    final AtomicLong poolStatus = new AtomicLong();
    final AtomicLong teamStatus = new AtomicLong();
    final AtomicLong other = new AtomicLong();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      if ("GET".equals(request.method())) {
        return;
      }
      String path = request.uri().getPath();
      if (path.contains("/controllers/")) {
        cells.incrementAndGet();
      } else if (path.contains("/cellpools/") && path.endsWith("/status")) {
        poolStatus.incrementAndGet();
      } else if (path.contains("/teams/") && path.endsWith("/status")) {
        teamStatus.incrementAndGet();
      } else {
        other.incrementAndGet();
      }
    }

    long total() {
      return cells.get() + poolStatus.get() + teamStatus.get() + other.get();
    }

    void reset() {
      cells.set(0);
      poolStatus.set(0);
      teamStatus.set(0);
      other.set(0);
    }
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (Exception e) {
      return "unknown";
    }
  }
}

package dev.varroa.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.benchmarks.latency.Percentiles;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import io.nats.client.Dispatcher;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * Issue 27's fleet-view figure: GET /controllers across two clusters of 1,000 Controllers each, each on its own real
 * kube-apiserver and etcd, both operators' list responders and beacons on one nats-server, the BFF in its own JVM
 * (the same stack as {@link DashboardBenchmark}). Then a third cluster registers and never answers a list: every
 * request waits for it until the BFF's member timeout ({@link DashboardReads#CLUSTER_ANSWER_WAIT}) and names it.
 * Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 */
public final class MemberClustersListBenchmark {

  private static final int CONTROLLERS_PER_CLUSTER = 1_000;
  private static final String MEMBER = "member-1";
  private static final String SILENT = "member-2";
  private static final int WARMUP = 50;
  private static final int SAMPLES = 300;
  private static final int SILENT_SAMPLES = 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private MemberClustersListBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int perCluster = args.length > 0 ? Integer.parseInt(args[0]) : CONTROLLERS_PER_CLUSTER;
    Map<String, String> figures = new LinkedHashMap<>();
    try (Teardown teardown = new Teardown()) {
      run(teardown, perCluster, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    // the fabric8 and NATS clients leave non-daemon threads behind; the teardown has stopped what matters.
    System.exit(0);
  }

  private static void run(Teardown teardown, int perCluster, Map<String, String> figures) throws Exception {
    DashboardBenchmark.Stack stack = DashboardBenchmark.start(teardown, perCluster);

    KubeApiServer memberKube = teardown.add(KubeApiServer.start());
    memberKube.installCrds(ProjectLayout.root().resolve("chart/crds"));
    long created = System.nanoTime();
    DashboardBenchmark.createFleet(memberKube.client(), perCluster);
    System.out.printf("member %s: %d Controllers on a second kube-apiserver created in %.1f s%n", MEMBER, perCluster,
        (System.nanoTime() - created) / 1e9);
    DashboardBenchmark.operatorSide(teardown, stack.bus(), memberKube.client(), MEMBER, ClusterRole.MEMBER,
        perCluster);

    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(stack.base() + "/controllers"))
        .header("Authorization", "Bearer " + stack.token()).timeout(Duration.ofSeconds(10)).build();
    DashboardBenchmark.await("the BFF lists both clusters", () -> answered(http, request, 2 * perCluster, 2));

    List<Duration> both = timed(http, request, WARMUP, SAMPLES, 2 * perCluster);
    Duration p50 = Percentiles.of(both, 0.50);
    Duration p95 = Percentiles.of(both, 0.95);
    System.out.printf("%nGET /controllers, 2 clusters x %d Controllers, %d requests one after another: p50 %.1f ms, "
        + "p95 %.1f ms, max %.1f ms%n", perCluster, SAMPLES, DashboardBenchmark.millis(p50),
        DashboardBenchmark.millis(p95), DashboardBenchmark.millis(Percentiles.of(both, 1.0)));

    // A member that registered and keeps its heartbeat but whose list never comes. Gone from the bus (no responder
    // subscribed), NATS says so at once; subscribed but hung, the BFF waits for it until the member timeout.
    ClusterBeacon silent = new ClusterBeacon(stack::bus, SILENT, ClusterRole.MEMBER, () -> "v1.34.4",
        () -> List.<Controller>of(), Clock.systemUTC());
    silent.start();
    teardown.then(silent::close);
    DashboardBenchmark.await("the BFF names the silent member", () -> answered(http, request, 2 * perCluster, 3));
    System.out.printf("the silent member is named: %s%n",
        silentAnswer(http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body()));
    List<Duration> gone = timed(http, request, 0, SILENT_SAMPLES, 2 * perCluster);
    report("gone from the bus (no responder)", gone);

    Dispatcher hung = stack.bus().createDispatcher(message -> { });
    hung.subscribe(BusNames.clusterControllers(SILENT));
    stack.bus().flush(Duration.ofSeconds(5));
    teardown.then(() -> stack.bus().closeDispatcher(hung));
    List<Duration> waited = timed(http, request, 0, SILENT_SAMPLES, 2 * perCluster);
    System.out.printf("the hung member is named: %s%n",
        silentAnswer(http.send(request, HttpResponse.BodyHandlers.ofByteArray()).body()));
    report("subscribed but hung", waited);

    Duration budget = DashboardReads.CLUSTER_ANSWER_WAIT.plusMillis(50);
    figures.put("controllers_list_2_clusters_p50", String.format("%.1f ms", DashboardBenchmark.millis(p50)));
    figures.put("controllers_list_2_clusters_p95", String.format("%.1f ms", DashboardBenchmark.millis(p95)));
    figures.put("controllers_list_member_gone_p95", String.format("%.1f ms",
        DashboardBenchmark.millis(Percentiles.of(gone, 0.95))));
    figures.put("controllers_list_member_hung_p95", String.format("%.1f ms",
        DashboardBenchmark.millis(Percentiles.of(waited, 0.95))));
    figures.put("controllers_list_member_hung_p95_over_timeout", String.format("%.1f ms",
        DashboardBenchmark.millis(Percentiles.of(waited, 0.95)) - DashboardReads.CLUSTER_ANSWER_WAIT.toMillis()));
    figures.put("controllers_list_member_silent_within_budget",
        String.valueOf(Percentiles.of(gone, 0.95).compareTo(budget) <= 0
            && Percentiles.of(waited, 0.95).compareTo(budget) <= 0));
  }

  private static void report(String how, List<Duration> timings) {
    System.out.printf("GET /controllers with %s %s, %d requests: p50 %.1f ms, p95 %.1f ms, max %.1f ms (target: "
        + "within the member timeout %d ms + 50 ms)%n", SILENT, how, timings.size(),
        DashboardBenchmark.millis(Percentiles.of(timings, 0.50)), DashboardBenchmark.millis(Percentiles.of(timings, 0.95)),
        DashboardBenchmark.millis(Percentiles.of(timings, 1.0)), DashboardReads.CLUSTER_ANSWER_WAIT.toMillis());
  }

  /** True once the list holds {@code rows} rows and names {@code clusters} clusters. */
  private static boolean answered(HttpClient http, HttpRequest request, int rows, int clusters) {
    try {
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      JsonNode body = JSON.readTree(response.body());
      return response.statusCode() == 200 && body.path("items").size() == rows
          && body.path("clusters").size() == clusters;
    } catch (Exception notYet) {
      return false;
    }
  }

  private static List<Duration> timed(HttpClient http, HttpRequest request, int warmup, int samples, int rows)
      throws Exception {
    List<Duration> timings = new ArrayList<>(samples);
    for (int i = 0; i < warmup + samples; i++) {
      long start = System.nanoTime();
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      int listed = JSON.readTree(response.body()).path("items").size();
      if (response.statusCode() != 200 || listed != rows) {
        throw new IllegalStateException("GET /controllers answered " + response.statusCode() + " with " + listed
            + " rows, not " + rows);
      }
      if (i >= warmup) {
        timings.add(took);
      }
    }
    return timings;
  }

  /** The silent member's entry in the answer's clusters, which must say ok: false and why. */
  private static JsonNode silentAnswer(byte[] body) throws Exception {
    JsonNode clusters = JSON.readTree(body).path("clusters");
    JsonNode silent = StreamSupport.stream(clusters.spliterator(), false)
        .filter(c -> SILENT.equals(c.path("name").asText())).findFirst()
        .orElseThrow(() -> new IllegalStateException("the answer does not name " + SILENT + ": " + clusters));
    if (silent.path("ok").asBoolean() || silent.path("reason").asText().isEmpty()) {
      throw new IllegalStateException(SILENT + " is not named as unavailable: " + silent);
    }
    return silent;
  }
}

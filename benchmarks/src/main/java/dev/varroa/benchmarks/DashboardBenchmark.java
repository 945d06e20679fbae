package dev.varroa.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.benchmarks.bff.ActivityStreams;
import dev.varroa.benchmarks.channel.ChildJvm;
import dev.varroa.benchmarks.channel.FleetPhase;
import dev.varroa.benchmarks.channel.ModuleClasspath;
import dev.varroa.benchmarks.channel.ProcessGauge;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.benchmarks.latency.Percentiles;
import dev.varroa.operator.access.AccessPolicyPublisher;
import dev.varroa.operator.bffresponders.ControllerListResponder;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProvider;
import dev.varroa.testfixtures.oidc.OidcProviderProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Issue 13's BFF figures, against real components: a kube-apiserver holding 1,000 Controllers (a share with a status,
 * so phase and attention vary), nats-server with JetStream, the OpenID provider (zitadel/oidc's example server), and
 * the BFF in a JVM of its own on its runtime classpath. The operator's side of the bus runs in this JVM as the operator
 * wires it: the controller list responder and the cluster beacon over an informer cache of Controllers, and the access
 * policy publisher over VarroaRoles and VarroaRoleBindings. Measures GET /controllers (bearer token, loopback), the
 * fan-out of live activity to 500 SSE clients (published and received here, one clock), and the BFF's heap.
 * Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 */
public final class DashboardBenchmark {

  private static final int CONTROLLERS = 1_000;
  private static final int NAMESPACES = 10;
  private static final int LIST_WARMUP = 100;
  private static final int LIST_SAMPLES = 500;
  private static final int BUS_SAMPLES = 300;
  private static final int STREAMS = 500;
  private static final int STREAM_CLIENTS = 4;
  private static final int PROBES = 200;
  private static final Duration PROBE_EVERY = Duration.ofMillis(100);
  /** The demo's heap for the BFF; the chart sets no heap flag (see docs/benchmarks.md). */
  private static final List<String> BFF_JVM_FLAGS = List.of("-Xmx256m");
  private static final Duration DEADLINE = Duration.ofSeconds(120);
  static final String CLUSTER = "bench";
  static final String USER = "bench";
  static final String PASSWORD = "bench-password";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();

  private DashboardBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int controllers = args.length > 0 ? Integer.parseInt(args[0]) : CONTROLLERS;
    int streams = args.length > 1 ? Integer.parseInt(args[1]) : STREAMS;
    Map<String, String> figures = new LinkedHashMap<>();
    try (Teardown teardown = new Teardown()) {
      run(teardown, controllers, streams, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    // the fabric8 and NATS clients leave non-daemon threads behind; the teardown has stopped what matters.
    System.exit(0);
  }

  /** The fleet, the operator's side of the bus, the provider and the BFF in its own JVM: what both harnesses read. */
  record Stack(String base, OidcProvider oidc, String callback, Connection bus, ChildJvm bff, ProcessGauge gauge) {
    String token() throws Exception {
      return BrowserLogin.login(oidc, callback, USER, PASSWORD).idToken();
    }
  }

  static Stack start(Teardown teardown, int count) throws Exception {
    System.out.printf("machine: %d cores, %s, load average %s%n", Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vm.version"), loadAverage());
    Path logs = Files.createDirectories(ProjectLayout.root().resolve("benchmarks/target/bff-benchmark"));
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-bff-"));

    KubeApiServer kube = teardown.add(KubeApiServer.start());
    kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
    KubernetesClient client = kube.client();
    long created = System.nanoTime();
    createFleet(client, count);
    System.out.printf("%d Controllers in %d namespaces (%d with a status) created in %.1f s%n", count, NAMESPACES,
        withStatus(count), (System.nanoTime() - created) / 1e9);

    NatsServerProcess nats = teardown.add(NatsServerProcess.start());
    Connection bus = nats.value().connect();
    teardown.then(bus::close);
    BusTopology.ensureActivity(bus);

    operatorSide(teardown, bus, client, CLUSTER, ClusterRole.CORE, count);
    AccessPolicyPublisher policy = new AccessPolicyPublisher(() -> bus, client, Clock.systemUTC());
    policy.start();
    teardown.then(policy::close);
    await("the access policy is published", () -> {
      try {
        return bus.keyValueManagement().getBucketNames().contains(BusNames.ACCESS_BUCKET)
            && bus.keyValue(BusNames.ACCESS_BUCKET).get(BusNames.ACCESS_POLICY_KEY) != null;
      } catch (Exception e) {
        return false;
      }
    });

    int port = LoopbackPort.pickFree();
    String callback = "http://localhost:" + port + "/auth/callback";
    OidcProviderProcess oidc = teardown.add(OidcProviderProcess.start(
        List.of(new OidcProvider.User(USER, USER, PASSWORD, USER + "@example.com")), List.of(callback)));
    ChildJvm bff = teardown.add(startBff(work.path(), logs, port, nats.value().url(), oidc.value()));
    System.out.printf("BFF %s, %s, NATS %s, issuer %s%n", bff, BFF_JVM_FLAGS, nats.value().url(),
        oidc.value().issuer());
    return new Stack("http://127.0.0.1:" + port, oidc.value(), callback, bus, bff, new ProcessGauge(bff.pid()));
  }

  /** One cluster's operator side of the bus, as VarroaOperator.registerCluster wires it: list responder and beacon. */
  static void operatorSide(Teardown teardown, Connection bus, KubernetesClient client, String cluster, ClusterRole role,
      int count) throws Exception {
    SharedIndexInformer<Controller> cache = client.resources(Controller.class).inAnyNamespace().inform();
    teardown.then(cache::close);
    await("the informer of " + cluster + " holds every Controller", () -> cache.getStore().list().size() == count
        && cache.getStore().list().stream().filter(c -> c.getStatus() != null).count() == withStatus(count));
    ControllerListResponder responder = new ControllerListResponder(bus, cluster, cache.getStore()::list);
    responder.start();
    teardown.then(responder::close);
    String kubernetesVersion = client.getKubernetesVersion().getGitVersion();
    ClusterBeacon beacon = new ClusterBeacon(() -> bus, cluster, role, () -> kubernetesVersion,
        cache.getStore()::list, Clock.systemUTC());
    beacon.start();
    teardown.then(beacon::close);
  }

  private static void run(Teardown teardown, int count, int streamCount, Map<String, String> figures)
      throws Exception {
    Stack stack = start(teardown, count);
    ChildJvm bff = stack.bff();
    Connection bus = stack.bus();
    ProcessGauge gauge = stack.gauge();
    ProcessGauge.HeapFigures idle = gauge.heapAfterFullGc();
    long idleRss = gauge.residentKib();
    System.out.printf("BFF idle after start: heap after a full GC %d KiB, resident %d KiB%n", idle.heapUsedKib(),
        idleRss);

    String base = stack.base();
    listPhase(base, stack.token(), bus, count, figures);
    ProcessGauge.HeapFigures listed = gauge.heapAfterFullGc();
    long listedRss = gauge.residentKib();
    System.out.printf("BFF after the list phase: heap after a full GC %d KiB, resident %d KiB%n",
        listed.heapUsedKib(), listedRss);
    bff.requireAlive();

    ProcessGauge.HeapFigures streaming;
    long streamingRss;
    try (ActivityStreams streams = new ActivityStreams(URI.create(base + "/activity/stream"),
        stack.token(), streamCount, STREAM_CLIENTS, PROBES)) {
      ssePhase(bus, streams, streamCount, count, figures);
      streaming = gauge.heapAfterFullGc();
      streamingRss = gauge.residentKib();
      System.out.printf("BFF with %d SSE streams open: heap after a full GC %d KiB, resident %d KiB (%.1f KiB a "
          + "stream over the list phase's heap)%n", streamCount, streaming.heapUsedKib(), streamingRss,
          (streaming.heapUsedKib() - listed.heapUsedKib()) / (double) streamCount);
      if (streams.firstProblem() != null) {
        throw new IllegalStateException(streams.firstProblem() + "; BFF log " + bff.log());
      }
    }
    bff.requireAlive();
    figures.put("bff_heap_idle", idle.heapUsedKib() + " KiB");
    figures.put("bff_heap_" + count + "_controllers_listed", listed.heapUsedKib() + " KiB");
    figures.put("bff_heap_" + streamCount + "_sse_streams", streaming.heapUsedKib() + " KiB");
    figures.put("bff_heap_per_sse_stream", String.format("%.1f KiB",
        (streaming.heapUsedKib() - listed.heapUsedKib()) / (double) streamCount));
    figures.put("bff_rss_idle", idleRss + " KiB");
    figures.put("bff_rss_" + count + "_controllers_listed", listedRss + " KiB");
    figures.put("bff_rss_" + streamCount + "_sse_streams", streamingRss + " KiB");
  }

  static int withStatus(int count) {
    return count - count / 4;
  }

  /** Namespaces team-00.., Controllers spread over them; three in four get a status the operator would write. */
  static void createFleet(KubernetesClient client, int count) throws Exception {
    for (int n = 0; n < NAMESPACES; n++) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace(n)).endMetadata()
          .build()).create();
    }
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: bench-reader}
        spec:
          rules:
            - verbs: [get, list, watch]
              resources: ["*"]
        """, VarroaRole.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRoleBinding
        metadata: {name: bench-reads-everything}
        spec:
          roleRef: {name: bench-reader}
          subjects: [{kind: User, name: %s}]
        """.formatted(USER), VarroaRoleBinding.class)).create();
    FleetPhase.run("create Controllers", count, 8, i -> {
      Controller controller = client.resource(YAML.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: Controller
          metadata:
            name: %s
            namespace: %s
            labels: {tier: %s, team: %s}
          spec: {}
          """.formatted(name(i), namespace(i % NAMESPACES), i % 3 == 0 ? "prod" : "dev", namespace(i % NAMESPACES)),
          Controller.class)).create();
      if (i % 4 != 3) {
        controller.setStatus(status(i));
        client.resource(controller).updateStatus();
      }
    }).requireAllDone();
  }

  /** Phases and attention signals in a plausible mix: most Connected, a tenth needing attention. */
  private static ControllerStatus status(int i) {
    ControllerStatus status = new ControllerStatus();
    ControllerStatus.Phase[] phases = {ControllerStatus.Phase.Connected, ControllerStatus.Phase.Connected,
        ControllerStatus.Phase.Connected, ControllerStatus.Phase.Running, ControllerStatus.Phase.Provisioning,
        ControllerStatus.Phase.Hibernated, ControllerStatus.Phase.Failed};
    status.phase = phases[i % phases.length];
    String[] attention = {"Failed", "Blocked", "Apply failed", "Plugin roll failed"};
    if (status.phase == ControllerStatus.Phase.Failed) {
      status.attention = "Failed";
    } else if (i % 10 == 1) {
      status.attention = attention[1 + (i / 10) % 3];
    }
    status.bundle = namespace(i % NAMESPACES) + "-bundle";
    status.lastReconciledAt = "2026-12-01T20:00:00Z";
    status.url = "https://" + name(i) + "." + namespace(i % NAMESPACES) + ".jenkins.example.com/";
    status.miteStatus = new ControllerStatus.MiteStatus();
    status.miteStatus.connected = status.phase == ControllerStatus.Phase.Connected;
    status.miteStatus.jenkinsVersion = "2.504.3";
    ControllerStatus.ApplyResult apply = new ControllerStatus.ApplyResult();
    apply.succeeded = !"Apply failed".equals(status.attention);
    apply.message = apply.succeeded ? "applied" : "JCasC rejected unclassified.location: no such attribute";
    apply.bundleDigest = "sha256:" + "%064x".formatted(i);
    apply.appliedAt = "2026-12-01T19:59:00Z";
    status.lastApplyResult = apply;
    return status;
  }

  static String namespace(int n) {
    return String.format("team-%02d", n);
  }

  static String name(int i) {
    return String.format("jenkins-%04d", i);
  }

  private static ChildJvm startBff(Path work, Path logs, int port, String natsUrl, OidcProvider provider)
      throws Exception {
    Path secret = work.resolve("oidc-client-secret");
    Files.writeString(secret, OidcProvider.WEB_CLIENT_SECRET);
    Map<String, String> env = new LinkedHashMap<>();
    env.put("VARROA_HTTP_PORT", String.valueOf(port));
    env.put("VARROA_CLUSTER_NAME", CLUSTER);
    env.put("VARROA_NATS_URL", natsUrl);
    env.put("VARROA_RECORD_STORE_ENABLED", "false");
    env.put("VARROA_OIDC_ISSUER", provider.issuer());
    env.put("VARROA_OIDC_CLIENT_ID", OidcProvider.WEB_CLIENT_ID);
    env.put("VARROA_OIDC_CLIENT_SECRET_FILE", secret.toString());
    env.put("VARROA_OIDC_AUDIENCES", OidcProvider.WEB_CLIENT_ID);
    // the example provider's ID tokens carry no email claim: users are named by their subject
    env.put("VARROA_OIDC_USERNAME_CLAIM", "sub");
    env.put("VARROA_OIDC_SCOPES", "openid profile email");
    env.put("VARROA_BFF_PUBLIC_URL", "http://localhost:" + port);
    Path log = logs.resolve("bff-" + Instant.now().getEpochSecond() + ".log");
    ChildJvm jvm = ChildJvm.start("bff", BFF_JVM_FLAGS,
        String.join(File.pathSeparator, ModuleClasspath.of("dashboard", "varroa-dashboard")),
        "dev.varroa.dashboard.BffMain", env, log, Duration.ofSeconds(30));
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    await("the BFF answers /readyz", () -> {
      jvm.requireAlive();
      try {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz"))
            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      } catch (IOException notYet) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    });
    return jvm;
  }

  /** GET /controllers one request after another on one keep-alive connection; then the bus round trip alone. */
  private static void listPhase(String base, String token, Connection bus, int count, Map<String, String> figures)
      throws Exception {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/controllers"))
        .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build();
    HttpResponse<byte[]> first = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (first.statusCode() != 200) {
      throw new IllegalStateException("GET /controllers answered " + first.statusCode() + ": "
          + new String(first.body()));
    }
    JsonNode body = JSON.readTree(first.body());
    long attention = 0;
    for (JsonNode row : body.path("items")) {
      attention += row.path("attention").asText().isEmpty() ? 0 : 1;
    }
    if (body.path("items").size() != count || !body.path("clusters").path(0).path("ok").asBoolean()) {
      throw new IllegalStateException("GET /controllers lists " + body.path("items").size() + " rows, not " + count
          + "; clusters " + body.path("clusters"));
    }
    System.out.printf("%nGET /controllers: %d rows (%d needing attention), %d bytes; %d warm-up requests, then %d "
        + "timed, one after another%n", count, attention, first.body().length, LIST_WARMUP, LIST_SAMPLES);
    for (int i = 0; i < LIST_WARMUP; i++) {
      requireOk(http.send(request, HttpResponse.BodyHandlers.ofByteArray()), first.body().length);
    }
    List<Duration> samples = new ArrayList<>(LIST_SAMPLES);
    long phaseStart = System.nanoTime();
    for (int i = 0; i < LIST_SAMPLES; i++) {
      long start = System.nanoTime();
      HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      samples.add(Duration.ofNanos(System.nanoTime() - start));
      requireOk(response, first.body().length);
    }
    double seconds = (System.nanoTime() - phaseStart) / 1e9;
    Duration p50 = Percentiles.of(samples, 0.50);
    Duration p95 = Percentiles.of(samples, 0.95);
    System.out.printf("GET /controllers p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms (%.0f requests/s)%n",
        millis(p50), millis(p95), millis(Percentiles.of(samples, 0.99)), millis(Percentiles.of(samples, 1.0)),
        LIST_SAMPLES / seconds);

    // The same rows straight from the responder, without the BFF: the bus's and the operator's share of the request.
    List<Duration> direct = new ArrayList<>(BUS_SAMPLES);
    for (int i = 0; i < LIST_WARMUP + BUS_SAMPLES; i++) {
      long start = System.nanoTime();
      Message reply = bus.request(BusNames.clusterControllers(CLUSTER), new byte[0], Duration.ofSeconds(2));
      if (reply == null) {
        throw new IllegalStateException("the responder did not answer " + BusNames.clusterControllers(CLUSTER));
      }
      if (i >= LIST_WARMUP) {
        direct.add(Duration.ofNanos(System.nanoTime() - start));
      }
    }
    Duration busP50 = Percentiles.of(direct, 0.50);
    Duration busP95 = Percentiles.of(direct, 0.95);
    System.out.printf("the rows over NATS alone (request from here, %d samples): p50 %.1f ms, p95 %.1f ms: %.0f%% of "
        + "the BFF's p50%n", BUS_SAMPLES, millis(busP50), millis(busP95), 100 * millis(busP50) / millis(p50));
    figures.put("controllers_list_p50", String.format("%.1f ms", millis(p50)));
    figures.put("controllers_list_p95", String.format("%.1f ms", millis(p95)));
    figures.put("controllers_list_bytes", first.body().length + " bytes");
    figures.put("controllers_rows_over_nats_p50", String.format("%.1f ms", millis(busP50)));
    figures.put("controllers_rows_over_nats_p95", String.format("%.1f ms", millis(busP95)));
  }

  private static void requireOk(HttpResponse<byte[]> response, int bytes) {
    if (response.statusCode() != 200 || Math.abs(response.body().length - bytes) > bytes / 10) {
      throw new IllegalStateException("GET /controllers answered " + response.statusCode() + " with "
          + response.body().length + " bytes (the first had " + bytes + ")");
    }
  }

  /**
   * Opens the streams, waits until each has its subscription (a warm-up probe reached every one), then publishes the
   * timed probes through the operator's ActivityPublisher and waits for every delivery. A core subscription here
   * times the same probes off the bus: what the BFF adds is the difference.
   */
  private static void ssePhase(Connection bus, ActivityStreams streams, int streamCount, int controllers,
      Map<String, String> figures) throws Exception {
    long opening = System.nanoTime();
    await("every stream is open", () -> {
      failOnProblem(streams);
      return streams.count(ActivityStreams.Stream::opened) == streamCount;
    });
    System.out.printf("%n%d SSE streams on /activity/stream open in %.1f s (%d HttpClients)%n", streamCount,
        (System.nanoTime() - opening) / 1e9, STREAM_CLIENTS);
    ActivityPublisher publisher = new ActivityPublisher(() -> bus, CLUSTER, "operator", Clock.systemUTC());
    int[] warmups = {0};
    await("every stream receives a warm-up event", () -> {
      failOnProblem(streams);
      warmups[0]++;
      publisher.controller(namespace(0), name(0), "bench.warmup", "warm-up", Map.of(
          ActivityStreams.PROBE, "-1", ActivityStreams.SENT_NANOS, String.valueOf(System.nanoTime())));
      return streams.count(ActivityStreams.Stream::warmed) == streamCount;
    });
    Map<Integer, Long> busDelays = new ConcurrentHashMap<>();
    Dispatcher offTheBus = bus.createDispatcher(message -> {
      long now = System.nanoTime();
      try {
        var event = dev.varroa.protocol.activity.v1.ActivityEvent.parseFrom(message.getData());
        int probe = Integer.parseInt(event.getAttributesOrDefault(ActivityStreams.PROBE, "-1"));
        if (probe >= 0) {
          busDelays.put(probe, now - Long.parseLong(event.getAttributesOrThrow(ActivityStreams.SENT_NANOS)));
        }
      } catch (Exception e) {
        System.err.println("unreadable activity off the bus: " + e);
      }
    });
    offTheBus.subscribe(BusNames.activityFilter());
    bus.flush(Duration.ofSeconds(5));
    System.out.printf("%d warm-up events until every stream had one; now %d events, one every %d ms, each to %d "
        + "clients%n", warmups[0], PROBES, PROBE_EVERY.toMillis(), streamCount);
    long start = System.nanoTime();
    for (int i = 0; i < PROBES; i++) {
      int controller = (i * 37) % controllers;
      publisher.controller(namespace(controller % NAMESPACES), name(controller), "bench.probe", "probe " + i,
          Map.of(ActivityStreams.PROBE, String.valueOf(i), ActivityStreams.SENT_NANOS,
              String.valueOf(System.nanoTime())));
      long due = start + PROBE_EVERY.toNanos() * (i + 1);
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
    }
    long expected = (long) PROBES * streamCount;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (deliveries(streams) < expected && streams.firstProblem() == null && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    bus.closeDispatcher(offTheBus);
    long delivered = deliveries(streams);
    List<Duration> delays = new ArrayList<>((int) expected);
    for (ActivityStreams.Stream stream : streams.streams()) {
      stream.delays().forEach(nanos -> delays.add(Duration.ofNanos(nanos)));
    }
    List<Duration> bus95 = busDelays.values().stream().map(Duration::ofNanos).toList();
    int duplicates = streams.streams().stream().mapToInt(ActivityStreams.Stream::duplicates).sum();
    Duration p50 = Percentiles.of(delays, 0.50);
    Duration p95 = Percentiles.of(delays, 0.95);
    System.out.printf("delivered %d of %d (%d repeated; publisher dropped %d); delay publish -> SSE client p50 %.1f "
        + "ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms%n", delivered, expected, duplicates, publisher.dropped(),
        millis(p50), millis(p95), millis(Percentiles.of(delays, 0.99)), millis(Percentiles.of(delays, 1.0)));
    if (!bus95.isEmpty()) {
      System.out.printf("the same %d events off the bus (a core subscription here): p50 %.1f ms, p95 %.1f ms%n",
          bus95.size(), millis(Percentiles.of(bus95, 0.50)), millis(Percentiles.of(bus95, 0.95)));
      figures.put("activity_bus_delay_p95", String.format("%.1f ms", millis(Percentiles.of(bus95, 0.95))));
    }
    figures.put("sse_delay_p50", String.format("%.1f ms", millis(p50)));
    figures.put("sse_delay_p95", String.format("%.1f ms", millis(p95)));
    figures.put("sse_delivered", delivered + " events");
    figures.put("sse_expected", expected + " events");
    if (delivered != expected || duplicates > 0) {
      throw new IllegalStateException("delivered " + delivered + " of " + expected + " (" + duplicates
          + " repeated); " + streams.firstProblem());
    }
  }

  private static long deliveries(ActivityStreams streams) {
    return streams.streams().stream().mapToLong(ActivityStreams.Stream::received).sum();
  }

  private static void failOnProblem(ActivityStreams streams) {
    String problem = streams.firstProblem();
    if (problem != null) {
      throw new IllegalStateException(problem);
    }
  }

  static void await(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not within " + DEADLINE + ": " + what);
      }
      Thread.sleep(100);
    }
  }

  static double millis(Duration duration) {
    return duration.toNanos() / 1e6;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}

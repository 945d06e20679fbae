package dev.varroa.benchmarks;

import dev.varroa.benchmarks.channel.ControllerEnrolment;
import dev.varroa.benchmarks.channel.BusProbe;
import dev.varroa.benchmarks.channel.ChildJvm;
import dev.varroa.benchmarks.channel.FleetPhase;
import dev.varroa.benchmarks.channel.GatewayDialer;
import dev.varroa.benchmarks.channel.ModuleClasspath;
import dev.varroa.benchmarks.channel.ProcessGauge;
import dev.varroa.benchmarks.channel.SimulatedMite;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.grpc.Status;
import io.nats.client.Connection;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control channel's fleet benchmark: one gateway (its own JVM, as in production) holding N mite
 * streams (default 5,000) played by this JVM over the real protocol: bootstrap token written as the
 * operator writes it, Register over TLS, Connect over mTLS, Hello, a heartbeat every 15 s. Prints
 * registration throughput, the time until every stream is up, and the gateway's heap, resident memory,
 * CPU and threads over a steady window. Run (from the repository root, after building):
 * {@code java -Xmx3g -cp <benchmarks classpath> dev.varroa.benchmarks.GatewayFleetBenchmark [mites]
 * [parallelism] [window seconds]}; the gateway's runtime classpath must be written first, see
 * {@link ModuleClasspath#command(String)}.
 */
public final class GatewayFleetBenchmark {

  private static final int MITES = 5_000;
  /** Registrations and connects in flight at once: a rolling fleet start, not 5,000 pods in the same second. */
  private static final int PARALLELISM = 16;
  /** At least four heartbeat rounds after the last stream is up. */
  private static final Duration WINDOW = Duration.ofSeconds(90);
  /** "The mite sends a heartbeat every 15 seconds." */
  private static final Duration HEARTBEAT_INTERVAL = Duration.ofSeconds(15);
  /** One interval after the last connect before measuring, so the connect burst is not in the window. */
  private static final Duration SETTLE = HEARTBEAT_INTERVAL;
  private static final Duration SAMPLE_EVERY = Duration.ofSeconds(5);
  /** The gateway's heap limit; its figures show how much of it 5,000 streams use. */
  private static final List<String> GATEWAY_JVM_FLAGS = List.of("-Xmx1g");
  private static final Duration GATEWAY_LISTEN_DEADLINE = Duration.ofSeconds(60);
  /** The gateway stops gracefully on SIGTERM: ends every stream and deletes its routes. */
  private static final Duration GATEWAY_GRACEFUL_STOP = Duration.ofSeconds(60);
  /** Presence is refreshed every 10 s; the bucket forgets an entry after 30 s. */
  private static final Duration ALL_UP_DEADLINE = Duration.ofMinutes(2);
  private static final String NAMESPACE = "fleet";
  private static final String GATEWAY_ID = "gateway-fleet";
  private static final String GATEWAY_MAIN = "dev.varroa.gateway.GatewayMain";
  private static final int CLIENT_EVENT_LOOP_THREADS = 2;
  private static final int CLIENT_CALLBACK_THREADS = 2;

  private GatewayFleetBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : MITES;
    int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : PARALLELISM;
    Duration window = args.length > 2 ? Duration.ofSeconds(Long.parseLong(args[2])) : WINDOW;
    if (window.compareTo(Duration.ofSeconds(60)) < 0) {
      throw new IllegalArgumentException("the steady window must be at least 60 s, got " + window.toSeconds());
    }
    try (Teardown teardown = new Teardown()) {
      run(teardown, count, parallelism, window);
    }
    // Netty and gRPC leave non-daemon threads behind; the teardown has stopped what matters.
    System.exit(0);
  }

  private static void run(Teardown teardown, int count, int parallelism, Duration window) throws Exception {
    System.out.printf("machine: %d cores, %s, load average %s; harness heap limit %d MiB%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), loadAverage(),
        Runtime.getRuntime().maxMemory() >> 20);
    Path logs = Files.createDirectories(ProjectLayout.root().resolve("benchmarks/target/channel-benchmarks"));
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-gateway-"));
    NatsServerProcess nats = teardown.add(NatsServerProcess.start());

    Path caCert = work.resolve("ca.crt");
    Path caKey = work.resolve("ca.key");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, caKey);
    int port = LoopbackPort.pickFree();
    List<String> classpath = ModuleClasspath.of("gateway", "varroa-gateway");
    Path gatewayLog = logs.resolve("gateway-fleet-" + Instant.now().getEpochSecond() + ".log");
    ChildJvm gateway = teardown.add(ChildJvm.start("gateway", GATEWAY_JVM_FLAGS,
        String.join(File.pathSeparator, classpath), GATEWAY_MAIN, Map.of(
            "VARROA_GATEWAY_ID", GATEWAY_ID,
            "VARROA_GATEWAY_LISTEN", LoopbackPort.HOST + ":" + port,
            "VARROA_NATS_URL", nats.value().url(),
            "VARROA_CA_CERT_FILE", caCert.toString(),
            "VARROA_CA_KEY_FILE", caKey.toString(),
            "VARROA_TLS_IP_ADDRESSES", LoopbackPort.HOST),
        gatewayLog, GATEWAY_GRACEFUL_STOP));
    gateway.awaitListening(port, GATEWAY_LISTEN_DEADLINE);
    System.out.printf("gateway: pid %d, flags %s, its own runtime classpath (%d jars), log %s%n", gateway.pid(),
        GATEWAY_JVM_FLAGS, classpath.size(), gatewayLog);

    Connection operator = nats.value().connect();
    teardown.then(operator::close);
    BusTopology.ensure(operator);
    ControllerEnrolment tokens = new ControllerEnrolment(operator);
    BusProbe bus = new BusProbe(operator);
    ProcessGauge gatewayGauge = new ProcessGauge(gateway.pid());
    ProcessGauge harnessGauge = new ProcessGauge(ProcessHandle.current().pid());

    GatewayDialer dialer = teardown.add(new GatewayDialer(new InetSocketAddress(LoopbackPort.HOST, port),
        certificate(ca.certificatePem()), CLIENT_EVENT_LOOP_THREADS, CLIENT_CALLBACK_THREADS));
    List<SimulatedMite> mites = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      mites.add(new SimulatedMite(new ControllerIdentity(NAMESPACE, String.format("jenkins-%05d", i),
          UUID.randomUUID().toString())));
    }
    teardown.then(() -> mites.forEach(SimulatedMite::close));
    // The gateway goes first (it ends every stream itself), then the mites' channels, then NATS.
    teardown.then(gateway::close);

    System.out.printf("%n%d mites register, %d at a time (token minted just before, as at pod start)%n", count,
        parallelism);
    long cpuBefore = gatewayGauge.cpuNanos();
    FleetPhase.Outcome registered = FleetPhase.run("register", count, parallelism, i -> {
      SimulatedMite mite = mites.get(i);
      mite.register(dialer, tokens.token(mite.identity()));
    }).requireAllDone();
    long registrationCpu = gatewayGauge.cpuNanos() - cpuBefore;

    ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "mite-heartbeats");
      thread.setDaemon(true);
      return thread;
    });
    teardown.then(heartbeats::shutdownNow);
    AtomicLong heartbeatsSent = new AtomicLong();
    AtomicLong streamsClosed = new AtomicLong();
    ConcurrentLinkedQueue<String> closures = new ConcurrentLinkedQueue<>();

    System.out.printf("%n%d mites connect (mTLS, Hello, wait for Welcome), %d at a time; heartbeats every %d s%n",
        count, parallelism, HEARTBEAT_INTERVAL.toSeconds());
    cpuBefore = gatewayGauge.cpuNanos();
    long connectStart = System.nanoTime();
    FleetPhase.Outcome connected = FleetPhase.run("connect", count, parallelism, i -> {
      SimulatedMite mite = mites.get(i);
      mite.connect(dialer, status -> {
        streamsClosed.incrementAndGet();
        if (closures.size() < 5) {
          closures.add(mite.identity().routeKey() + ": " + status);
        }
      });
      long offset = ThreadLocalRandom.current().nextLong(HEARTBEAT_INTERVAL.toMillis());
      heartbeats.scheduleAtFixedRate(() -> {
        if (mite.heartbeat()) {
          heartbeatsSent.incrementAndGet();
        }
      }, offset, HEARTBEAT_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }).requireAllDone();
    long connectCpu = gatewayGauge.cpuNanos() - cpuBefore;
    Duration allRoutes = awaitAllUp(bus, gateway, count, connectStart);
    Duration total = registered.elapsed().plus(allRoutes);

    System.out.printf("%nsettling %d s, then measuring the gateway for %d s%n", SETTLE.toSeconds(), window.toSeconds());
    Thread.sleep(SETTLE.toMillis());
    Window measured = measure(gatewayGauge, harnessGauge, gateway, window, heartbeatsSent, streamsClosed);

    long threadsAfter = gatewayGauge.threads();
    int routeKeys = bus.routeKeys();
    long presenceStreams = bus.presence(GATEWAY_ID).orElseThrow().getStreams();
    long closedInGatewayLog = gateway.logLinesContaining("event=stream_closed");
    long silentInGatewayLog = gateway.logLinesContaining("event=stream_silent");
    ProcessGauge.HeapFigures heap = gatewayGauge.heapAfterFullGc();
    long rssAfterGc = gatewayGauge.residentKib();

    System.out.printf("%n=== gateway fleet: %d mites, one gateway (-Xmx1g), %d cores shared with NATS and this harness ===%n",
        count, Runtime.getRuntime().availableProcessors());
    System.out.printf("registration: %d in %.1f s = %.1f/s (%d at a time); gateway CPU %.2f ms a registration%n",
        count, seconds(registered.elapsed()), registered.perSecond(), parallelism,
        registrationCpu / 1e6 / count);
    System.out.printf("connect: %d streams welcomed in %.1f s = %.1f/s; all %d routes in varroa_mite_routes "
            + "%.1f s after the first connect; gateway CPU %.2f ms a connect%n",
        count, seconds(connected.elapsed()), connected.perSecond(), count, seconds(allRoutes),
        connectCpu / 1e6 / count);
    System.out.printf("time to all streams up (first Register to last route): %.1f s%n", seconds(total));
    System.out.printf("steady window %.0f s (%d heartbeats sent, %.1f/s):%n", seconds(measured.elapsed()),
        measured.heartbeats(), measured.heartbeats() / seconds(measured.elapsed()));
    System.out.printf("  gateway CPU: %.1f %% of one core (%.2f CPU-s); harness %.1f %%, load average %s%n",
        measured.gatewayCpuPercent(), measured.gatewayCpuNanos() / 1e9, measured.harnessCpuPercent(),
        measured.loadAverage());
    System.out.printf("  gateway resident (VmRSS): max %.1f MiB, last %.1f MiB; after a full GC %.1f MiB%n",
        measured.maxRssKib() / 1024.0, measured.lastRssKib() / 1024.0, rssAfterGc / 1024.0);
    System.out.printf("  gateway heap after a full GC: %.1f MiB used of %.1f MiB committed; metaspace %.1f MiB%n",
        heap.heapUsedKib() / 1024.0, heap.heapCommittedKib() / 1024.0, heap.metaspaceUsedKib() / 1024.0);
    System.out.printf("  gateway threads: max %d in the window, %d after it%n", measured.maxThreads(), threadsAfter);
    System.out.printf("  streams closed in the window: %d (harness side); over the whole run: %d harness side, "
            + "%d stream_closed and %d stream_silent in the gateway log%n", measured.streamsClosed(),
        streamsClosed.get(), closedInGatewayLog, silentInGatewayLog);
    System.out.printf("  after the window: %d route keys in varroa_mite_routes, presence streams=%d%n", routeKeys,
        presenceStreams);
    System.out.printf("harness (this JVM, all %d client channels): VmRSS %.1f MiB, %d threads%n", count,
        harnessGauge.residentKib() / 1024.0, harnessGauge.threads());
    closures.forEach(closure -> System.out.println("  closed: " + closure));
    boolean held = streamsClosed.get() == 0 && closedInGatewayLog == 0 && routeKeys == count
        && presenceStreams == count;
    System.out.println(held ? "every stream stayed open through the window"
        : "NOT every stream stayed open: see the lines above and " + gatewayLog);
  }

  /** What the steady window measured. */
  private record Window(Duration elapsed, long gatewayCpuNanos, long harnessCpuNanos, long maxRssKib,
      long lastRssKib, long maxThreads, long heartbeats, long streamsClosed, String loadAverage) {
    double gatewayCpuPercent() {
      return 100.0 * gatewayCpuNanos / elapsed.toNanos();
    }

    double harnessCpuPercent() {
      return 100.0 * harnessCpuNanos / elapsed.toNanos();
    }
  }

  private static Window measure(ProcessGauge gateway, ProcessGauge harness, ChildJvm process, Duration window,
      AtomicLong heartbeats, AtomicLong closed) throws InterruptedException {
    long heartbeatsBefore = heartbeats.get();
    long closedBefore = closed.get();
    long gatewayCpu = gateway.cpuNanos();
    long harnessCpu = harness.cpuNanos();
    long start = System.nanoTime();
    long end = start + window.toNanos();
    long maxRss = 0;
    long lastRss = 0;
    long maxThreads = 0;
    while (true) {
      process.requireAlive();
      lastRss = gateway.residentKib();
      maxRss = Math.max(maxRss, lastRss);
      maxThreads = Math.max(maxThreads, gateway.threads());
      long left = end - System.nanoTime();
      if (left <= 0) {
        break;
      }
      Thread.sleep(Math.min(SAMPLE_EVERY.toMillis(), TimeUnit.NANOSECONDS.toMillis(left) + 1));
    }
    Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
    return new Window(elapsed, gateway.cpuNanos() - gatewayCpu, harness.cpuNanos() - harnessCpu, maxRss, lastRss,
        maxThreads, heartbeats.get() - heartbeatsBefore, closed.get() - closedBefore, loadAverage());
  }

  /** Waits until the routes bucket holds every mite and the gateway's presence entry counts every stream. */
  private static Duration awaitAllUp(BusProbe bus, ChildJvm gateway, int count, long connectStart) throws Exception {
    long deadline = System.nanoTime() + ALL_UP_DEADLINE.toNanos();
    Duration routesAt = null;
    while (true) {
      gateway.requireAlive();
      if (routesAt == null && bus.routeEntries() >= count) {
        routesAt = Duration.ofNanos(System.nanoTime() - connectStart);
      }
      long streams = bus.presence(GATEWAY_ID).map(p -> (long) p.getStreams()).orElse(0L);
      if (routesAt != null && streams >= count) {
        System.out.printf("  all up: %d route entries, presence streams=%d%n", bus.routeEntries(), streams);
        return routesAt;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new IllegalStateException("after " + ALL_UP_DEADLINE + ": " + bus.routeEntries() + " route entries, "
            + "presence streams=" + streams + ", expected " + count);
      }
      Thread.sleep(200);
    }
  }

  private static X509Certificate certificate(String pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  private static double seconds(Duration duration) {
    return duration.toNanos() / 1e9;
  }
}

package dev.varroa.benchmarks.events;

import dev.varroa.benchmarks.channel.ControllerEnrolment;
import dev.varroa.benchmarks.channel.MitePod;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.benchmarks.latency.Percentiles;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.mite.MiteSettings;
import dev.varroa.operator.channel.BootstrapTokenIssuer;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.loopback.EventsOutcome;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.BuildEvent;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.builds.v1.EventKey;
import dev.varroa.protocol.builds.v1.StageStarted;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.process.ThrowawayDirectory;
import io.nats.client.Connection;
import io.nats.client.ErrorListener;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The whole build event path on this machine, every tier its own process: the plugin side, the mite, the gateway,
 * nats-server, the recorder and PostgreSQL. {@link #measure()} runs the benchmark's phases and returns its figures.
 */
public final class BuildEventPath {

  /** 400 runs of 25 events: 10,000 events under kills. */
  static final int KILLED_RUNS = 400;
  /** Then 80 more runs (2,000 events) with nothing killed, for the time from emission to row. */
  static final int STEADY_RUNS = 80;
  static final double EVENTS_PER_SECOND = 200;
  static final Duration FIRST_KILL_AFTER = Duration.ofSeconds(5);
  static final Duration BETWEEN_KILLS = Duration.ofSeconds(6);
  static final Duration DOWN_FOR = Duration.ofSeconds(1);
  static final Duration ROWS_DEADLINE = Duration.ofMinutes(5);
  static final int CLAIM_WARMUP = 300;
  static final int CLAIMS = 2_000;
  static final int BULK_THREADS = 8;
  static final int BULK_BATCH = 500;
  static final int BULK_EVENTS = 200_000;

  private final Path logs;
  private final ThrowawayDirectory work;
  private final PostgresServer postgres;
  private final NatsTier nats;
  private final JvmTier gateway;
  private final JvmTier recorder;
  private final JvmTier mite;
  private final String harnessClasspath = System.getProperty("java.class.path");
  private final Map<String, String> pluginEnv;
  private final ControllerIdentity controller;
  private final Path tokenFile;
  private final URI loopback;

  private BuildEventPath(Path logs, ThrowawayDirectory work, PostgresServer postgres, NatsTier nats, JvmTier gateway,
      JvmTier recorder, JvmTier mite, Map<String, String> pluginEnv, ControllerIdentity controller, Path tokenFile,
      URI loopback) {
    this.logs = logs;
    this.work = work;
    this.postgres = postgres;
    this.nats = nats;
    this.gateway = gateway;
    this.recorder = recorder;
    this.mite = mite;
    this.pluginEnv = pluginEnv;
    this.controller = controller;
    this.tokenFile = tokenFile;
    this.loopback = loopback;
  }

  /** Starts PostgreSQL, NATS, the recorder, the gateway and a registered mite; returns once the mite is connected. */
  public static BuildEventPath start(Teardown teardown, Path logs, String gatewayClasspath, String miteClasspath,
      String recorderClasspath) throws Exception {
    ThrowawayDirectory work = teardown.add(ThrowawayDirectory.create("varroa-bench-events-"));
    PostgresServer postgres = teardown.add(PostgresServerProcess.start()).value();
    NatsTier nats = teardown.add(new NatsTier(Files.createDirectories(work.resolve("nats"))));
    nats.start();
    // the harness's own connection rides out the nats-server kill quietly: its reconnects are expected
    Connection operator = Nats.connect(new Options.Builder().server(nats.url()).maxReconnects(-1)
        .errorListener(new ErrorListener() { }).build());
    teardown.then(operator::close);
    BusTopology.ensure(operator);

    Path caCert = work.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, work.resolve("ca.key"));
    int gatewayPort = LoopbackPort.pickFree();
    Map<String, String> gatewayEnv = Map.of(
        "VARROA_GATEWAY_ID", "gateway-bench",
        "VARROA_GATEWAY_LISTEN", LoopbackPort.HOST + ":" + gatewayPort,
        "VARROA_NATS_URL", nats.url(),
        "VARROA_CA_CERT_FILE", caCert.toString(),
        "VARROA_CA_KEY_FILE", work.resolve("ca.key").toString(),
        "VARROA_CLUSTER_NAME", "bench");
    JvmTier gateway = teardown.add(new JvmTier("gateway", gatewayClasspath, "dev.varroa.gateway.GatewayMain",
        List.of(), gatewayEnv, logs, () -> accepts(gatewayPort)));
    gateway.start();

    int recorderHealth = LoopbackPort.pickFree();
    Map<String, String> recorderEnv = Map.of(
        "VARROA_RECORDER_DSN", postgres.jdbcUrl(),
        "VARROA_RECORDER_DB_USER", postgres.user(),
        "VARROA_RECORDER_DB_PASSWORD", postgres.password(),
        "VARROA_NATS_URL", nats.url(),
        "VARROA_HEALTH_PORT", Integer.toString(recorderHealth),
        "VARROA_CLUSTER_NAME", "bench");
    JvmTier recorder = teardown.add(new JvmTier("recorder", recorderClasspath, "dev.varroa.recorder.RecorderMain",
        List.of(), recorderEnv, logs, () -> answers200("http://127.0.0.1:" + recorderHealth + "/readyz")));
    recorder.start();

    ControllerIdentity controller = new ControllerIdentity("bench", "events", UUID.randomUUID().toString());
    String token = new ControllerEnrolment(operator).token(controller);
    MitePod pod = teardown.add(MitePod.prepare(controller, work.resolve("pod"), token, ca.certificatePem()));
    int loopbackPort = LoopbackPort.pickFree();
    Path tokenFile = work.resolve("pod/loopback/loopback-token");
    Map<String, String> miteEnv = new HashMap<>(pod.environment(LoopbackPort.HOST + ":" + gatewayPort));
    miteEnv.put(MiteSettings.ENV_LOOPBACK_PORT, Integer.toString(loopbackPort));
    var routes = operator.keyValue(BusNames.MITE_ROUTES_BUCKET);
    JvmTier mite = teardown.add(new JvmTier("mite", miteClasspath, "dev.varroa.mite.MiteMain", List.of(), miteEnv,
        logs, () -> Files.exists(tokenFile) && accepts(loopbackPort) && routes.get(controller.routeKey()) != null));
    mite.start();

    URI loopback = URI.create("http://127.0.0.1:" + loopbackPort);
    Map<String, String> pluginEnv = Map.of(
        PluginSettings.LOOPBACK_URL_VARIABLE, loopback.toString(),
        PluginSettings.TOKEN_FILE_VARIABLE, tokenFile.toString());
    return new BuildEventPath(logs, work, postgres, nats, gateway, recorder, mite, pluginEnv, controller, tokenFile,
        loopback);
  }

  /** The benchmark's phases, in order; returns the figures lines. */
  public List<String> measure() throws Exception {
    List<String> figures = new ArrayList<>();
    Lost lost = killPhase();
    figures.add("figure: events_sent " + lost.sent() + " events");
    figures.add("figure: events_lost " + lost.lost() + " events");
    figures.add("figure: events_duplicated " + lost.duplicated() + " events");
    List<Duration> toRow = steadyPhase();
    List<Duration> claims = claimPhase();
    double rate = bulkPhase();
    figures.add(String.format("figure: gateway_publish_rate %.0f events/s", rate));
    figures.add(String.format("figure: claim_rtt_p50 %.2f ms", millis(Percentiles.of(claims, 0.50))));
    figures.add(String.format("figure: claim_rtt_p99 %.2f ms", millis(Percentiles.of(claims, 0.99))));
    figures.add(String.format("figure: event_to_row_p95 %.0f ms", millis(Percentiles.of(toRow, 0.95))));
    return figures;
  }

  private record Lost(long sent, long lost, long duplicated) {
  }

  private Lost killPhase() throws Exception {
    Path home = Files.createDirectories(work.resolve("jenkins-home-killed"));
    JvmTier plugin = pluginSide("plugin-side", home, 0, KILLED_RUNS);
    plugin.start();
    PostgresTier database = new PostgresTier(postgres);
    List<Tier> order = List.of(plugin, mite, gateway, nats, recorder, database);
    System.out.printf("%nkill phase: %d runs x %d events at %.0f events/s; SIGKILL each tier in turn, %d s apart, "
        + "down %d s each%n", KILLED_RUNS, BenchRuns.EVENTS_PER_RUN, EVENTS_PER_SECOND, BETWEEN_KILLS.toSeconds(),
        DOWN_FOR.toSeconds());
    long started = System.nanoTime();
    Thread.sleep(FIRST_KILL_AFTER.toMillis());
    for (Tier tier : order) {
      long rows = eventRows("bench-%");
      tier.kill();
      System.out.printf("  t=%5.1f s  killed %-11s (rows so far %d)%n", seconds(started), tier.name(), rows);
      Thread.sleep(DOWN_FOR.toMillis());
      tier.start();
      System.out.printf("  t=%5.1f s  %s is back%n", seconds(started), tier.name());
      Thread.sleep(BETWEEN_KILLS.toMillis());
    }
    Readiness.await("the plugin side emitting every event", ROWS_DEADLINE, () -> PluginSideMain.emittedAll(home));
    long sent = (long) KILLED_RUNS * BenchRuns.EVENTS_PER_RUN;
    awaitRows("bench-%", sent);
    System.out.printf("  t=%5.1f s  rows settled%n", seconds(started));
    plugin.close();
    return countKilledPhase(sent);
  }

  private List<Duration> steadyPhase() throws Exception {
    Path home = Files.createDirectories(work.resolve("jenkins-home-steady"));
    JvmTier plugin = pluginSide("plugin-side-steady", home, KILLED_RUNS, KILLED_RUNS + STEADY_RUNS);
    plugin.start();
    long events = (long) STEADY_RUNS * BenchRuns.EVENTS_PER_RUN;
    System.out.printf("%nsteady phase: %d events at %.0f events/s, nothing killed%n", events, EVENTS_PER_SECOND);
    Readiness.await("the steady plugin side emitting", ROWS_DEADLINE, () -> PluginSideMain.emittedAll(home));
    awaitRows("bench-%", (long) (KILLED_RUNS + STEADY_RUNS) * BenchRuns.EVENTS_PER_RUN);
    plugin.close();
    List<Duration> toRow = new ArrayList<>();
    try (var db = connect(); Statement statement = db.createStatement();
        ResultSet rows = statement.executeQuery("SELECT extract(epoch FROM (recorded_at - emitted_at)) * 1000 "
            + "FROM run_events WHERE controller_uid = '" + controller.uid() + "' AND run_id ~ '^bench-[0-9]+$' "
            + "AND substring(run_id from 7)::int >= " + KILLED_RUNS)) {
      while (rows.next()) {
        toRow.add(Duration.ofNanos((long) (rows.getDouble(1) * 1_000_000)));
      }
    }
    System.out.printf("  %d rows; emission to row p50 %.0f ms, p95 %.0f ms, max %.0f ms%n", toRow.size(),
        millis(Percentiles.of(toRow, 0.5)), millis(Percentiles.of(toRow, 0.95)), millis(Percentiles.of(toRow, 1.0)));
    return toRow;
  }

  private List<Duration> claimPhase() throws Exception {
    System.out.printf("%nclaim phase: %d claims one after another, plugin core -> mite -> gateway -> ledger -> "
        + "PostgreSQL and back%n", CLAIMS);
    List<Duration> samples = new ArrayList<>();
    Set<Long> numbers = new HashSet<>();
    try (LoopbackClient client = client()) {
      for (int i = 0; i < CLAIM_WARMUP + CLAIMS; i++) {
        ClaimRequest request = ClaimRequest.newBuilder().setRunId("claim-" + i).setJob("bench/claims")
            .setQueueId(i).build();
        long t0 = System.nanoTime();
        ClaimDecision decision = client.claim(request);
        long t1 = System.nanoTime();
        if (!decision.getDecision().equals("granted")) {
          throw new IllegalStateException("claim " + i + " was not granted: " + decision);
        }
        if (!numbers.add(decision.getBuildNumber())) {
          throw new IllegalStateException("build number " + decision.getBuildNumber() + " granted twice");
        }
        if (i >= CLAIM_WARMUP) {
          samples.add(Duration.ofNanos(t1 - t0));
        }
      }
    }
    System.out.printf("  %d granted, every number distinct; p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", numbers.size(),
        millis(Percentiles.of(samples, 0.5)), millis(Percentiles.of(samples, 0.99)),
        millis(Percentiles.of(samples, 1.0)));
    return samples;
  }

  /** Events straight to the mite in batches, until the gateway acknowledged every one: mite + gateway + JetStream. */
  private double bulkPhase() throws Exception {
    // the recorder would compete for the two cores; its durable consumer keeps what arrives meanwhile
    recorder.close();
    System.out.printf("%npublish phase: %d events in batches of %d from %d threads, recorder stopped%n", BULK_EVENTS,
        BULK_BATCH, BULK_THREADS);
    ExecutorService threads = Executors.newFixedThreadPool(BULK_THREADS);
    long started = System.nanoTime();
    try (LoopbackClient client = client()) {
      List<Future<Long>> sent = new ArrayList<>();
      for (int t = 0; t < BULK_THREADS; t++) {
        int thread = t;
        sent.add(threads.submit(() -> sendUntilAcknowledged(client, thread)));
      }
      long acknowledged = 0;
      for (Future<Long> future : sent) {
        acknowledged += future.get(10, TimeUnit.MINUTES);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf("  %d events acknowledged in %.2f s%n", acknowledged, seconds);
      return acknowledged / seconds;
    } finally {
      threads.shutdownNow();
    }
  }

  private long sendUntilAcknowledged(LoopbackClient client, int thread) throws InterruptedException {
    long acknowledged = 0;
    int batches = BULK_EVENTS / BULK_THREADS / BULK_BATCH;
    for (int b = 0; b < batches; b++) {
      List<BuildEvent> batch = new ArrayList<>();
      for (int i = 0; i < BULK_BATCH; i++) {
        batch.add(BuildEvent.newBuilder().setRunId("bulk-" + thread + "-" + b).setSequence(i + 1L)
            .setJob("bench/bulk").setEmittedAtEpochMillis(System.currentTimeMillis())
            .setStageStarted(StageStarted.newBuilder().setStageId("node-" + i).setName("stage " + i)).build());
      }
      Set<EventKey> open = new HashSet<>();
      batch.forEach(e -> open.add(EventKey.newBuilder().setRunId(e.getRunId()).setSequence(e.getSequence()).build()));
      while (!open.isEmpty()) {
        List<BuildEvent> unacknowledged = batch.stream().filter(e -> open.contains(EventKey.newBuilder()
            .setRunId(e.getRunId()).setSequence(e.getSequence()).build())).toList();
        EventsOutcome outcome = client.sendEvents(unacknowledged);
        if (outcome instanceof EventsOutcome.Acknowledged acked) {
          acked.keys().forEach(open::remove);
        } else if (outcome instanceof EventsOutcome.Busy busy) {
          Thread.sleep(busy.retryAfter().toMillis());
        } else {
          throw new IllegalStateException("bulk batch failed: " + outcome);
        }
      }
      acknowledged += batch.size();
    }
    return acknowledged;
  }

  private Lost countKilledPhase(long sent) throws Exception {
    try (var db = connect(); Statement statement = db.createStatement()) {
      String mine = "controller_uid = '" + controller.uid() + "' AND run_id ~ '^bench-[0-9]+$' "
          + "AND substring(run_id from 7)::int < " + KILLED_RUNS;
      long expectedKeys = scalar(statement, "SELECT count(*) FROM run_events WHERE " + mine + " AND sequence BETWEEN 1 AND "
          + BenchRuns.EVENTS_PER_RUN);
      long rows = scalar(statement, "SELECT count(*) FROM run_events WHERE " + mine);
      long runs = scalar(statement, "SELECT count(*) FROM runs WHERE " + mine + " AND finalized_at IS NOT NULL AND "
          + "last_sequence = " + BenchRuns.EVENTS_PER_RUN);
      long stages = scalar(statement, "SELECT count(*) FROM stages WHERE " + mine + " AND ended_at IS NOT NULL");
      System.out.printf("  rows: %d events (%d with the keys sent), %d runs finalized with all %d events, %d stages "
          + "ended%n", rows, expectedKeys, runs, BenchRuns.EVENTS_PER_RUN, stages);
      // an event counted twice would be a row with a key the plugin side never sent (a sequence past the run's 25)
      long duplicated = rows - expectedKeys;
      return new Lost(sent, sent - expectedKeys, duplicated);
    }
  }

  private void awaitRows(String runIds, long expected) throws InterruptedException {
    long[] last = {-1};
    long[] lastChange = {System.nanoTime()};
    try {
      Readiness.await(expected + " event rows", ROWS_DEADLINE, () -> {
        long rows = eventRows(runIds);
        if (rows != last[0]) {
          last[0] = rows;
          lastChange[0] = System.nanoTime();
        }
        return rows >= expected;
      });
    } catch (IllegalStateException e) {
      // the comparison says what is missing; the benchmark reports it rather than failing
      System.out.printf("  rows stopped at %d of %d (%s)%n", last[0], expected, e.getMessage());
    }
  }

  private long eventRows(String runIds) {
    try (var db = connect(); Statement statement = db.createStatement()) {
      return scalar(statement, "SELECT count(*) FROM run_events WHERE controller_uid = '" + controller.uid()
          + "' AND run_id LIKE '" + runIds + "'");
    } catch (Exception e) {
      // PostgreSQL may be the tier that is down right now
      return -1;
    }
  }

  private JvmTier pluginSide(String name, Path home, int first, int last) {
    return new JvmTier(name, harnessClasspath, PluginSideMain.class.getName(),
        List.of(home.toString(), Integer.toString(first), Integer.toString(last), Double.toString(EVENTS_PER_SECOND)),
        pluginEnv, logs, () -> true);
  }

  private LoopbackClient client() {
    PluginSettings settings = PluginSettings.fromEnvironment(pluginEnv);
    return new LoopbackClient(settings, new LoopbackToken(tokenFile, Clock.systemUTC()));
  }

  private java.sql.Connection connect() throws java.sql.SQLException {
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
  }

  private static long scalar(Statement statement, String sql) throws java.sql.SQLException {
    try (ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(LoopbackPort.HOST, port), 500);
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static boolean answers200(String url) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(1)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
  }

  private static double seconds(long startedNanos) {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  private static double millis(Duration duration) {
    return duration.toNanos() / 1e6;
  }
}

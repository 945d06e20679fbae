package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.logs.ConsoleLogSink;
import dev.varroa.plugin.logs.LogCopy;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogExtent;
import dev.varroa.recorder.logs.LogKey;
import dev.varroa.recorder.logs.LogReader;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.logs.LogTail;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerExtension;
import io.nats.client.Connection;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Console logs with every real part in line: the plugin core's log sink and shipper, the mite, two gateways, the
 * blob store (s3proxy or PostgreSQL) and a live tail over nats-server. Only Jenkins is the contract fixture; the
 * build's console output is written through the sink as the plugin's Jenkins glue would.
 */
class ConsoleLogsEndToEndIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension();

  private static final Duration ARRIVAL = Duration.ofSeconds(60);

  @TempDir
  static Path shared;
  @TempDir
  Path dir;

  private static BlobStoreSettings s3;
  private static BlobStoreSettings postgres;
  private final List<AutoCloseable> running = new ArrayList<>();

  @BeforeAll
  static void stores() throws Exception {
    S3Server s3Server = S3.server();
    Path credentials = Files.createDirectory(shared.resolve("blob-credentials"));
    Files.writeString(credentials.resolve("access-key-id"), s3Server.accessKeyId());
    Files.writeString(credentials.resolve("secret-access-key"), s3Server.secretAccessKey());
    s3 = BlobStoreSettings.s3(s3Server.bucketUrl(), s3Server.region(), credentials);
    PostgresServer db = POSTGRES.server();
    Flyway.configure().dataSource(db.jdbcUrl(), db.user(), db.password()).locations("classpath:db/migration").load()
        .migrate();
    postgres = BlobStoreSettings.postgresWithPassword(db.jdbcUrl(), db.user(), db.password());
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).close();
    }
  }

  /** Everything a test needs, started in order: gateways, Jenkins fixture, mite, plugin core. */
  private record Pod(ControllerIdentity controller, Gateway gatewayA, Gateway gatewayB, Mite mite, PluginCore core,
      LogStore store) {
    Gateway holding() {
      return mite.gatewayId().orElseThrow().equals("gw-a") ? gatewayA : gatewayB;
    }

    LogKey key(String runId) {
      return new LogKey(GatewaySettings.DEFAULT_CLUSTER_NAME, controller.namespace(), controller.name(), runId);
    }
  }

  private Pod start(BlobStoreSettings tier) throws Exception {
    Connection nats = NATS.server().connect();
    running.add(nats);
    BusTopology.ensure(nats);
    ControllerIdentity controller = new ControllerIdentity("team-a",
        "ci-" + UUID.randomUUID().toString().substring(0, 8), UUID.randomUUID().toString());
    Path caCert = dir.resolve("ca.crt");
    Path caKey = dir.resolve("ca.key");
    CertificateAuthority.createFiles(caCert, caKey);
    Gateway gatewayA = gateway("gw-a", caCert, caKey, tier);
    Gateway gatewayB = gateway("gw-b", caCert, caKey, tier);
    JenkinsFixture jenkins = JenkinsFixture.start();
    running.add(jenkins);
    BootstrapTokens.write(nats, controller, dir.resolve("bootstrap/token"));
    Mite mite = Mite.start(new MiteSettings(controller, controller.name() + "-0",
        List.of(new GatewayEndpoint("127.0.0.1", gatewayA.port()), new GatewayEndpoint("127.0.0.1", gatewayB.port())),
        dir.resolve("bootstrap/token"), caCert, dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT,
        MiteSettings.DEFAULT_SCHEDULE_POLL_INTERVAL));
    running.add(mite);
    await().atMost(Duration.ofSeconds(30)).until(mite::connected);
    PluginCore core = PluginCore.start(PluginSettings.fromEnvironment(Map.of(
        PluginSettings.LOOPBACK_URL_VARIABLE, "http://127.0.0.1:" + mite.loopbackPort(),
        PluginSettings.TOKEN_FILE_VARIABLE, dir.resolve("loopback/loopback-token").toString())),
        dir.resolve("jenkins-home"), Clock.systemUTC());
    running.add(core);
    LogStore store = LogStores.open(tier).orElseThrow();
    running.add(store);
    return new Pod(controller, gatewayA, gatewayB, mite, core, store);
  }

  private Gateway gateway(String id, Path caCert, Path caKey, BlobStoreSettings tier) throws Exception {
    Gateway gateway = Gateway.start(GatewaySettings.of(id, NATS.server().url(), caCert, caKey)
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withBlobStore(tier));
    running.add(gateway);
    return gateway;
  }

  @ParameterizedTest(name = "{0} tier")
  @ValueSource(strings = {"s3", "postgres"})
  void aBuildLogArrivesWholeAcrossTheCrashOfTheGatewayHoldingTheStream(String tierName) throws Exception {
    Pod pod = start(tierName.equals("s3") ? s3 : postgres);
    String runId = "run-" + UUID.randomUUID();
    LogCopy copy = pod.core().log(runId, "team/app/main");
    ByteArrayOutputStream jenkinsOwn = new ByteArrayOutputStream();
    ByteArrayOutputStream written = new ByteArrayOutputStream();
    try (ConsoleLogSink sink = copy.sink(jenkinsOwn)) {
      writeLines(sink, written, 0, 40_000);
      // some of it is acknowledged, then the gateway holding the stream dies without a goodbye
      await().atMost(ARRIVAL).until(() -> copy.shipped() > 512 * 1024);
      long acknowledged = copy.shipped();
      pod.holding().crash();
      assertThat(pod.store().extent(pod.key(runId)).storedThrough())
          .as("what was acknowledged before the crash is in the store").isGreaterThanOrEqualTo(acknowledged);
      writeLines(sink, written, 40_000, 80_000);
    }
    pod.core().runFinished(runId);

    await().atMost(ARRIVAL).until(() -> pod.store().extent(pod.key(runId)).complete());
    byte[] expected = written.toByteArray();
    assertThat(jenkinsOwn.toByteArray()).as("Jenkins' own log is untouched").isEqualTo(expected);
    LogExtent extent = pod.store().extent(pod.key(runId));
    assertThat(extent.storedThrough()).as("no chunk lost, none doubled").isEqualTo(expected.length);
    assertThat(readAll(pod.store(), pod.key(runId))).isEqualTo(expected);
    await().atMost(ARRIVAL).until(() -> !Files.exists(dir.resolve("jenkins-home/varroa/logs").resolve(runId + ".log")));
  }

  @Test
  void aLiveTailSeesALineOfARunningBuildWhileItRuns() throws Exception {
    Pod pod = start(s3);
    String runId = "run-" + UUID.randomUUID();
    Connection viewer = NATS.server().connect();
    running.add(viewer);
    LogReader reader = new LogReader(pod.store(), viewer);
    running.add(reader);
    ByteArrayOutputStream seen = new ByteArrayOutputStream();
    AtomicLong arrivedAt = new AtomicLong();
    try (LogTail tail = reader.tail(pod.key(runId), 0, (offset, data) -> {
          synchronized (seen) {
            seen.write(data, 0, data.length);
          }
          arrivedAt.set(System.nanoTime());
        });
        ConsoleLogSink sink = pod.core().log(runId, "team/app/main").sink(OutputStream.nullOutputStream())) {
      sink.write("Started by timer\n".getBytes(StandardCharsets.UTF_8));
      sink.flush();
      await().atMost(ARRIVAL).until(() -> tail.position() > 0);

      byte[] line = "[Pipeline] sh: make test\n".getBytes(StandardCharsets.UTF_8);
      long writtenAt = System.nanoTime();
      sink.write(line);
      sink.flush();
      long expectedEnd = tail.position() + line.length;
      // the build is still running (its sink open); issue 12's "within a second" is measured by make bench-logs
      // (live_tail_p95_<tier>, docs/benchmarks.md), not by a timed assertion that a busy machine can miss
      await().atMost(ARRIVAL).until(() -> tail.position() == expectedEnd);
      synchronized (seen) {
        assertThat(seen.toString(StandardCharsets.UTF_8)).isEqualTo("Started by timer\n[Pipeline] sh: make test\n");
      }
      System.out.printf(Locale.ROOT, "live tail: the line reached the viewer %.1f ms after the build wrote it%n",
          (arrivedAt.get() - writtenAt) / 1e6);
    }
  }

  private static void writeLines(OutputStream sink, ByteArrayOutputStream written, int from, int to)
      throws java.io.IOException {
    for (int i = from; i < to; i++) {
      byte[] line = String.format(Locale.ROOT, "[build] %06d compiling dev/varroa/Module%04d.java%n", i, i % 9_973)
          .getBytes(StandardCharsets.UTF_8);
      sink.write(line);
      written.write(line);
    }
    sink.flush();
  }

  private static byte[] readAll(LogStore store, LogKey key) throws Exception {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    while (true) {
      byte[] range = store.read(key, all.size(), LogReader.MAX_READ_BYTES);
      if (range.length == 0) {
        return all.toByteArray();
      }
      all.write(range, 0, range.length);
    }
  }
}

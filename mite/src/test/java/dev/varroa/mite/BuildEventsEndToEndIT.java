package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.plugin.events.BuildEventEmitter;
import dev.varroa.plugin.loopback.LoopbackClient;
import dev.varroa.plugin.loopback.LoopbackToken;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.ClaimDecision;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build data plane with every real part in line: the plugin core (spool and loopback client), the mite, two
 * gateways, nats-server with JetStream, the recorder and PostgreSQL. Only Jenkins is the contract fixture.
 */
class BuildEventsEndToEndIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();

  private static final Duration ARRIVAL = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  private final List<AutoCloseable> running = new ArrayList<>();
  private ControllerIdentity controller;
  private Gateway gatewayA;
  private Gateway gatewayB;
  private Mite mite;
  private PluginSettings plugin;

  @BeforeEach
  void setUp() throws Exception {
    Connection nats = NATS.server().connect();
    running.add(nats);
    BusTopology.ensure(nats);
    controller = new ControllerIdentity("team-a", "ci-" + UUID.randomUUID().toString().substring(0, 8),
        UUID.randomUUID().toString());
    Path caCert = dir.resolve("ca.crt");
    Path caKey = dir.resolve("ca.key");
    CertificateAuthority.createFiles(caCert, caKey);
    gatewayA = gateway("gw-a", caCert, caKey);
    gatewayB = gateway("gw-b", caCert, caKey);
    PostgresServer postgres = POSTGRES.server();
    running.add(Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        NATS.server().url()).withHealthPort(0)));
    JenkinsFixture jenkins = JenkinsFixture.start();
    running.add(jenkins);
    BootstrapTokens.write(nats, controller, dir.resolve("bootstrap/token"));
    mite = Mite.start(new MiteSettings(controller, controller.name() + "-0",
        List.of(new GatewayEndpoint("127.0.0.1", gatewayA.port()), new GatewayEndpoint("127.0.0.1", gatewayB.port())),
        dir.resolve("bootstrap/token"), caCert, dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT,
        MiteSettings.DEFAULT_SCHEDULE_POLL_INTERVAL));
    running.add(mite);
    await().atMost(Duration.ofSeconds(30)).until(mite::connected);
    plugin = PluginSettings.fromEnvironment(Map.of(
        PluginSettings.LOOPBACK_URL_VARIABLE, "http://127.0.0.1:" + mite.loopbackPort(),
        PluginSettings.TOKEN_FILE_VARIABLE, dir.resolve("loopback/loopback-token").toString()));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).close();
    }
  }

  @Test
  void aRunReachesItsRowsAcrossTheLossOfTheGatewayHoldingTheStream() throws Exception {
    try (PluginCore core = PluginCore.start(plugin, dir.resolve("jenkins-home"), Clock.systemUTC())) {
      BuildEventEmitter events = core.events();
      String runId = BuildEventEmitter.newRunId();
      events.runQueued(runId, "team/app/main", 7, "Started by timer");
      events.runStarted(runId, "team/app/main", 41, "agent-1", 250, "Started by timer");
      events.stageStarted(runId, "team/app/main", "5", "Build", "");
      await().atMost(ARRIVAL).until(() -> eventRows(runId) == 3);

      // the stream's gateway goes away mid-run: the mite moves to the other one, and nothing is lost
      Gateway holding = mite.gatewayId().orElseThrow().equals("gw-a") ? gatewayA : gatewayB;
      holding.close();
      events.stageEnded(runId, "team/app/main", "5", "Build", "", "SUCCESS", 900);
      events.testSummary(runId, "team/app/main", 120, 2, 3);
      events.runCompleted(runId, "team/app/main", 41, "UNSTABLE", 5_000);
      events.runFinalized(runId, "team/app/main", 41, "UNSTABLE", 5_100);
      await().atMost(ARRIVAL).until(() -> eventRows(runId) == 7);
    }

    try (var db = connect(); PreparedStatement run = db.prepareStatement("SELECT r.job, r.build_number, r.result, "
        + "r.node, r.last_sequence, s.status, t.total, t.failed, t.skipped FROM runs r JOIN stages s USING "
        + "(controller_uid, run_id) JOIN test_summaries t USING (controller_uid, run_id) WHERE r.controller_uid = ?")) {
      run.setString(1, controller.uid());
      try (ResultSet row = run.executeQuery()) {
        assertThat(row.next()).isTrue();
        assertThat(row.getString("job")).isEqualTo("team/app/main");
        assertThat(row.getLong("build_number")).isEqualTo(41);
        assertThat(row.getString("result")).isEqualTo("UNSTABLE");
        assertThat(row.getString("node")).isEqualTo("agent-1");
        assertThat(row.getLong("last_sequence")).isEqualTo(7);
        assertThat(row.getString("status")).isEqualTo("SUCCESS");
        assertThat(List.of(row.getInt("total"), row.getInt("failed"), row.getInt("skipped"))).containsExactly(120, 2, 3);
        assertThat(row.next()).as("one run, one stage").isFalse();
      }
    }
  }

  @Test
  void theLedgerGrantsNumbersThroughTheMiteAndRefusesAHeldJobWithItsReason() throws Exception {
    String job = "team/app/release-" + controller.uid().substring(0, 8);
    try (LoopbackClient client = new LoopbackClient(plugin, new LoopbackToken(plugin.tokenFile(), Clock.systemUTC()))) {
      ClaimDecision first = client.claim(claim("run-1", job));
      ClaimDecision second = client.claim(claim("run-2", job));
      assertThat(List.of(first.getDecision(), second.getDecision())).containsExactly("granted", "granted");
      assertThat(List.of(first.getBuildNumber(), second.getBuildNumber())).containsExactly(1L, 2L);
      assertThat(client.claim(claim("run-1", job)).getBuildNumber()).as("the same run asking again").isEqualTo(1);

      try (var db = connect(); PreparedStatement hold = db.prepareStatement(
          "INSERT INTO job_holds (job, reason) VALUES (?, 'release freeze')")) {
        hold.setString(1, job);
        hold.executeUpdate();
      }
      ClaimDecision held = client.claim(claim("run-3", job));
      assertThat(held.getDecision()).isEqualTo("refused");
      assertThat(held.getCode()).isEqualTo("OK");
      assertThat(held.getReason()).isEqualTo("release freeze");
    }
  }

  private static ClaimRequest claim(String runId, String job) {
    return ClaimRequest.newBuilder().setRunId(runId).setJob(job).setQueueId(1).build();
  }

  private Gateway gateway(String id, Path caCert, Path caKey) throws Exception {
    Gateway gateway = Gateway.start(GatewaySettings.of(id, NATS.server().url(), caCert, caKey)
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1")));
    running.add(gateway);
    return gateway;
  }

  private long eventRows(String runId) throws Exception {
    try (var db = connect(); PreparedStatement count = db.prepareStatement(
        "SELECT count(*) FROM run_events WHERE controller_uid = ? AND run_id = ?")) {
      count.setString(1, controller.uid());
      count.setString(2, runId);
      try (ResultSet row = count.executeQuery()) {
        row.next();
        return row.getLong(1);
      }
    }
  }

  private java.sql.Connection connect() throws java.sql.SQLException {
    PostgresServer postgres = POSTGRES.server();
    return DriverManager.getConnection(postgres.jdbcUrl(), postgres.user(), postgres.password());
  }
}

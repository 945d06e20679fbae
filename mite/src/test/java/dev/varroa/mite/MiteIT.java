package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.gateway.ca.ClientCertificate;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.TokenDigest;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.JenkinsTokenGrant;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.CommandResult.Outcome;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.OneShot;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.jenkins.ConfigurationSource;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mite end to end: real nats-server, real gateways, the Jenkins contract fixture with the
 * plugin's real JWT check, and bootstrap tokens written to the bus the way the operator writes them.
 */
class MiteIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  /** Short, so that a test sees several heartbeats and state polls within seconds. */
  private static final Duration HEARTBEAT = Duration.ofSeconds(1);
  private static final Duration COMMAND_WAIT = Duration.ofSeconds(30);
  private static final AtomicInteger CONTROLLERS = new AtomicInteger();

  @TempDir
  Path dir;

  private final List<AutoCloseable> running = new ArrayList<>();
  private Connection nats;
  private ControllerIdentity controller;
  private Path caCert;
  private Path caKey;
  private JenkinsFixture jenkins;
  private OperatorTokens tokens;

  @BeforeEach
  void setUp() throws Exception {
    nats = NATS.server().connect();
    BusTopology.ensure(nats);
    // one controller per test: the routes and tokens of other tests stay out of the way
    controller = new ControllerIdentity("team-a", "ci-" + CONTROLLERS.incrementAndGet(), UUID.randomUUID().toString());
    caCert = dir.resolve("ca.crt");
    caKey = dir.resolve("ca.key");
    CertificateAuthority.createFiles(caCert, caKey);
    jenkins = JenkinsFixture.start();
    tokens = OperatorTokens.forController(controller, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    jenkins.cascDirectory(dir.resolve("casc"));
  }

  @AfterEach
  void tearDown() throws Exception {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).close();
    }
    jenkins.close();
    nats.close();
  }

  // ---- the scenarios ----

  @Test
  void registersWithTheBootstrapTokenAndConnects() throws Exception {
    Gateway gateway = gateway("gw-a");
    String token = bootstrapToken();

    Mite mite = mite(List.of(gateway), caCert);

    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    assertThat(mite.gatewayId()).contains("gw-a");
    MiteRoute route = await().atMost(Duration.ofSeconds(10)).until(this::route, Optional::isPresent).orElseThrow();
    assertThat(route.getGatewayId()).isEqualTo("gw-a");
    assertThat(route.getPodName()).isEqualTo(controller.name() + "-0");
    assertThat(route.getMiteVersion()).isNotEmpty();
    BootstrapTokenRecord record = tokenRecord(token);
    assertThat(record.getUsed()).isTrue();
    assertThat(record.getUsedByGateway()).isEqualTo("gw-a");
    Path key = dir.resolve("identity/" + IdentityStore.KEY_FILE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
    assertThat(mite.certificateNotAfter().orElseThrow())
        .isAfter(Instant.now().plus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME).minus(Duration.ofMinutes(10)));
    // observed state reaches the route: the fixture's version, read over localhost
    await().atMost(Duration.ofSeconds(10))
        .until(() -> route().map(r -> r.getObserved().getJenkinsVersion()).orElse(""),
            v -> v.equals(JenkinsFixture.DEFAULT_VERSION));
  }

  @Test
  void appliesADesiredStateSentAsANatsRequest() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite mite = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    assertThat(readyz(mite)).isEqualTo(503);

    CommandResult result = send(gateway, desiredState("apply-1", "sha256:abc", "jenkins:\n  systemMessage: hi\n",
        Duration.ofMinutes(1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(result.getJenkinsStatus()).isEqualTo(302);
    assertThat(result.getBundleDigest()).isEqualTo("sha256:abc");
    assertThat(jenkins.lastAppliedConfiguration().orElseThrow().sources()).extracting(ConfigurationSource::yaml)
        .containsExactly("jenkins:\n  systemMessage: hi\n");
    Path secret = dir.resolve("secrets/github-token");
    assertThat(Files.readString(secret)).isEqualTo("ghp-not-a-real-one");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secret))).isEqualTo("r--------");
    // the reload went in with the token the desired state carried, checked by the plugin's verifier
    assertThat(jenkins.requests()).filteredOn(r -> r.path().equals("/configuration-as-code/reload"))
        .extracting(r -> r.caller()).containsExactly(Caller.VERIFIED_BEARER);
    assertThat(readyz(mite)).isEqualTo(200);
    await().atMost(Duration.ofSeconds(10))
        .until(() -> route().map(r -> r.getObserved().getAppliedBundleDigest()).orElse(""), "sha256:abc"::equals);
  }

  @Test
  void reportsJenkinsOwnMessageWhenJenkinsRejectsTheConfiguration() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite mite = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    jenkins.rejectConfiguration("No configurator for the following root elements: jenkins.systemMesage");

    CommandResult result = send(gateway, desiredState("apply-2", "sha256:bad", "jenkins:\n  systemMesage: hi\n",
        Duration.ofMinutes(1)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.FAILED);
    assertThat(result.getMessage()).contains("No configurator for the following root elements: jenkins.systemMesage");
    assertThat(result.getJenkinsStatus()).isEqualTo(200);
    assertThat(mite.desiredStateApplied()).isFalse();
  }

  @Test
  void givesUpOnASlowReloadAtTheCommandDeadline() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite mite = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    jenkins.configurationDelay(Duration.ofSeconds(30));

    CommandResult result = send(gateway, desiredState("apply-3", "sha256:slow", "a: 1\n", Duration.ofSeconds(3)));

    assertThat(result.getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    // the mite itself stops waiting at the deadline too, and says so in its own result
    await().atMost(Duration.ofSeconds(10)).until(() -> mite.lastResult().map(CommandResult::getCommandId).orElse(""),
        "apply-3"::equals);
    assertThat(mite.lastResult().orElseThrow().getOutcome()).isEqualTo(Outcome.DEADLINE_EXCEEDED);
    assertThat(mite.lastResult().orElseThrow().getMessage()).contains("command deadline");
  }

  @Test
  void drainWaitsForAPipelineRunOnAOneOffExecutor() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite mite = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    assertThat(send(gateway, desiredState("token", "sha256:t", "a: 1\n", Duration.ofMinutes(1))).getOutcome())
        .isEqualTo(Outcome.SUCCEEDED);
    RunningBuild pipeline = jenkins.startBuild("deploy", true);
    await().atMost(Duration.ofSeconds(10)).until(() -> route().map(r -> r.getObserved().getRunningBuilds()).orElse(0),
        n -> n == 1);

    // the preStop hook's call: inside the pod, on the loopback listener, with the loopback token
    String loopbackToken = Files.readString(dir.resolve("loopback/" + LoopbackToken.FILE_NAME));
    CompletableFuture<HttpResponse<String>> drain = HttpClient.newHttpClient().sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mite.loopbackPort() + "/drain"))
            .header("Authorization", "Bearer " + loopbackToken)
            .POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());

    await().atMost(Duration.ofSeconds(10)).until(jenkins::quietingDown);
    assertThat(drain).isNotDone();
    pipeline.finish();
    HttpResponse<String> answer = drain.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).startsWith("{\"buildsLeft\":0,").contains("\"timedOut\":false");
    await().atMost(Duration.ofSeconds(10)).until(() -> route().map(r -> r.getObserved().getQuietingDown())
        .orElse(false));
  }

  @Test
  void safeRestartWaitsForTheBuildAndTheRouteSeesJenkinsUpSinceMove() throws Exception {
    jenkins.restartTimings(Duration.ofMillis(500), Duration.ofMillis(400), Duration.ofMillis(400));
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite mite = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    assertThat(send(gateway, desiredState("token", "sha256:t", "a: 1\n", Duration.ofMinutes(1))).getOutcome())
        .isEqualTo(Outcome.SUCCEEDED);
    long upBefore = await().atMost(Duration.ofSeconds(10))
        .until(() -> route().map(r -> r.getObserved().getJenkinsUpSinceEpochMillis()).orElse(0L), millis -> millis > 0);
    RunningBuild build = jenkins.startBuild("deploy", false);
    long requested = System.currentTimeMillis();

    CommandResult result = send(gateway, Command.newBuilder().setCommandId("restart-1")
        .setDeadlineEpochMillis(Instant.now().plusSeconds(30).toEpochMilli())
        .setOneShot(OneShot.newBuilder().setAction(OneShot.Action.SAFE_RESTART)).build());

    assertThat(result.getOutcome()).isEqualTo(Outcome.SUCCEEDED);
    await().atMost(Duration.ofSeconds(10)).until(() -> route().map(r -> r.getObserved().getQuietingDown())
        .orElse(false));
    assertThat(jenkins.restarts()).isZero();
    assertThat(route().orElseThrow().getObserved().getJenkinsUpSinceEpochMillis()).isEqualTo(upBefore);
    build.finish();
    await().atMost(Duration.ofSeconds(20))
        .until(() -> route().map(r -> r.getObserved().getJenkinsUpSinceEpochMillis()).orElse(0L),
            millis -> millis > requested);
    assertThat(jenkins.restarts()).isEqualTo(1);
    assertThat(route().orElseThrow().getObserved().getQuietingDown()).isFalse();
  }

  @Test
  void reconnectsToTheOtherGatewayWhenItsGatewayCrashes() throws Exception {
    Gateway first = gateway("gw-a");
    Gateway second = gateway("gw-b");
    bootstrapToken();
    Mite mite = mite(List.of(first, second), caCert);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
    String holder = mite.gatewayId().orElseThrow();
    Gateway crashing = holder.equals("gw-a") ? first : second;
    String other = holder.equals("gw-a") ? "gw-b" : "gw-a";

    crashing.crash();

    // the first reconnect waits at most the initial backoff, then rotates to the other gateway
    await().atMost(Backoff.RECONNECT_BACKOFF_INITIAL.plusSeconds(10))
        .until(() -> mite.gatewayId().orElse(""), other::equals);
    await().atMost(Duration.ofSeconds(10)).until(() -> route().map(MiteRoute::getGatewayId).orElse(""),
        other::equals);
    // the stream on the new gateway carries commands
    Gateway survivor = holder.equals("gw-a") ? second : first;
    assertThat(send(survivor, desiredState("after-crash", "sha256:c", "a: 2\n", Duration.ofMinutes(1))).getOutcome())
        .isEqualTo(Outcome.SUCCEEDED);
  }

  @Test
  void neverRegistersWhenTheCaFileIsNotTheGatewaysCa() throws Exception {
    Gateway gateway = gateway("gw-a");
    String token = bootstrapToken();
    Path strangerCa = dir.resolve("stranger-ca.crt");
    CertificateAuthority.createFiles(strangerCa, dir.resolve("stranger-ca.key"));

    Mite mite = mite(List.of(gateway), strangerCa);

    await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(7)).until(() -> !mite.registered());
    assertThat(mite.connected()).isFalse();
    assertThat(tokenRecord(token).getUsed()).isFalse();
    assertThat(route()).isEmpty();
    assertThat(Files.exists(dir.resolve("identity/" + IdentityStore.CERTIFICATE_FILE))).isFalse();
  }

  @Test
  void reusesItsCertificateAfterAContainerRestart() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    Mite first = mite(List.of(gateway), caCert);
    await().atMost(Duration.ofSeconds(20)).until(first::connected);
    Instant notAfter = first.certificateNotAfter().orElseThrow();
    first.close();

    // the token is spent: only the stored key and certificate can get the new container connected
    Mite second = mite(List.of(gateway), caCert);

    await().atMost(Duration.ofSeconds(20)).until(second::connected);
    assertThat(second.certificateNotAfter()).contains(notAfter);
  }

  @Test
  void renewsACertificatePastHalfLifeAndReconnectsWithTheNewOne() throws Exception {
    Gateway gateway = gateway("gw-a");
    // what a container restart finds 40 hours into a 72-hour certificate: no token needed, renewal due
    SigningRequest request = SigningRequest.generate();
    ClientCertificate old = CertificateAuthority.load(caCert, caKey).signClientCertificate(
        CertificateAuthority.parseCertificationRequest(request.csrDer()), controller,
        Instant.now().minus(Duration.ofHours(40)));
    new IdentityStore(dir.resolve("identity")).save(new MiteIdentity(request.keyPair().getPrivate(),
        MiteIdentity.parseChain(old.certificateChainPem())));
    BootstrapTokens.recordLive(nats, controller);

    Mite mite = mite(List.of(gateway), caCert);

    Instant fresh = Instant.now().plus(CertificateAuthority.CLIENT_CERTIFICATE_LIFETIME).minus(Duration.ofMinutes(10));
    await().atMost(Duration.ofSeconds(20)).until(() -> mite.certificateNotAfter().orElse(Instant.EPOCH).isAfter(fresh));
    // the stream the gateway routes to now runs on the renewed certificate
    await().atMost(Duration.ofSeconds(20)).until(() -> route()
        .map(r -> Instant.ofEpochMilli(r.getCertificateNotAfterEpochMillis()).isAfter(fresh)).orElse(false));
    // the gateway writes the route from the Hello, before its Welcome reaches the mite
    await().atMost(Duration.ofSeconds(10)).until(mite::connected);
    MiteIdentity stored = new IdentityStore(dir.resolve("identity")).load().orElseThrow();
    assertThat(stored.notAfter()).isAfter(fresh);
    assertThat(stored.keyMatches()).isTrue();
    assertThat(stored.key()).isNotEqualTo(request.keyPair().getPrivate());
  }

  @Test
  void asksForAJenkinsTokenWhenItHoldsNone() throws Exception {
    Gateway gateway = gateway("gw-a");
    bootstrapToken();
    AtomicInteger asked = new AtomicInteger();
    Dispatcher operator = nats.createDispatcher((Message request) -> {
      asked.incrementAndGet();
      nats.publish(request.getReplyTo(), JenkinsTokenGrant.newBuilder().setToken(tokens.mint()).build().toByteArray());
    });
    operator.subscribe(BusNames.jenkinsTokenRequests(gateway.clusterName()), BusNames.OPERATOR_QUEUE_GROUP);
    nats.flush(Duration.ofSeconds(5));

    Mite mite = mite(List.of(gateway), caCert);

    await().atMost(Duration.ofSeconds(20)).until(mite::holdsJenkinsToken);
    assertThat(asked.get()).isGreaterThanOrEqualTo(1);
    // with the token it reads Jenkins as the verified bearer
    await().atMost(Duration.ofSeconds(10)).until(() -> jenkins.requests().stream()
        .anyMatch(r -> r.caller() == Caller.VERIFIED_BEARER && r.path().equals("/computer/api/json")));
    nats.closeDispatcher(operator);
  }

  // ---- the world around the mite ----

  private Gateway gateway(String id) throws Exception {
    Gateway gateway = Gateway.start(GatewaySettings.of(id, NATS.server().url(), caCert, caKey)
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withHeartbeatInterval(HEARTBEAT));
    running.add(gateway);
    return gateway;
  }

  private Mite mite(List<Gateway> gateways, Path caFile) throws Exception {
    MiteSettings settings = new MiteSettings(controller, controller.name() + "-0",
        gateways.stream().map(g -> new GatewayEndpoint("127.0.0.1", g.port())).toList(),
        dir.resolve("bootstrap/token"), caFile, dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT,
        MiteSettings.DEFAULT_SCHEDULE_POLL_INTERVAL);
    Mite mite = Mite.start(settings);
    running.add(mite);
    return mite;
  }

  /** What the operator does before it creates the pod: a single-use token bound to this controller. */
  private String bootstrapToken() throws Exception {
    return BootstrapTokens.write(nats, controller, dir.resolve("bootstrap/token"));
  }

  private BootstrapTokenRecord tokenRecord(String token) throws Exception {
    KeyValueEntry entry = nats.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET).get(TokenDigest.of(token));
    return BootstrapTokenRecord.parseFrom(entry.getValue());
  }

  private Optional<MiteRoute> route() throws Exception {
    KeyValueEntry entry = nats.keyValue(BusNames.MITE_ROUTES_BUCKET).get(controller.routeKey());
    return entry == null || entry.getValue() == null ? Optional.empty() : Optional.of(MiteRoute.parseFrom(entry.getValue()));
  }

  /** The operator's command path: a core NATS request to the gateway holding the stream. */
  private CommandResult send(Gateway gateway, Command command) throws Exception {
    Message reply = nats.request(BusNames.gatewayCommands(gateway.clusterName(), gateway.gatewayId()),
        GatewayCommand.newBuilder().setController(controller.toRef()).setCommand(command).build().toByteArray(),
        COMMAND_WAIT);
    assertThat(reply).as("the gateway answers the command request").isNotNull();
    return CommandResult.parseFrom(reply.getData());
  }

  private Command desiredState(String id, String digest, String yaml, Duration deadline) {
    return Command.newBuilder()
        .setCommandId(id)
        .setDeadlineEpochMillis(Instant.now().plus(deadline).toEpochMilli())
        .setDesiredState(DesiredState.newBuilder()
            .setBundleDigest(digest)
            .addJcascFiles(File.newBuilder().setPath("jenkins.yaml").setContent(ByteString.copyFromUtf8(yaml)))
            .addSecretFiles(File.newBuilder().setPath("github-token")
                .setContent(ByteString.copyFromUtf8("ghp-not-a-real-one")))
            .setJenkinsToken(tokens.mint()))
        .build();
  }

  private static int readyz(Mite mite) throws Exception {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mite.healthPort() + "/readyz")).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }
}

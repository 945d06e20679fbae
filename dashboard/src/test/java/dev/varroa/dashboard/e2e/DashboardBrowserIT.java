package dev.varroa.dashboard.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.http.TrustedProxies;
import dev.varroa.dashboard.records.DashboardDatabase;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.retention.RetentionRules;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dashboard in headless Chromium (Debian's package, driven by playwright-core from npm) against the BFF in front
 * of a real API server and operator, NATS JetStream, the recorder writing PostgreSQL, and the OpenID provider: the
 * demo's two controllers (ci/sandbox, ci/team-a), one recorded run and one running. Each script saves screenshots
 * under target/e2e-screenshots.
 */
@WithKubeApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardBrowserIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  static final Path SCREENSHOTS = Path.of("target", "e2e-screenshots").toAbsolutePath();
  /** Every page at 1280x720 and 1920x1080, kept as a build artifact (docs/testing.md). */
  static final Path PAGES = Path.of("target", "screenshots").toAbsolutePath();
  private static final String USER = "alice";
  /** A member that registered and went silent: the brood pages name it, its operation's target shows Unknown. */
  private static final String SILENT_MEMBER = "us-2";
  /** The return_to script logs in some forty times within a minute or two, all from this machine. */
  private static final int LOGINS_PER_MINUTE = 600;

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user(USER)),
      List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static DashboardDatabase database;
  private static Recorder recorder;
  private static LogStore gatewayLogs;
  private static BffStack stack;
  private static PlayedBuild played;
  private static ActivityPublisher activity;
  private static String token;
  private static BroodScene brood;

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path folder) throws Exception {
    client = kube.client();
    Files.createDirectories(SCREENSHOTS);
    BffFixtures.namespaces(client, "ci");
    BffFixtures.create(client, StarterProfile.PROFILE_YAML, JenkinsVersionProfile.class);
    for (String name : List.of("sandbox", "team-a")) {
      BffFixtures.create(client, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: " + name
          + ", namespace: ci, labels: {team: " + name + "}}\nspec: {versionProfileRef: {name: lts}}\n", Controller.class);
    }
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", USER, null);

    database = DashboardDatabase.create(POSTGRES.server(), "e2e", folder);
    BlobStoreSettings ownerLogs = BlobStoreSettings.postgresWithPassword(database.url(), POSTGRES.server().user(),
        POSTGRES.server().password());
    recorder = Recorder.start(RecorderSettings.of(database.url(), POSTGRES.server().user(),
        POSTGRES.server().password(), NATS.server().url()).withHealthPort(0), RetentionRules.defaults(),
        LogStores.open(ownerLogs));
    gatewayLogs = LogStores.open(ownerLogs).orElseThrow();

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    BusTopology.ensureActivity(operatorBus);
    activity = new ActivityPublisher(() -> operatorBus, BffStack.CLUSTER, "operator", Clock.systemUTC());
    stack = BffStack.startRecorded(client, folder.resolve("cache"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, database, folder.resolve("bff-db-password"),
        logs -> BffServer.McpMount.none(), new LoginRateLimit.Settings(LOGINS_PER_MINUTE, TrustedProxies.none()));
    token = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), USER, BffFixtures.password(USER))
        .idToken();

    Controller teamA = client.resources(Controller.class).inNamespace("ci").withName("team-a").get();
    played = new PlayedBuild(operatorBus, gatewayLogs, BffStack.CLUSTER,
        new ControllerIdentity("ci", "team-a", teamA.getMetadata().getUid()));
    played.finished("team-a/app/main", 41);
    // both controllers resolve (a digest to render) and the finished run is recorded, before any browser starts
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/controllers").path("items")).hasSize(2));
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/controllers/ci/team-a").toString())
        .as("ci/team-a renders a bundle").contains("\"desiredBundleDigest\":\"sha256:"));
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/runs?namespace=ci&controller=team-a")
        .path("items")).as("the finished run is recorded").hasSize(1));
    brood = new BroodScene(client, BffStack.CLUSTER, SILENT_MEMBER);
    brood.create();
    played.schedules(Map.of("nightly-build", List.of("H 2 * * *"), "cleanup", List.of("@weekly")));
  }

  /** The brood operations and schedules and team-a's job schedules read through the BFF, before a browser looks. */
  private static void broodReadable() {
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/broodoperations").path("operations"))
        .as("the three brood operations").hasSize(3));
    await().atMost(DEADLINE).untilAsserted(() -> {
      JsonNode schedules = api("/broodschedules");
      assertThat(schedules.path("schedules")).as("the two brood schedules").hasSize(2);
      assertThat(schedules.path("jobSchedules")).as("team-a's two scheduled jobs are recorded").hasSize(2);
    });
  }

  private static void registerSilentMember() throws Exception {
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put(SILENT_MEMBER, ClusterPresence.newBuilder()
        .setName(SILENT_MEMBER).setRole("member").setOperatorVersion("0.1.0").setKubernetesVersion("v1.34.4")
        .setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, recorder, gatewayLogs, database}) {
      if (closeable != null) {
        closeable.close();
      }
    }
    if (operatorBus != null) {
      operatorBus.close();
      bffBus.close();
    }
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 ? JSON.readTree(response.body()) : JSON.createObjectNode();
  }

  private static BrowserScript script(Map<String, String> extra) {
    Map<String, String> environment = new HashMap<>(extra);
    environment.put("VARROA_E2E_URL", stack.url());
    environment.put("VARROA_E2E_USER", USER);
    environment.put("VARROA_E2E_PASSWORD", BffFixtures.password(USER));
    environment.put("VARROA_E2E_SCREENSHOTS", SCREENSHOTS.toString());
    return new BrowserScript(environment);
  }

  private static void passes(BrowserScript.Outcome outcome) {
    assertThat(outcome.exitCode()).as("%s", outcome).isZero();
    assertThat(outcome.output()).as("%s", outcome).anyMatch(line -> line.startsWith("ok: "));
  }

  @Test
  @Order(1)
  void aUserLogsInAndSeesBothDemoControllers() throws Exception {
    passes(script(Map.of()).run("login-and-list.mjs"));
    assertThat(SCREENSHOTS.resolve("controllers.png")).exists();
  }

  @Test
  @Order(2)
  void theListFiltersThroughTheUrl() throws Exception {
    passes(script(Map.of()).run("filter-url.mjs"));
  }

  @Test
  @Order(3)
  void aRecordedRunAndALiveLogFollowedToItsEnd() throws Exception {
    String runId = UUID.randomUUID().toString();
    played.started(runId, "team-a/app/main", 42);
    played.log(runId, "Started by user alice\n[Pipeline] stage Build\n", false);
    await().atMost(DEADLINE).until(() -> api("/runs/" + runId).path("runId").asText().equals(runId));
    passes(script(Map.of("VARROA_E2E_RUN", runId))
        .on("more-log", () -> played.log(runId, "[Pipeline] stage Test\nall 12 tests passed\n", false))
        .on("finish", () -> {
          played.log(runId, "Finished: SUCCESS\n", true);
          played.completed(runId, "team-a/app/main", 42);
        })
        .run("live-log.mjs"));
  }

  @Test
  @Order(4)
  void aConditionChangeArrivesLive() throws Exception {
    passes(script(Map.of()).on("break-bundle", () -> client.resources(Controller.class).inNamespace("ci")
        .withName("team-a").edit(c -> {
          c.getSpec().composedBundleRef = new dev.varroa.api.v1alpha1.ObjectRef();
          c.getSpec().composedBundleRef.name = "team-a-missing";
          return c;
        })).run("condition-live.mjs"));
  }

  @Test
  @Order(5)
  void liveActivityArrivesWithoutReload() throws Exception {
    passes(script(Map.of()).on("publish-activity", () -> activity.controller("ci", "sandbox",
        "controller.phase_changed", "phase Provisioning -> Running", Map.of("from", "Provisioning"))).run("activity.mjs"));
  }

  @Test
  @Order(6)
  void aRegisteredClusterThatStopsAnsweringIsNamed() throws Exception {
    BusTopology.ensureClusters(operatorBus);
    // a member that registered and went silent: its entry lives on, nobody answers for its controllers
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("us-2", ClusterPresence.newBuilder().setName("us-2")
        .setRole("member").setOperatorVersion("0.1.0").setKubernetesVersion("v1.34.4")
        .setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      passes(script(Map.of("VARROA_E2E_SILENT_CLUSTER", "us-2")).run("cluster-warning.mjs"));
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("us-2");
    }
  }

  @Test
  @Order(9)
  void aDrainsProgressShowsWithTheCommandToCopyAndNoButton() throws Exception {
    BusTopology.ensureClusters(operatorBus);
    // the entry a draining member's operator keeps fresh (docs/actions.md), then the one it writes once drained
    ClusterPresence.Builder member = ClusterPresence.newBuilder().setName("us-3").setRole("member")
        .setOperatorVersion("0.1.0").setKubernetesVersion("v1.34.4").setControllers(2).setDrainState("Draining")
        .setRefreshedAtEpochMillis(System.currentTimeMillis());
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("us-3", member.build().toByteArray());
    try {
      passes(script(Map.of("VARROA_E2E_DRAINING_CLUSTER", "us-3")).on("drained", () -> operatorBus.keyValue(
          BusNames.CLUSTERS_BUCKET).put("us-3", member.setControllers(0).setDrainState("Drained")
              .setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray())).run("drain-progress.mjs"));
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("us-3");
    }
  }

  @Test
  @Order(7)
  void everyReturnToOfALoginLinkEndsOnTheDashboardsOwnOrigin() throws Exception {
    passes(script(Map.of()).run("return-to.mjs"));
  }

  @Test
  @Order(8)
  void logoutIsTheHeadersButtonAndALinkOnlyAsksToConfirm() throws Exception {
    passes(script(Map.of()).run("logout.mjs"));
  }

  @Test
  @Order(9)
  void theOverviewUsesTheWidthAndEveryPageIsPhotographedAtBothSizes() throws Exception {
    // an applied desired state as the operator announces it: its summary carries the full digest (sandbox's: an
    // earlier test broke team-a's bundle reference)
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/controllers/ci/sandbox")
        .path("desiredBundleDigest").asText()).startsWith("sha256:"));
    String digest = api("/controllers/ci/sandbox").path("desiredBundleDigest").asText();
    activity.controller("ci", "sandbox", "controller.apply_succeeded", "desired state " + digest + " applied",
        Map.of("bundleDigest", digest));
    await().atMost(DEADLINE).until(() -> api("/activity?limit=15").toString().contains(digest + " applied"));
    String runId = api("/runs?namespace=ci&controller=team-a").path("items").get(0).path("runId").asText();
    BusTopology.ensureClusters(operatorBus);
    // a second registered cluster, so the strip shows
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("us-2", ClusterPresence.newBuilder().setName("us-2")
        .setRole("member").setOperatorVersion("0.1.0").setKubernetesVersion("v1.34.4")
        .setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    broodReadable();
    try {
      passes(script(Map.of("VARROA_E2E_RUN", runId, "VARROA_E2E_DIGEST", digest, "VARROA_E2E_PAGES",
          PAGES.toString())).run("overview-layout.mjs"));
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("us-2");
    }
    for (String page : List.of("overview", "controllers", "controller", "run", "activity", "clusters",
        "broodoperations", "broodoperation", "schedules")) {
      for (String size : List.of("1280x720", "1920x1080")) {
        assertThat(PAGES.resolve(page + "-" + size + ".png")).isNotEmptyFile();
      }
    }
  }

  @Test
  @Order(10)
  void broodOperationsAcrossClustersShowEveryTargetsStepsLive() throws Exception {
    broodReadable();
    registerSilentMember();
    try {
      passes(script(Map.of("VARROA_E2E_SILENT_CLUSTER", SILENT_MEMBER)).on("resume", brood::resume)
          .run("brood-operations.mjs"));
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete(SILENT_MEMBER);
    }
  }

  @Test
  @Order(11)
  void schedulesShowBroodSchedulesInTheirTimeZoneAndEachControllersJobSchedules() throws Exception {
    broodReadable();
    registerSilentMember();
    try {
      passes(script(Map.of("VARROA_E2E_SILENT_CLUSTER", SILENT_MEMBER)).run("schedules.mjs"));
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete(SILENT_MEMBER);
    }
  }
}

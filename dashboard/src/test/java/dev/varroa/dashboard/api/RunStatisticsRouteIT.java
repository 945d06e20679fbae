package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.records.DashboardDatabase;
import dev.varroa.protocol.BusTopology;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /statistics/runs through the BFF over real PostgreSQL, operator, API server and OpenID provider: the figures
 * count only the runs of Controllers the caller may list runs of.
 */
@WithKubeApiServer
class RunStatisticsRouteIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static final Map<String, String> TOKENS = new HashMap<>();
  private static Connection operatorBus;
  private static Connection bffBus;
  private static DashboardDatabase database;
  private static BffStack stack;

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path folder) throws Exception {
    var client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.controller(client, "team-b", "search", Map.of());
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");

    database = DashboardDatabase.create(POSTGRES.server(), "statistics", folder);
    // two hours ago, well inside the window whichever hour the test runs in
    Instant started = Instant.now().minus(Duration.ofHours(2));
    run("team-a", "orders", started, 4_000, "SUCCESS");
    run("team-b", "search", started, 10_000, "FAILURE");

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    BusTopology.ensureActivity(operatorBus);
    stack = BffStack.startRecorded(client, folder.resolve("cache"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, database, folder.resolve("bff-db-password"),
        logs -> BffServer.McpMount.none());
    for (String name : List.of("alice", "bob", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the labels the decision uses come from the controller list: wait until both controllers are listed
    await().atMost(DEADLINE).until(() -> get("/controllers", "alice").statusCode() == 200
        && JSON.readTree(get("/controllers", "alice").body()).path("items").size() == 2);
  }

  @AfterAll
  static void stop() throws Exception {
    stack.close();
    database.close();
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void aCallerWhoReadsEverythingSeesTheWholeFleet() throws Exception {
    JsonNode all = json(get("/statistics/runs", "alice"), 200);
    assertThat(all.path("recordStore").asBoolean()).isTrue();
    assertThat(all.path("bucketSeconds").asLong()).isEqualTo(3600);
    assertThat(all.path("hours")).hasSize(24);
    assertThat(Instant.parse(all.path("until").asText())).isAfter(Instant.now());
    assertThat(completed(all)).isEqualTo(Map.of("SUCCESS", 1L, "FAILURE", 1L));
    JsonNode queue = all.path("queue");
    assertThat(queue.path("started").asLong()).isEqualTo(2);
    // percentile_cont over {4000, 10000}: p50 halfway, p95 95 % of the way
    assertThat(queue.path("p50Millis").asLong()).isEqualTo(7_000);
    assertThat(queue.path("p95Millis").asLong()).isEqualTo(9_700);
  }

  @Test
  void aCallerBoundToOneNamespaceCountsOnlyItsRuns() throws Exception {
    JsonNode bob = json(get("/statistics/runs", "bob"), 200);
    assertThat(completed(bob)).isEqualTo(Map.of("FAILURE", 1L));
    assertThat(bob.path("queue").path("started").asLong()).isEqualTo(1);
    assertThat(bob.path("queue").path("p50Millis").asLong()).isEqualTo(10_000);
    assertThat(bob.path("queue").path("p95Millis").asLong()).isEqualTo(10_000);
  }

  @Test
  void refusedWithoutListRunsAndForABadWindow() throws Exception {
    JsonNode dave = json(get("/statistics/runs", "dave"), 403);
    assertThat(dave.path("missing").path("verb").asText()).isEqualTo("list");
    assertThat(dave.path("missing").path("resource").asText()).isEqualTo("runs");
    assertThat(json(get("/statistics/runs?hours=169", "alice"), 400).path("parameter").asText()).isEqualTo("hours");
    assertThat(json(get("/statistics/runs?hours=6", "alice"), 200).path("hours")).hasSize(6);
    json(get("/statistics/builds", "alice"), 404);
  }

  /** Completed runs by result, summed over the hours (which hour holds them depends on when the test runs). */
  private static Map<String, Long> completed(JsonNode answer) {
    Map<String, Long> sums = new HashMap<>();
    for (JsonNode hour : answer.path("hours")) {
      hour.path("completed").fields().forEachRemaining(e -> sums.merge(e.getKey(), e.getValue().asLong(), Long::sum));
    }
    return sums;
  }

  private static void run(String namespace, String controller, Instant started, long queuedMillis, String result)
      throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, queued_at, started_at, queued_millis, result, completed_at, last_sequence) "
        + "VALUES (?, ?, ?, ?, ?, 'main', 1, ?, ?, ?, ?, ?, 5)", "uid-" + controller, UUID.randomUUID().toString(),
        BffStack.CLUSTER, namespace, controller, Timestamp.from(started.minusMillis(queuedMillis)),
        Timestamp.from(started), queuedMillis, result, Timestamp.from(started.plusSeconds(60)));
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(String path, String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + TOKENS.get(user)).build(), HttpResponse.BodyHandlers.ofString());
  }
}

package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.BroodFixtures;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /broodoperations, /broodoperations/{cluster}/{namespace}/{name} and /broodschedules over a real operator
 * (its BroodListResponder answering from informers), API server, NATS and OpenID provider: the rows and their JSON,
 * the authorization by namespace, the 404, and a registered cluster whose list does not arrive.
 */
@WithKubeApiServer
class BroodReadsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("carol"), BffFixtures.user("dave")),
      List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static final Map<String, String> TOKENS = new java.util.HashMap<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: controllers-only}
        spec:
          rules:
            - verbs: [list, get]
              resources: [controllers]
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");
    BffFixtures.binding(client, "carol-reads-controllers", "controllers-only", "User", "carol", null);
    BroodFixtures.running(client, BroodFixtures.operation(client, "team-a", "restart-wave", null,
        List.of("orders", "billing")), BffStack.CLUSTER);
    BroodFixtures.operation(client, "team-b", "nightly-29416380", "nightly", List.of("search"));
    BroodFixtures.schedule(client, "team-a", "nightly", "Europe/Berlin");
    BroodFixtures.schedule(client, "team-b", "weekly", null);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    for (String name : List.of("alice", "bob", "carol", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name, BffFixtures.password(name))
          .idToken());
    }
    // the policy, both operations (the first with its status) and both schedules have reached the caches
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> operations = get("/broodoperations", "alice");
      HttpResponse<String> schedules = get("/broodschedules", "alice");
      return operations.statusCode() == 200 && schedules.statusCode() == 200
          && JSON.readTree(operations.body()).path("operations").size() == 2
          && "Running".equals(JSON.readTree(operations.body()).path("operations").get(0).path("phase").asText())
          && JSON.readTree(schedules.body()).path("schedules").size() == 2;
    });
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack != null) {
      stack.close();
    }
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void theOperationsListCarriesTheSummaryOfEveryOperation() throws Exception {
    JsonNode body = json(get("/broodoperations", "alice"), 200);
    assertThat(names(body.path("operations"))).containsExactly("team-a/restart-wave", "team-b/nightly-29416380");
    JsonNode running = body.path("operations").get(0);
    assertThat(running.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(running.path("phase").asText()).isEqualTo("Running");
    assertThat(running.path("message").asText()).isEqualTo("1 of 2 targets running");
    assertThat(running.path("dryRun").asBoolean()).isFalse();
    assertThat(running.path("steps")).extracting(JsonNode::asText).containsExactly("backup", "safeRestart");
    assertThat(running.path("counts").path("total").asInt()).isEqualTo(2);
    assertThat(running.path("counts").path("running").asInt()).isEqualTo(1);
    assertThat(running.path("counts").path("pending").asInt()).isEqualTo(1);
    assertThat(running.path("counts").has("cancelled")).isTrue();
    assertThat(running.path("startedAt").asText()).isEqualTo("2026-12-04T20:00:00Z");
    assertThat(running.path("completedAt").isNull()).isTrue();
    assertThat(running.path("createdAt").asText()).isNotEmpty();
    assertThat(running.path("schedule").isNull()).isTrue();
    // the second has no status yet: its steps come from the spec, its phase is empty
    JsonNode scheduled = body.path("operations").get(1);
    assertThat(scheduled.path("schedule").asText()).isEqualTo("nightly");
    assertThat(scheduled.path("phase").asText()).isEmpty();
    assertThat(scheduled.path("steps")).extracting(JsonNode::asText).containsExactly("backup", "safeRestart");
    assertThat(scheduled.path("counts").path("total").asInt()).isZero();
    JsonNode cluster = body.path("clusters").get(0);
    assertThat(cluster.path("name").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(cluster.path("ok").asBoolean()).isTrue();
  }

  @Test
  void oneOperationInFullWithEveryTargetAndStep() throws Exception {
    JsonNode body = json(get("/broodoperations/" + BffStack.CLUSTER + "/team-a/restart-wave", "alice"), 200);
    assertThat(body.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    JsonNode operation = body.path("operation");
    assertThat(operation.path("metadata").path("name").asText()).isEqualTo("restart-wave");
    assertThat(operation.path("spec").path("steps").get(1).path("type").asText()).isEqualTo("safeRestart");
    JsonNode first = operation.path("status").path("targets").get(0);
    assertThat(first.path("name").asText()).isEqualTo("orders");
    assertThat(first.path("steps").get(1).path("phase").asText()).isEqualTo("Running");
    assertThat(first.path("message").asText()).isEqualTo("waiting for 1 running build");

    JsonNode missing = json(get("/broodoperations/" + BffStack.CLUSTER + "/team-a/no-such-op", "alice"), 404);
    assertThat(missing.path("message").asText()).contains("BroodOperation team-a/no-such-op does not exist in"
        + " cluster " + BffStack.CLUSTER);
    assertThat(json(get("/broodoperations/nowhere/team-a/restart-wave", "alice"), 404).path("message").asText())
        .contains("cluster nowhere is not registered");
    json(get("/broodoperations/" + BffStack.CLUSTER + "/team-a", "alice"), 404);
  }

  @Test
  void theSchedulesListCarriesNextRunAndLastResult() throws Exception {
    JsonNode body = json(get("/broodschedules", "alice"), 200);
    assertThat(names(body.path("schedules"))).containsExactly("team-a/nightly", "team-b/weekly");
    JsonNode nightly = body.path("schedules").get(0);
    assertThat(nightly.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(nightly.path("schedule").asText()).isEqualTo("0 2 * * *");
    assertThat(nightly.path("timeZone").asText()).isEqualTo("Europe/Berlin");
    assertThat(nightly.path("suspend").asBoolean()).isFalse();
    assertThat(nightly.path("concurrencyPolicy").asText()).isEqualTo("Forbid");
    assertThat(nightly.path("nextRunTime").asText()).isEqualTo("2026-12-05T01:00:00Z");
    assertThat(nightly.path("lastRunTime").asText()).isEqualTo("2026-12-04T01:00:00Z");
    assertThat(nightly.path("lastResult").asText()).isEqualTo("Succeeded");
    assertThat(nightly.path("lastOperation").asText()).isEqualTo("nightly-29416380");
    assertThat(nightly.path("active").isArray()).isTrue();
    // an omitted time zone is UTC, as the CRD says
    assertThat(body.path("schedules").get(1).path("timeZone").asText()).isEqualTo("UTC");
    // no record store in this stack: no job schedules, and the answer says why
    assertThat(body.path("jobSchedules").isArray()).isTrue();
    assertThat(body.path("jobSchedules").size()).isZero();
    assertThat(body.path("recordStore").asBoolean()).isFalse();
    assertThat(body.path("clusters").get(0).path("ok").asBoolean()).isTrue();
  }

  @Test
  void aNamespaceScopedBindingSeesOnlyItsNamespace() throws Exception {
    assertThat(names(json(get("/broodoperations", "bob"), 200).path("operations")))
        .containsExactly("team-b/nightly-29416380");
    assertThat(names(json(get("/broodschedules", "bob"), 200).path("schedules"))).containsExactly("team-b/weekly");
    JsonNode denied = json(get("/broodoperations/" + BffStack.CLUSTER + "/team-a/restart-wave", "bob"), 403);
    assertThat(denied.path("missing").path("verb").asText()).isEqualTo("get");
    assertThat(denied.path("missing").path("resource").asText()).isEqualTo("broodoperations");
    assertThat(denied.path("missing").path("namespace").asText()).isEqualTo("team-a");
  }

  @Test
  void aRoleWithoutTheResourceOrNoBindingSeesNothing() throws Exception {
    assertThat(json(get("/broodoperations", "carol"), 403).path("message").asText())
        .contains("list broodoperations");
    assertThat(json(get("/broodschedules", "carol"), 403).path("message").asText()).contains("list broodschedules");
    assertThat(json(get("/broodoperations", "dave"), 403).path("message").asText())
        .contains("no VarroaRoleBinding names this user");
  }

  @Test
  void aRegisteredClusterThatStopsAnsweringIsNamedNotHidden() throws Exception {
    // a member whose operator registered and then went silent: its entry is alive, nobody answers its requests
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      for (String path : List.of("/broodoperations", "/broodschedules")) {
        JsonNode body = json(get(path, "alice"), 200);
        assertThat(body.path(path.equals("/broodoperations") ? "operations" : "schedules").size()).isEqualTo(2);
        JsonNode silent = StreamSupport.stream(body.path("clusters").spliterator(), false)
            .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
        assertThat(silent.path("ok").asBoolean()).isFalse();
        assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
        // the same shape GET /controllers gives that cluster
        JsonNode controllers = json(get("/controllers", "alice"), 200);
        JsonNode same = StreamSupport.stream(controllers.path("clusters").spliterator(), false)
            .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
        assertThat(silent).isEqualTo(same);
      }
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  private static List<String> names(JsonNode rows) {
    List<String> names = new ArrayList<>();
    rows.forEach(r -> names.add(r.path("namespace").asText() + "/" + r.path("name").asText()));
    return names;
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  static HttpResponse<String> get(String path, String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + TOKENS.get(user)).build(), HttpResponse.BodyHandlers.ofString());
  }
}

package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.CellFixtures;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.KubeApiServerExtension;
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
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GET /cells and /teams over two clusters, each its own API server with its own operator answering from its own
 * caches, merged by the core's BFF behind a real OpenID provider: a block per pool per cluster with cells, phase,
 * hosted teams and load; a tenant's namespace-scoped binding sees its namespace only; no permission or no binding
 * sees nothing; a registered cluster that does not answer is named. No cell reconciler runs: the test writes status.
 */
@WithKubeApiServer
class CellReadsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String MEMBER = "east";

  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("carol"), BffFixtures.user("dave")),
      List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static VarroaOperator member;
  private static final Map<String, String> TOKENS = new HashMap<>();

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path cache, @TempDir Path memberCache) throws Exception {
    KubernetesClient coreClient = core.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "tenant-a", "tenant-b");
    BffFixtures.namespaces(memberClient, "tenant-b");
    BffFixtures.readerRole(coreClient);
    BffFixtures.create(coreClient, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: controllers-only}
        spec:
          rules:
            - verbs: [list, get]
              resources: [controllers]
        """, VarroaRole.class);
    BffFixtures.binding(coreClient, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(coreClient, "bob-reads-tenant-b", "reader", "User", "bob", "tenant-b");
    BffFixtures.binding(coreClient, "carol-reads-controllers", "controllers-only", "User", "carol", null);
    CellFixtures.pool(coreClient, "tenant-a", "builds", 4, List.of(List.of("payments", "orders", "billing"),
        List.of("search")));
    CellFixtures.team(coreClient, "tenant-a", "late", "builds", null);
    CellFixtures.pool(coreClient, "tenant-b", "ci", 10, List.of(List.of("mobile")));
    CellFixtures.pool(memberClient, "tenant-b", "ci-east", 2, List.of(List.of("data", "ml"), List.of("web")));

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(coreClient, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(memberCache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    for (String name : List.of("alice", "bob", "carol", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name, BffFixtures.password(name))
          .idToken());
    }
    // the policy, both clusters and every pool and team with its status have reached the caches
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> cells = get("/cells", "alice");
      HttpResponse<String> teams = get("/teams", "alice");
      if (cells.statusCode() != 200 || teams.statusCode() != 200) {
        return false;
      }
      JsonNode pools = JSON.readTree(cells.body()).path("pools");
      return pools.size() == 3 && StreamSupport.stream(pools.spliterator(), false)
          .allMatch(p -> p.path("cells").size() > 0)
          && JSON.readTree(teams.body()).path("teams").size() == 9
          && StreamSupport.stream(JSON.readTree(teams.body()).path("teams").spliterator(), false)
          .allMatch(t -> !t.path("phase").asText().isEmpty());
    });
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, member, operatorBus, bffBus}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void aBlockPerPoolPerClusterWithCellsPhaseTeamsAndLoad() throws Exception {
    JsonNode body = json(get("/cells", "alice"), 200);
    assertThat(rows(body.path("pools"))).containsExactly("east/tenant-b/ci-east", "eu-1/tenant-a/builds",
        "eu-1/tenant-b/ci");
    assertThat(field(body.path("clusters"), "name")).containsExactly("east", "eu-1");
    body.path("clusters").forEach(c -> assertThat(c.path("ok").asBoolean()).isTrue());

    JsonNode builds = body.path("pools").get(1);
    assertThat(builds.path("replicas").asInt()).isEqualTo(2);
    assertThat(builds.path("ready").asInt()).isEqualTo(2);
    assertThat(builds.path("teamsPerCell").asInt()).isEqualTo(4);
    assertThat(builds.path("teams").asInt()).isEqualTo(4);
    assertThat(builds.path("load").asDouble()).isEqualTo(0.5);
    assertThat(field(builds.path("unplacedTeams"))).containsExactly("late");
    JsonNode first = builds.path("cells").get(0);
    assertThat(first.path("name").asText()).isEqualTo("builds-0");
    assertThat(first.path("phase").asText()).isEqualTo("Connected");
    assertThat(field(first.path("teams"))).containsExactly("billing", "orders", "payments");
    assertThat(first.path("load").asDouble()).isEqualTo(0.75);
    assertThat(first.path("draining").asBoolean()).isFalse();
    assertThat(builds.path("cells").get(1).path("load").asDouble()).isEqualTo(0.25);

    JsonNode east = body.path("pools").get(0);
    assertThat(east.path("cells").get(0).path("load").asDouble()).as("2 teams of 2").isEqualTo(1.0);

    assertThat(rows(json(get("/cells?cluster=east", "alice"), 200).path("pools")))
        .containsExactly("east/tenant-b/ci-east");
    assertThat(rows(json(get("/cells?namespace=tenant-a", "alice"), 200).path("pools")))
        .containsExactly("eu-1/tenant-a/builds");
    assertThat(json(get("/cells?cluster=nowhere", "alice"), 404).path("message").asText())
        .contains("cluster nowhere is not registered");
  }

  @Test
  void everyTeamWithItsPoolCellAndPhase() throws Exception {
    JsonNode body = json(get("/teams", "alice"), 200);
    assertThat(rows(body.path("teams"))).containsExactly("east/tenant-b/data", "east/tenant-b/ml",
        "east/tenant-b/web", "eu-1/tenant-a/billing", "eu-1/tenant-a/late", "eu-1/tenant-a/orders",
        "eu-1/tenant-a/payments", "eu-1/tenant-a/search", "eu-1/tenant-b/mobile");
    JsonNode web = body.path("teams").get(2);
    assertThat(web.path("pool").asText()).isEqualTo("ci-east");
    assertThat(web.path("cell").asText()).isEqualTo("ci-east-1");
    assertThat(web.path("phase").asText()).isEqualTo("Placed");
    assertThat(web.path("pipelines").asInt()).isEqualTo(1);
    JsonNode late = body.path("teams").get(4);
    assertThat(late.path("phase").asText()).isEqualTo("Pending");
    assertThat(late.path("cell").isNull()).isTrue();
    assertThat(late.path("message").asText()).contains("every cell of pool builds is full");
    assertThat(rows(json(get("/teams?pool=ci", "alice"), 200).path("teams"))).containsExactly("eu-1/tenant-b/mobile");
    assertThat(json(get("/teams?pool=Not_A_Pool", "alice"), 400).path("message").asText())
        .contains("pool must be a CellPool name");
  }

  @Test
  void aTenantScopedBindingSeesOnlyItsNamespaceInEveryCluster() throws Exception {
    assertThat(rows(json(get("/cells", "bob"), 200).path("pools")))
        .containsExactly("east/tenant-b/ci-east", "eu-1/tenant-b/ci");
    assertThat(rows(json(get("/teams", "bob"), 200).path("teams")))
        .containsExactly("east/tenant-b/data", "east/tenant-b/ml", "east/tenant-b/web", "eu-1/tenant-b/mobile");
    assertThat(json(get("/cells?namespace=tenant-a", "bob"), 200).path("pools").size()).isZero();
  }

  @Test
  void aRoleWithoutTheResourceOrNoBindingSeesNothing() throws Exception {
    assertThat(json(get("/cells", "carol"), 403).path("message").asText()).contains("list cellpools");
    assertThat(json(get("/teams", "carol"), 403).path("message").asText()).contains("list teams");
    assertThat(json(get("/cells", "dave"), 403).path("message").asText())
        .contains("no VarroaRoleBinding names this user");
    assertThat(json(get("/teams", "dave"), 403).path("message").asText())
        .contains("no VarroaRoleBinding names this user");
  }

  @Test
  void aRegisteredClusterThatDoesNotAnswerIsNamedNotHidden() throws Exception {
    // a member whose operator registered and then went silent: its entry is alive, nobody answers its requests
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      for (String path : List.of("/cells", "/teams")) {
        JsonNode body = json(get(path, "alice"), 200);
        assertThat(body.path(path.equals("/cells") ? "pools" : "teams").size()).isEqualTo(path.equals("/cells")
            ? 3 : 9);
        JsonNode silent = StreamSupport.stream(body.path("clusters").spliterator(), false)
            .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
        assertThat(silent.path("ok").asBoolean()).isFalse();
        assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
      }
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  private static List<String> rows(JsonNode items) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path("cluster").asText() + "/" + r.path("namespace").asText() + "/"
        + r.path("name").asText()));
    return out;
  }

  private static List<String> field(JsonNode items, String name) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path(name).asText()));
    return out;
  }

  private static List<String> field(JsonNode items) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.asText()));
    return out;
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

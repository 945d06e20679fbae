package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
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
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read API over a real operator, API server, NATS and OpenID provider: the authorization matrix over
 * VarroaRoleBindings (user, namespace-scoped, label-scoped, none), refused tokens, bad parameters, missing objects,
 * a browser login, and a registered cluster that stops answering.
 */
@WithKubeApiServer
class ReadApiIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(
      BffFixtures.user("alice"), BffFixtures.user("bob"), BffFixtures.user("carol"), BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static final Map<String, String> TOKENS = new java.util.HashMap<>();



  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.controller(client, "team-a", "orders", Map.of("tier", "prod"));
    BffFixtures.controller(client, "team-a", "billing", Map.of("tier", "dev"));
    BffFixtures.controller(client, "team-b", "search", Map.of("tier", "prod"));
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: prod-controllers}
        spec:
          rules:
            - verbs: [list, get]
              resources: [controllers]
              controllerSelector: {matchLabels: {tier: prod}}
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");
    BffFixtures.binding(client, "carol-reads-prod", "prod-controllers", "User", "carol", null);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    for (String name : List.of("alice", "bob", "carol", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name, BffFixtures.password(name))
          .idToken());
    }
    // the policy and every row have arrived once alice sees all three
    await().atMost(DEADLINE).until(() -> get("/controllers", "alice").statusCode() == 200
        && JSON.readTree(get("/controllers", "alice").body()).path("items").size() == 3);
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
  void aUserBoundEverywhereSeesEveryController() throws Exception {
    JsonNode body = json(get("/controllers", "alice"), 200);
    assertThat(names(body.path("items"))).containsExactly("team-a/billing", "team-a/orders", "team-b/search");
    JsonNode row = body.path("items").get(1);
    assertThat(row.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(row.path("labels").path("tier").asText()).isEqualTo("prod");
    assertThat(row.has("attention")).isTrue();
    assertThat(row.has("lastApply")).isTrue();
    assertThat(body.path("clusters").get(0).path("name").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(body.path("clusters").get(0).path("ok").asBoolean()).isTrue();
  }

  @Test
  void aNamespaceScopedBindingSeesOnlyItsNamespace() throws Exception {
    assertThat(names(json(get("/controllers", "bob"), 200).path("items"))).containsExactly("team-b/search");
    HttpResponse<String> denied = get("/controllers/team-a/orders", "bob");
    JsonNode body = json(denied, 403);
    assertThat(body.path("message").asText()).contains("get controllers").contains("team-a/orders");
    assertThat(body.path("missing").path("verb").asText()).isEqualTo("get");
    assertThat(body.path("missing").path("resource").asText()).isEqualTo("controllers");
  }

  @Test
  void aLabelScopedRuleSeesOnlyMatchingControllers() throws Exception {
    assertThat(names(json(get("/controllers", "carol"), 200).path("items")))
        .containsExactly("team-a/orders", "team-b/search");
    json(get("/controllers/team-a/billing", "carol"), 403);
    json(get("/controllers/team-a/orders", "carol"), 200);
    // carol's role has no activity rule
    assertThat(json(get("/activity", "carol"), 403).path("message").asText()).contains("list activity");
  }

  @Test
  void aUserWithoutBindingSeesNothing() throws Exception {
    JsonNode body = json(get("/controllers", "dave"), 403);
    assertThat(body.path("message").asText()).contains("no VarroaRoleBinding names");
    json(get("/clusters", "dave"), 403);
    assertThat(json(get("/me", "dave"), 200).path("bindings").size()).isZero();
  }

  @Test
  void oneControllerInFullWithItsConditionsAndSettings() throws Exception {
    JsonNode body = await().atMost(DEADLINE).until(() -> json(get("/controllers/team-a/orders", "alice"), 200),
        b -> b.path("conditions").size() > 0);
    assertThat(body.path("name").asText()).isEqualTo("orders");
    // these controllers name no version profile: nothing renders, so nothing is pending (DashboardBrowserIT has one)
    assertThat(body.path("resolutionProblem").asText()).contains("fix: set spec.versionProfileRef");
    assertThat(body.path("desiredBundleDigest").asText()).isEmpty();
    assertThat(body.path("pendingBundleDigest").asText()).isEmpty();
    assertThat(body.path("bundlePlugins").isObject()).isTrue();
    assertThat(body.path("conditions").get(0).has("lastTransitionTime")).isTrue();
    assertThat(body.has("settings")).isTrue();
    assertThat(body.has("lock")).isTrue();
    json(get("/controllers/team-a/nothing-here", "alice"), 404);
    json(get("/controllers/team-a/orders?cluster=nowhere", "alice"), 404);
  }

  @Test
  void refusedTokensAndMethods() throws Exception {
    assertThat(send(HttpRequest.newBuilder(uri("/controllers")).build()).statusCode()).isEqualTo(401);
    String[] parts = TOKENS.get("alice").split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    assertThat(send(HttpRequest.newBuilder(uri("/controllers")).header("Authorization", "Bearer " + forged).build())
        .statusCode()).isEqualTo(401);
    HttpResponse<String> post = send(HttpRequest.newBuilder(uri("/controllers"))
        .header("Authorization", "Bearer " + TOKENS.get("alice")).POST(HttpRequest.BodyPublishers.noBody()).build());
    assertThat(post.statusCode()).isEqualTo(405);
  }

  @Test
  void badParametersNameTheParameter() throws Exception {
    assertThat(json(get("/controllers?attention=maybe", "alice"), 400).path("parameter").asText())
        .isEqualTo("attention");
    assertThat(json(get("/controllers?namespace=Not_A_Namespace", "alice"), 400).path("parameter").asText())
        .isEqualTo("namespace");
    assertThat(json(get("/activity?limit=0", "alice"), 400).path("parameter").asText()).isEqualTo("limit");
    json(get("/no-such-route", "alice"), 404);
  }

  @Test
  void theClustersListNamesTheCoreFirst() throws Exception {
    JsonNode cluster = json(get("/clusters", "alice"), 200).path("items").get(0);
    assertThat(cluster.path("name").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(cluster.path("core").asBoolean()).isTrue();
    assertThat(cluster.path("healthy").asBoolean()).isTrue();
    assertThat(cluster.path("controllers").asInt()).isEqualTo(3);
  }

  @Test
  void aRegisteredClusterThatStopsAnsweringIsNamedNotHidden() throws Exception {
    // a member whose operator registered and then went silent: its entry is alive, nobody answers its requests
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      JsonNode body = json(get("/controllers", "alice"), 200);
      assertThat(names(body.path("items"))).hasSize(3);
      JsonNode silent = StreamSupport.stream(body.path("clusters").spliterator(), false)
          .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
      assertThat(silent.path("ok").asBoolean()).isFalse();
      assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  @Test
  void aBrowserLogsInThroughTheProviderAndKeepsASession() throws Exception {
    HttpResponse<String> start = send(HttpRequest.newBuilder(uri("/auth/login?return_to=/me")).build());
    assertThat(start.statusCode()).isEqualTo(302);
    String loginCookie = cookie(start, "varroa_login");
    URI callback = BrowserLogin.authorize(OIDC.provider(), URI.create(start.headers().firstValue("location")
        .orElseThrow()), "alice", "alice-password");
    assertThat(callback.getPath()).isEqualTo("/auth/callback");
    HttpResponse<String> back = send(HttpRequest.newBuilder(callback).header("Cookie", "varroa_login=" + loginCookie)
        .build());
    assertThat(back.statusCode()).as(back.body()).isEqualTo(302);
    assertThat(back.headers().firstValue("location")).contains("/me");
    String setCookie = back.headers().allValues("set-cookie").stream().filter(c -> c.startsWith("varroa_session="))
        .findFirst().orElseThrow();
    assertThat(setCookie).contains("HttpOnly").contains("Secure").contains("SameSite=Lax");
    String session = cookie(back, "varroa_session");
    HttpResponse<String> me = send(HttpRequest.newBuilder(uri("/me")).header("Cookie", "varroa_session=" + session)
        .build());
    assertThat(json(me, 200).path("user").asText()).isEqualTo("alice");

    // a callback replayed by another browser (no login cookie) opens nothing
    HttpResponse<String> replay = send(HttpRequest.newBuilder(callback).build());
    assertThat(replay.statusCode()).isEqualTo(401);

    // logout is a POST (a GET only asks to confirm: BffHardeningIT)
    send(HttpRequest.newBuilder(uri("/auth/logout")).header("Cookie", "varroa_session=" + session)
        .POST(HttpRequest.BodyPublishers.noBody()).build());
    assertThat(send(HttpRequest.newBuilder(uri("/me")).header("Cookie", "varroa_session=" + session).build())
        .statusCode()).isEqualTo(401);
  }

  private static String cookie(HttpResponse<String> response, String name) {
    return response.headers().allValues("set-cookie").stream().filter(c -> c.startsWith(name + "="))
        .map(c -> c.substring(name.length() + 1, c.indexOf(';'))).findFirst().orElseThrow();
  }

  private static List<String> names(JsonNode items) {
    return StreamSupport.stream(items.spliterator(), false)
        .map(i -> i.path("namespace").asText() + "/" + i.path("name").asText()).toList();
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  @Test
  void readsAndTheWebClientAreGzippedForClientsThatAskButStreamsNever() throws Exception {
    HttpResponse<byte[]> list = HTTP.send(HttpRequest.newBuilder(uri("/controllers"))
        .header("Authorization", "Bearer " + TOKENS.get("alice")).header("Accept-Encoding", "gzip").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(list.headers().firstValue("Content-Encoding")).hasValue("gzip");
    try (var body = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(list.body()))) {
      assertThat(JSON.readTree(body).path("items").size()).isEqualTo(3);
    }
    HttpResponse<byte[]> page = HTTP.send(HttpRequest.newBuilder(uri("/ui/controllers"))
        .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(page.headers().firstValue("Content-Encoding")).hasValue("gzip");
    HttpResponse<Void> stream = HTTP.send(HttpRequest.newBuilder(uri("/activity/stream"))
        .header("Authorization", "Bearer " + TOKENS.get("alice")).header("Accept-Encoding", "gzip")
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
    assertThat(stream.headers().firstValue("Content-Encoding")).isEmpty();
    HttpResponse<String> plain = get("/controllers", "alice");
    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
  }

  static HttpResponse<String> get(String path, String user) throws Exception {
    return send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + TOKENS.get(user)).build());
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create(stack.url() + path);
  }



}

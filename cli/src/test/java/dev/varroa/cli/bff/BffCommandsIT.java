package dev.varroa.cli.bff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.cli.Varroactl;
import dev.varroa.cli.VarroactlRun;
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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * varroactl's BFF commands, run in-process, against a real BFF in front of a real operator, API server, NATS and
 * OpenID provider: both logins, every output form, the authorization matrix, a silent cluster, search, logs.
 */
@WithKubeApiServer
class BffCommandsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  // varroactl's loopback redirect: the provider's native client takes it on any port (RFC 8252, 7.3)
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(
      BffFixtures.user("alice"), BffFixtures.user("bob"), BffFixtures.user("carol"), BffFixtures.user("dave")),
      List.of(BffStack.redirectUri(PORT), "http://localhost/callback"));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static Path configs;
  private static final Map<String, Map<String, String>> ENV = new HashMap<>();



  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache, @TempDir Path configRoot) throws Exception {
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
    configs = configRoot;
    for (String name : List.of("alice", "bob", "carol", "dave")) {
      ENV.put(name, Map.of("XDG_CONFIG_HOME", configRoot.resolve(name).toString()));
      loginWithTokenFile(name);
    }
    // the access policy and every row have arrived once alice sees all three
    await().atMost(DEADLINE).until(() -> {
      VarroactlRun run = varroactl("alice", "get", "controllers", "-o", "json");
      return run.exitCode() == 0 && JSON.readTree(run.out()).path("items").size() == 3;
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

  private static void loginWithTokenFile(String name) throws Exception {
    Path token = configs.resolve(name + ".token");
    Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
        BffFixtures.password(name)).idToken() + "\n");
    VarroactlRun run = varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString());
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("Logged in to " + stack.url() + " as " + name);
  }

  @Test
  void logsInThroughTheProviderOnTheLoopbackRedirectAndStoresTheTokenPrivately() throws Exception {
    Path folder = configs.resolve("alice-interactive");
    int listen = BffStack.freePort();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli = Varroactl.commandLine(Map.of("XDG_CONFIG_HOME", folder.toString()), Clock.systemUTC());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.execute("login", "--server",
        stack.url(), "--listen-port", Integer.toString(listen)));

    String url = await().atMost(DEADLINE).until(() -> Arrays.stream(err.toString().split("\n"))
        .map(String::trim).filter(l -> l.startsWith("http")).findFirst(), Optional::isPresent).orElseThrow();
    assertThat(url).contains("client_id=native").contains("code_challenge_method=S256")
        .contains("redirect_uri=http%3A%2F%2Flocalhost%3A" + listen + "%2Fcallback");
    URI back = BrowserLogin.authorize(OIDC.provider(), URI.create(url), "alice", "alice-password");
    assertThat(back.getPort()).isEqualTo(listen);
    assertThat(back.getPath()).isEqualTo("/callback");
    // the browser follows the provider's redirect to varroactl's listener
    HttpResponse<String> page = HTTP.send(HttpRequest.newBuilder(back).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(exit.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Logged in to " + stack.url() + " as alice");

    Path config = folder.resolve("varroa").resolve("config.json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config))).isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(config.getParent())))
        .isEqualTo("rwx------");
    JsonNode stored = JSON.readTree(Files.readString(config));
    assertThat(stored.path("server").asText()).isEqualTo(stack.url());
    assertThat(stored.path("issuer").asText()).isEqualTo(OIDC.provider().issuer());
    assertThat(Instant.parse(stored.path("expiry").asText())).isAfter(Instant.now());
    assertThat(stored.path("idToken").asText().split("\\.")).hasSize(3);

    VarroactlRun run = VarroactlRun.in(Map.of("XDG_CONFIG_HOME", folder.toString()), "get", "controllers");
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("orders").contains("billing").contains("search");
  }

  @Test
  void aCallbackWithAnotherStateIsNotTakenForTheLogin() throws Exception {
    int listen = BffStack.freePort();
    try (LoopbackCallback callback = LoopbackCallback.listen(listen, "the-state")) {
      HttpResponse<String> stranger = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listen
          + "/callback?code=x&state=another")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(stranger.statusCode()).isEqualTo(400);
      HttpResponse<String> ours = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listen
          + "/callback?code=c0de&state=the-state")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(ours.statusCode()).isEqualTo(200);
      assertThat(callback.await(Duration.ofSeconds(5)).getRawQuery()).isEqualTo("code=c0de&state=the-state");
    }
  }

  @Test
  void getControllersPrintsTheTableWideYamlAndJson() throws Exception {
    VarroactlRun table = varroactl("alice", "get", "controllers");
    assertThat(table.exitCode()).as(table.err()).isZero();
    List<String> lines = table.out().lines().toList();
    assertThat(lines.get(0).split("\\s+")).containsExactly("NAMESPACE", "NAME", "PHASE", "ATTENTION", "BUNDLE", "AGE");
    assertThat(lines.subList(1, lines.size()).stream().map(l -> l.split("\\s+")[0] + "/" + l.split("\\s+")[1]))
        .containsExactly("team-a/billing", "team-a/orders", "team-b/search");

    VarroactlRun wide = varroactl("alice", "get", "controllers", "-o", "wide");
    assertThat(wide.out().lines().findFirst().orElseThrow().split("\\s+")).containsExactly("NAMESPACE", "NAME",
        "PHASE", "ATTENTION", "BUNDLE", "AGE", "CLUSTER", "REVISION", "LAST-APPLY", "URL");
    assertThat(wide.out().lines().skip(1)).allMatch(l -> l.contains(" " + BffStack.CLUSTER + " "));

    JsonNode json = JSON.readTree(varroactl("alice", "get", "controllers", "-o", "json").out());
    assertThat(json.path("items").size()).isEqualTo(3);
    assertThat(json.path("items").get(1).path("labels").path("tier").asText()).isEqualTo("prod");
    assertThat(json.path("clusters").get(0).path("ok").asBoolean()).isTrue();

    @SuppressWarnings("unchecked")
    Map<String, Object> yaml = (Map<String, Object>) new Load(LoadSettings.builder().build())
        .loadFromString(varroactl("alice", "get", "controllers", "-o", "yaml").out());
    assertThat((List<?>) yaml.get("items")).hasSize(3);

    VarroactlRun teamA = varroactl("alice", "get", "controllers", "-n", "team-a", "--cluster", BffStack.CLUSTER);
    assertThat(teamA.out()).contains("orders").contains("billing").doesNotContain("search");
    VarroactlRun nowhere = varroactl("alice", "get", "controllers", "--cluster", "nowhere");
    assertThat(nowhere.exitCode()).isEqualTo(1);
    assertThat(nowhere.err()).startsWith("Error from server (NotFound): cluster nowhere is not registered");
  }

  @Test
  void getClustersTagsTheCoreAndNamesASilentMemberWhoseListDidNotArrive() throws Exception {
    // a member whose operator registered and then went silent: its entry is alive, nobody answers its requests
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setOperatorVersion("0.1.0").setKubernetesVersion("v1.31.0")
        .setControllers(2).setDrainState("Draining")
        .setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      VarroactlRun clusters = varroactl("alice", "get", "clusters");
      assertThat(clusters.exitCode()).as(clusters.err()).isZero();
      List<String> lines = clusters.out().lines().toList();
      assertThat(lines.get(0).split("\\s+")).containsExactly("NAME", "ROLE", "HEALTHY", "HEARTBEAT", "OPERATOR",
          "KUBERNETES", "CONNECTED", "STATE");
      assertThat(lines.get(1)).startsWith(BffStack.CLUSTER + " (core)").endsWith("-");
      assertThat(lines.get(2)).startsWith("eu-2 ").contains("member").contains("v1.31.0")
          .endsWith("Draining (2 left)");

      VarroactlRun controllers = varroactl("alice", "get", "controllers");
      assertThat(controllers.exitCode()).isZero();
      assertThat(controllers.out().lines().count()).isEqualTo(4);
      assertThat(controllers.err()).contains("warning: cluster eu-2: list unavailable");
      assertThat(controllers.err()).doesNotContain("cluster " + BffStack.CLUSTER + ":");

      VarroactlRun search = varroactl("alice", "search", "orders");
      assertThat(search.exitCode()).isZero();
      assertThat(search.out()).contains("orders");
      assertThat(search.err()).contains("warning: results incomplete: cluster eu-2 (list unavailable)");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  @Test
  void aNamespaceScopedBindingListsOnlyItsNamespace() {
    VarroactlRun bob = varroactl("bob", "get", "controllers");
    assertThat(bob.exitCode()).as(bob.err()).isZero();
    assertThat(bob.out()).contains("search").doesNotContain("orders").doesNotContain("billing");
    assertThat(varroactl("bob", "search", "orders").err()).contains("Nothing matches");
  }

  @Test
  void aLabelScopedRuleListsOnlyMatchingControllersAndIsRefusedActivity() {
    VarroactlRun carol = varroactl("carol", "get", "controllers");
    assertThat(carol.out()).contains("orders").contains("search").doesNotContain("billing");
    VarroactlRun activity = varroactl("carol", "get", "activity");
    assertThat(activity.exitCode()).isEqualTo(1);
    assertThat(activity.err()).startsWith("Error from server (Forbidden): ").contains("list activity")
        .contains("missing permission: list activity");
  }

  @Test
  void aUserWithoutBindingIsRefusedWithTheMissingPermission() {
    for (List<String> command : List.of(List.of("get", "controllers"), List.of("get", "clusters"),
        List.of("search", "orders"))) {
      VarroactlRun dave = varroactl("dave", command.toArray(String[]::new));
      assertThat(dave.exitCode()).as(command.toString()).isEqualTo(1);
      assertThat(dave.out()).isEmpty();
      assertThat(dave.err()).startsWith("Error from server (Forbidden): ").contains("no VarroaRoleBinding names")
          .contains("missing permission: list ");
    }
  }

  @Test
  void activityWithoutTheRecordStoreIsEmptyWithAWarning() {
    VarroactlRun activity = varroactl("alice", "get", "activity", "--since", "2h", "--limit", "10",
        "-n", "team-a", "--controller", "orders");
    assertThat(activity.exitCode()).as(activity.err()).isZero();
    assertThat(activity.err()).contains("the build record store is not enabled");
    assertThat(varroactl("alice", "get", "activity", "--since", "yesterday").exitCode())
        .isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(varroactl("alice", "get", "activity", "--limit", "0").err()).contains("parameter: limit");
  }

  @Test
  void logsOfARunThatIsNotRecordedIsAnError() {
    // the BffStack here runs without the record store: no run exists, so logs says which one it looked for
    VarroactlRun logs = varroactl("alice", "logs", "team-a/orders", "deploy", "7");
    assertThat(logs.exitCode()).isEqualTo(1);
    assertThat(logs.err()).contains("no run of job deploy #7 on Controller team-a/orders is recorded")
        .contains("the build record store is not enabled");
    assertThat(varroactl("alice", "logs", "orders", "deploy", "7").exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
  }

  @Test
  void withoutAUsableLoginNothingIsAsked() throws Exception {
    Map<String, String> nobody = Map.of("XDG_CONFIG_HOME", configs.resolve("nobody").toString());
    VarroactlRun none = VarroactlRun.in(nobody, "get", "controllers");
    assertThat(none.exitCode()).isEqualTo(1);
    assertThat(none.err()).contains("not logged in: run varroactl login --server URL");

    Path expired = configs.resolve("expired");
    new ConfigFolder(expired.resolve("varroa")).write(new StoredLogin(URI.create(stack.url()), "a.b.c",
        Instant.now().minusSeconds(60), OIDC.provider().issuer()));
    VarroactlRun old = VarroactlRun.in(Map.of("XDG_CONFIG_HOME", expired.toString()), "get", "clusters");
    assertThat(old.exitCode()).isEqualTo(1);
    assertThat(old.err()).startsWith("error: token expired: run varroactl login");

    VarroactlRun unreachable = varroactl("alice", "get", "clusters", "--server", "http://localhost:"
        + BffStack.freePort());
    assertThat(unreachable.exitCode()).isEqualTo(1);
    assertThat(unreachable.err()).startsWith("error: cannot reach the Varroa server at http://localhost:");

    Path garbage = Files.writeString(configs.resolve("garbage.token"), "not-a-token");
    assertThat(VarroactlRun.in(nobody, "login", "--server", stack.url(), "--token-file", garbage.toString())
        .exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    String[] parts = Files.readString(configs.resolve("alice.token")).trim().split("\\.");
    Path forged = Files.writeString(configs.resolve("forged.token"), parts[0] + "." + parts[1] + "."
        + new StringBuilder(parts[2]).reverse());
    VarroactlRun refused = VarroactlRun.in(nobody, "login", "--server", stack.url(), "--token-file",
        forged.toString());
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).startsWith("Error from server (Unauthorized): ");
    assertThat(configs.resolve("nobody").resolve("varroa").resolve("config.json")).doesNotExist();
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(ENV.get(user), args);
  }



}

package dev.varroa.dashboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.dashboard.records.RecordedRuns;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP tools through a real MCP client session over Streamable HTTP, against the BFF in front of a real operator,
 * API server, NATS and OpenID provider: the tool list with schemas, structured content equal to its text, the
 * VarroaRoleBinding matrix (everywhere, one namespace, none), no token, and a registered cluster gone silent.
 */
@WithKubeApiServer
class McpToolsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final List<String> TOOLS = List.of("list_controllers", "get_controller", "list_brood_operations",
      "list_cells", "list_pipelines", "list_activity", "list_runs", "get_run", "get_run_log_tail", "drain_cluster", "run_pipeline",
      "get_pipeline_run");

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  private static RecordedRuns records;

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"), BffFixtures.user("bob"),
      BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static BffServer bare;
  private static final Map<String, String> TOKENS = new HashMap<>();
  private static final Map<String, McpSyncClient> CLIENTS = new HashMap<>();



  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.controller(client, "team-a", "billing", Map.of());
    BffFixtures.controller(client, "team-b", "search", Map.of());
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "bob-reads-team-b", "reader", "User", "bob", "team-b");
    dev.varroa.dashboard.BroodFixtures.running(client, dev.varroa.dashboard.BroodFixtures.operation(client, "team-a",
        "restart-wave", null, List.of("orders", "billing")), BffStack.CLUSTER);
    dev.varroa.dashboard.BroodFixtures.operation(client, "team-b", "backup-search", null, List.of("search"));
    dev.varroa.dashboard.CellFixtures.pool(client, "team-a", "builds", 4, List.of(List.of("payments", "orders")));
    dev.varroa.dashboard.CellFixtures.pool(client, "team-b", "ci", 2, List.of(List.of("mobile"), List.of()));

    records = RecordedRuns.seed(POSTGRES.server(), cache);
    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT,
        records.reads, LiveStreams::without, McpEndpoint.mount(records.tail));
    // a second BFF on the same bus without a record store or console logs, as a default install runs
    OidcSettings oidc = BffStack.oidc(OIDC.provider(), PORT);
    bare = BffServer.start(BffStack.freePort(), new BffServer.Parts(() -> bffBus, () -> true, BffStack.CLUSTER, oidc,
        IssuerEndpoints.discover(oidc.issuer()), RecordReads.none(), LiveStreams::without, McpEndpoint.mount()),
        Clock.systemUTC());
    for (String name : List.of("alice", "bob", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name, BffFixtures.password(name))
          .idToken());
    }
    // the policy and every row have arrived once alice's tool lists all three
    await().atMost(DEADLINE).until(() -> {
      McpSchema.CallToolResult result = call("alice", "list_controllers", Map.of());
      return !result.isError() && structured(result).path("controllers").size() == 3;
    });
  }

  @AfterAll
  static void stop() throws Exception {
    CLIENTS.values().forEach(McpSyncClient::closeGracefully);
    if (bare != null) {
      bare.close();
    }
    if (stack != null) {
      stack.close();
    }
    operatorBus.close();
    bffBus.close();
    if (records != null) {
      records.close();
    }
  }

  @Test
  void aSessionListsTheReadOnlyToolsWithTheirSchemas() {
    McpSyncClient alice = client("alice");
    assertThat(alice.getServerInfo().name()).isEqualTo("varroa-dashboard");
    List<McpSchema.Tool> tools = alice.listTools().tools();
    assertThat(tools).extracting(McpSchema.Tool::name).containsExactlyInAnyOrderElementsOf(TOOLS);
    for (McpSchema.Tool tool : tools) {
      assertThat(tool.inputSchema()).as(tool.name()).containsEntry("type", "object").containsKey("properties");
      assertThat(tool.outputSchema()).as(tool.name()).containsEntry("type", "object").containsKey("properties");
      // the actions (docs/actions.md) say they change things; only the drain deletes
      boolean action = tool.name().equals("drain_cluster") || tool.name().equals("run_pipeline");
      assertThat(tool.annotations().readOnlyHint()).as(tool.name()).isEqualTo(!action);
      assertThat(tool.annotations().destructiveHint()).as(tool.name()).isEqualTo(tool.name().equals("drain_cluster"));
    }
    McpSchema.Tool list = tools.stream().filter(t -> t.name().equals("list_controllers")).findFirst().orElseThrow();
    assertThat(properties(list.inputSchema())).containsOnlyKeys("cluster", "namespace", "attention");
    assertThat(properties(list.outputSchema())).containsOnlyKeys("controllers", "clusters");
    McpSchema.Tool activity = tools.stream().filter(t -> t.name().equals("list_activity")).findFirst().orElseThrow();
    assertThat(properties(activity.inputSchema())).containsOnlyKeys("cluster", "namespace", "controller", "since",
        "limit");
    McpSchema.Tool tail = tools.stream().filter(t -> t.name().equals("get_run_log_tail")).findFirst().orElseThrow();
    assertThat(properties(tail.inputSchema()).get("maxBytes")).isEqualTo(Map.of("type", "integer", "description",
        "how many bytes from the end at most", "minimum", 1, "maximum", 1048576, "default", 16384));
  }

  @Test
  void listControllersAnswersStructuredContentAndTheSameJsonAsText() throws Exception {
    McpSchema.CallToolResult result = call("alice", "list_controllers", Map.of());
    assertThat(result.isError()).isFalse();
    JsonNode structured = structured(result);
    assertThat(result.content()).hasSize(1);
    assertThat(JSON.readTree(text(result, 0))).isEqualTo(structured);
    assertThat(names(structured.path("controllers"))).containsExactly("team-a/billing", "team-a/orders",
        "team-b/search");
    JsonNode row = structured.path("controllers").get(0);
    assertThat(row.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(row.has("attention")).isTrue();
    assertThat(row.has("lastApply")).isTrue();
    JsonNode cluster = structured.path("clusters").get(0);
    assertThat(cluster.path("name").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(cluster.path("ok").asBoolean()).isTrue();

    JsonNode filtered = structured(call("alice", "list_controllers", Map.of("namespace", "team-b")));
    assertThat(names(filtered.path("controllers"))).containsExactly("team-b/search");
  }

  @Test
  void oneControllerInFull() {
    JsonNode orders = await().atMost(DEADLINE).until(() -> structured(call("alice", "get_controller",
        Map.of("namespace", "team-a", "name", "orders"))), b -> b.path("conditions").size() > 0);
    assertThat(orders.path("name").asText()).isEqualTo("orders");
    assertThat(orders.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(orders.path("conditions").get(0).has("lastTransitionTime")).isTrue();
    assertThat(orders.has("lock")).isTrue();

    McpSchema.CallToolResult missing = call("alice", "get_controller", Map.of("namespace", "team-a",
        "name", "nothing-here"));
    assertThat(missing.isError()).isTrue();
    assertThat(text(missing, 0)).contains("team-a/nothing-here").contains("does not exist");
  }

  @Test
  void aNamespaceScopedBindingSeesOnlyItsNamespace() throws Exception {
    assertThat(names(structured(call("bob", "list_controllers", Map.of())).path("controllers")))
        .containsExactly("team-b/search");
    McpSchema.CallToolResult denied = call("bob", "get_controller", Map.of("namespace", "team-a", "name", "orders"));
    assertThat(denied.isError()).isTrue();
    assertThat(text(denied, 0)).contains("get controllers").contains("team-a/orders");
    JsonNode body = JSON.readTree(text(denied, 1));
    assertThat(body.path("error").asText()).isEqualTo("forbidden");
    assertThat(body.path("missing").path("verb").asText()).isEqualTo("get");
    assertThat(body.path("missing").path("resource").asText()).isEqualTo("controllers");
    assertThat(body.path("missing").path("namespace").asText()).isEqualTo("team-a");
  }

  @Test
  void aUserWithoutBindingGetsAnErrorNamingTheMissingPermission() {
    McpSchema.CallToolResult controllers = call("dave", "list_controllers", Map.of());
    assertThat(controllers.isError()).isTrue();
    assertThat(controllers.structuredContent()).isNull();
    assertThat(text(controllers, 0)).contains("may not list controllers").contains("no VarroaRoleBinding names");
    McpSchema.CallToolResult activity = call("dave", "list_activity", Map.of());
    assertThat(activity.isError()).isTrue();
    assertThat(text(activity, 0)).contains("list activity");
  }

  @Test
  void withoutAValidTokenInitializeIsRefusedWith401() throws Exception {
    String initialize = """
        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
        "clientInfo":{"name":"curl","version":"1"}}}""";
    HttpRequest.Builder post = HttpRequest.newBuilder(URI.create(stack.url() + "/mcp"))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(initialize));
    HttpResponse<String> none = HTTP.send(post.copy().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v)
        .startsWith("Bearer"));
    assertThat(JSON.readTree(none.body()).path("error").asText()).isEqualTo("unauthenticated");

    String[] parts = TOKENS.get("alice").split("\\.");
    String forged = parts[0] + "." + parts[1] + "." + new StringBuilder(parts[2]).reverse();
    HttpResponse<String> refused = HTTP.send(post.copy().header("Authorization", "Bearer " + forged).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(401);

    // a client of its own: the server may close the pooled connection after a refusal, which a reuse would race
    HttpResponse<String> valid = HttpClient.newHttpClient().send(post.copy()
        .header("Authorization", "Bearer " + TOKENS.get("alice")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(valid.statusCode()).as(valid.body()).isEqualTo(200);

    McpSyncClient anonymous = McpClient.sync(HttpClientStreamableHttpTransport.builder(stack.url())
        .endpoint(McpEndpoint.PATH).build()).requestTimeout(Duration.ofSeconds(10)).build();
    try {
      assertThatThrownBy(anonymous::initialize).hasStackTraceContaining("401");
    } finally {
      anonymous.close();
    }
  }

  @Test
  void initializeAdvertisesToolsOnlyAsDocsMcpSays() throws Exception {
    String initialize = """
        {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},
        "clientInfo":{"name":"curl","version":"1"}}}""";
    HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(stack.url() + McpEndpoint.PATH))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .header("Authorization", "Bearer " + TOKENS.get("alice"))
        .POST(HttpRequest.BodyPublishers.ofString(initialize)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);

    JsonNode capabilities = JSON.readTree(jsonRpcPayload(answer.body())).path("result").path("capabilities");

    // docs/mcp.md: tools only (the SDK would add logging; the server sends no log messages)
    assertThat(StreamSupport.stream(((Iterable<String>) capabilities::fieldNames).spliterator(), false).toList())
        .as(capabilities.toString()).containsExactly("tools");
  }

  /** The JSON-RPC message of an answer sent either as JSON or as one server-sent event. */
  private static String jsonRpcPayload(String body) {
    if (body.strip().startsWith("{")) {
      return body;
    }
    return body.lines().filter(l -> l.startsWith("data:")).map(l -> l.substring("data:".length()).strip())
        .reduce("", String::concat);
  }

  @Test
  void aRegisteredClusterThatStopsAnsweringIsNamedNotHidden() throws Exception {
    // a member whose operator registered and then went silent: its entry is alive, nobody answers its requests
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      McpSchema.CallToolResult result = call("alice", "list_controllers", Map.of());
      assertThat(result.isError()).isFalse();
      JsonNode structured = structured(result);
      assertThat(structured.path("controllers")).hasSize(3);
      JsonNode silent = StreamSupport.stream(structured.path("clusters").spliterator(), false)
          .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
      assertThat(silent.path("ok").asBoolean()).isFalse();
      assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  @Test
  void listBroodOperationsFiltersByBindingAndNamesASilentCluster() throws Exception {
    JsonNode all = await().atMost(DEADLINE).until(() -> structured(call("alice", "list_brood_operations", Map.of())),
        b -> b.path("operations").size() == 2 && "Running".equals(b.path("operations").get(0).path("phase").asText()));
    JsonNode wave = all.path("operations").get(0);
    assertThat(wave.path("name").asText()).isEqualTo("restart-wave");
    assertThat(wave.path("counts").path("total").asInt()).isEqualTo(2);
    assertThat(wave.path("steps")).extracting(JsonNode::asText).containsExactly("backup", "safeRestart");
    assertThat(names(structured(call("bob", "list_brood_operations", Map.of())).path("operations")))
        .containsExactly("team-b/backup-search");
    assertThat(names(structured(call("alice", "list_brood_operations", Map.of("namespace", "team-b")))
        .path("operations"))).containsExactly("team-b/backup-search");

    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      McpSchema.CallToolResult result = call("alice", "list_brood_operations", Map.of());
      assertThat(result.isError()).isFalse();
      JsonNode structured = structured(result);
      assertThat(structured.path("operations")).hasSize(2);
      JsonNode silent = StreamSupport.stream(structured.path("clusters").spliterator(), false)
          .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
      assertThat(silent.path("ok").asBoolean()).isFalse();
      assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  @Test
  void listPipelinesGivesARowPerTeamPipelineFilteredByTheTenantsBinding() throws Exception {
    JsonNode all = await().atMost(DEADLINE).until(() -> structured(call("alice", "list_pipelines", Map.of())),
        b -> b.path("pipelines").size() == 3);
    JsonNode first = all.path("pipelines").get(0);
    assertThat(first.path("team").asText()).isEqualTo("orders");
    assertThat(first.path("pipeline").asText()).isEqualTo("build");
    assertThat(first.path("job").asText()).isEqualTo("orders/build");
    assertThat(first.path("cell").asText()).isEqualTo("builds-0");
    assertThat(first.path("kind").asText()).isEqualTo("pipeline");
    // bob's binding is scoped to team-b: the tenant sees its own Team's pipeline only, whatever it asks for
    JsonNode bob = structured(call("bob", "list_pipelines", Map.of()));
    assertThat(bob.path("pipelines")).singleElement().satisfies(p -> assertThat(p.path("team").asText())
        .isEqualTo("mobile"));
    assertThat(structured(call("bob", "list_pipelines", Map.of("team", "payments"))).path("pipelines")).isEmpty();
    McpSchema.CallToolResult refused = call("dave", "list_pipelines", Map.of());
    assertThat(refused.isError()).isTrue();
    assertThat(text(refused, 0)).contains("list pipelines");
  }

  @Test
  void listCellsGivesABlockPerPoolFilteredByTheTenantsBinding() throws Exception {
    JsonNode all = await().atMost(DEADLINE).until(() -> structured(call("alice", "list_cells", Map.of())),
        b -> b.path("pools").size() == 2 && b.path("pools").get(0).path("cells").size() == 1);
    JsonNode builds = all.path("pools").get(0);
    assertThat(builds.path("cluster").asText()).isEqualTo(BffStack.CLUSTER);
    assertThat(builds.path("name").asText()).isEqualTo("builds");
    assertThat(builds.path("cells").get(0).path("phase").asText()).isEqualTo("Connected");
    assertThat(builds.path("cells").get(0).path("teams")).extracting(JsonNode::asText)
        .containsExactly("orders", "payments");
    assertThat(builds.path("cells").get(0).path("load").asDouble()).isEqualTo(0.5);
    assertThat(all.path("pools").get(1).path("load").asDouble()).isEqualTo(0.25);
    assertThat(all.path("clusters").get(0).path("ok").asBoolean()).isTrue();
    // bob's binding is scoped to team-b: the tenant sees its own pool only, whatever it asks for
    assertThat(names(structured(call("bob", "list_cells", Map.of())).path("pools"))).containsExactly("team-b/ci");
    assertThat(structured(call("bob", "list_cells", Map.of("namespace", "team-a"))).path("pools")).isEmpty();
    McpSchema.CallToolResult refused = call("dave", "list_cells", Map.of());
    assertThat(refused.isError()).isTrue();
    assertThat(text(refused, 0)).contains("list cellpools");
  }

  @Test
  void badArgumentsAreErrorsNamingTheArgument() throws Exception {
    McpSchema.CallToolResult limit = call("alice", "list_activity", Map.of("limit", 0));
    assertThat(limit.isError()).isTrue();
    assertThat(text(limit, 0)).contains("limit");

    McpSchema.CallToolResult namespace = call("alice", "list_controllers", Map.of("namespace", "Not_A_Namespace"));
    assertThat(namespace.isError()).isTrue();
    assertThat(JSON.readTree(text(namespace, 1)).path("parameter").asText()).isEqualTo("namespace");

    McpSchema.CallToolResult since = call("alice", "list_activity", Map.of("since", "yesterday"));
    assertThat(since.isError()).isTrue();
    assertThat(text(since, 0)).contains("since").contains("RFC 3339");
  }

  @Test
  void runsActivityAndLogTailsAreFilteredByBinding() throws Exception {
    JsonNode all = structured(call("alice", "list_runs", Map.of()));
    assertThat(all.path("recordStore").asBoolean()).isTrue();
    assertThat(all.path("items")).extracting(r -> r.path("runId").asText()).containsExactly(RecordedRuns.SEARCH_RUN,
        RecordedRuns.ORDERS_RUN);
    assertThat(structured(call("bob", "list_runs", Map.of())).path("items"))
        .extracting(r -> r.path("runId").asText()).containsExactly(RecordedRuns.SEARCH_RUN);

    JsonNode run = structured(call("alice", "get_run", Map.of("runId", RecordedRuns.ORDERS_RUN)));
    assertThat(run.path("job").asText()).isEqualTo("deploy");
    assertThat(run.path("stages").get(0).path("name").asText()).isEqualTo("Build");
    McpSchema.CallToolResult deniedRun = call("bob", "get_run", Map.of("runId", RecordedRuns.ORDERS_RUN));
    assertThat(deniedRun.isError()).isTrue();
    assertThat(text(deniedRun, 0)).contains("get runs");

    JsonNode activity = structured(call("bob", "list_activity", Map.of("limit", 10)));
    assertThat(activity.path("items")).extracting(e -> e.path("controller").asText()).containsExactly("search");

    McpSchema.CallToolResult tail = call("alice", "get_run_log_tail", Map.of("runId", RecordedRuns.ORDERS_RUN,
        "maxBytes", 12));
    JsonNode end = structured(tail);
    assertThat(JSON.readTree(text(tail, 0))).isEqualTo(end);
    assertThat(end.path("text").asText()).isEqualTo("Finished: OK");
    assertThat(end.path("from").asLong()).isEqualTo(RecordedRuns.LOG.length() - 12);
    assertThat(end.path("size").asLong()).isEqualTo(RecordedRuns.LOG.length());
    assertThat(end.path("truncated").asBoolean()).isTrue();
    assertThat(end.path("complete").asBoolean()).isTrue();
    assertThat(structured(call("alice", "get_run_log_tail", Map.of("runId", RecordedRuns.ORDERS_RUN)))
        .path("text").asText()).isEqualTo(RecordedRuns.LOG);

    McpSchema.CallToolResult deniedLog = call("bob", "get_run_log_tail", Map.of("runId", RecordedRuns.ORDERS_RUN));
    assertThat(deniedLog.isError()).isTrue();
    assertThat(text(deniedLog, 0)).contains("get logs");
    McpSchema.CallToolResult tooMuch = call("alice", "get_run_log_tail", Map.of("runId", RecordedRuns.ORDERS_RUN,
        "maxBytes", 2 * 1024 * 1024));
    assertThat(tooMuch.isError()).isTrue();
    assertThat(text(tooMuch, 0)).contains("maxBytes");
  }

  @Test
  void withoutRecordStoreOrConsoleLogsTheToolsSaySo() {
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(bare.url())
        .endpoint(McpEndpoint.PATH)
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + TOKENS.get("alice")))
        .build()).requestTimeout(Duration.ofSeconds(20)).build();
    try {
      client.initialize();
      McpSchema.CallToolResult activity = client.callTool(new McpSchema.CallToolRequest("list_activity", Map.of()));
      assertThat(structured(activity).path("items")).isEmpty();
      assertThat(structured(activity).path("recordStore").asBoolean()).isFalse();
      McpSchema.CallToolResult run = client.callTool(new McpSchema.CallToolRequest("get_run",
          Map.of("runId", RecordedRuns.ORDERS_RUN)));
      assertThat(run.isError()).isTrue();
      assertThat(text(run, 0)).contains("not recorded");
      McpSchema.CallToolResult tail = client.callTool(new McpSchema.CallToolRequest("get_run_log_tail",
          Map.of("runId", RecordedRuns.ORDERS_RUN)));
      assertThat(tail.isError()).isTrue();
      assertThat(text(tail, 0)).contains("console logs are not served");
    } finally {
      client.closeGracefully();
    }
  }

  private static McpSyncClient client(String user) {
    return CLIENTS.computeIfAbsent(user, u -> {
      McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(stack.url())
          .endpoint(McpEndpoint.PATH)
          .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + TOKENS.get(u)))
          .build()).requestTimeout(Duration.ofSeconds(20)).build();
      client.initialize();
      return client;
    });
  }

  private static McpSchema.CallToolResult call(String user, String tool, Map<String, Object> arguments) {
    return client(user).callTool(new McpSchema.CallToolRequest(tool, arguments));
  }

  private static JsonNode structured(McpSchema.CallToolResult result) {
    assertThat(result.isError()).as(String.valueOf(result.content())).isFalse();
    return JSON.valueToTree(result.structuredContent());
  }

  private static String text(McpSchema.CallToolResult result, int index) {
    return ((McpSchema.TextContent) result.content().get(index)).text();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> properties(Map<String, Object> schema) {
    return JSON.convertValue(schema.get("properties"), new TypeReference<Map<String, Object>>() {});
  }

  private static List<String> names(JsonNode items) {
    return StreamSupport.stream(items.spliterator(), false)
        .map(i -> i.path("namespace").asText() + "/" + i.path("name").asText()).toList();
  }



}

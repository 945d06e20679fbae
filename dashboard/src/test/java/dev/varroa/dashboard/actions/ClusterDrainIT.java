package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.mcp.McpEndpoint;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.access.AccessPolicyPublisher;
import dev.varroa.operator.actions.ActionLedger;
import dev.varroa.operator.actions.ClusterDrain;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
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
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * POST /actions over a real API server (the member's), NATS and OpenID provider, with the member's operator as the
 * chart runs it: a drain authorized by a VarroaRole verb or refused with 403, audited as a user action, previewed
 * with each volume's reclaim policy, deleting Controllers one by one, cancelled, replayed by request id without a
 * second execution, and resumed by a new operator after a restart.
 */
@WithKubeApiServer
class ClusterDrainIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CORE = "eu-1";
  private static final String MEMBER = "east";
  private static final String NAMESPACE = "team-a";
  private static final String HOLD = "test.varroa.dev/hold";

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Path cache;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static Connection watcher;
  private static AccessPolicyPublisher policy;
  private static VarroaOperator member;
  private static BffServer bff;
  private static final Map<String, String> TOKENS = new HashMap<>();
  private static final Queue<ActivityEvent> ACTIVITY = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cacheDir) throws Exception {
    client = kube.client();
    cache = cacheDir;
    BffFixtures.namespaces(client, NAMESPACE);
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: cluster-drainer}
        spec:
          rules:
            - verbs: [list, get, drain]
              resources: [clusters]
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-drains", "cluster-drainer", "User", "alice", null);
    BffFixtures.binding(client, "dave-reads", "reader", "User", "dave", null);
    storageClass("fast", "Delete");
    storageClass("keep", "Retain");
    controller("a-first", true);
    controller("b-second", false);
    controller("c-third", false);
    claim("a-first", "fast");
    claim("b-second", "keep");

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    watcher = NATS.server().connect();
    watcher.createDispatcher(message -> {
      try {
        ACTIVITY.add(ActivityEvent.parseFrom(message.getData()));
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException("not an ActivityEvent on " + message.getSubject(), e);
      }
    }).subscribe("activity.>");
    watcher.flush(DEADLINE);
    // the core's operator publishes the access policy; here it is read from the same API server
    policy = new AccessPolicyPublisher(() -> operatorBus, client, Clock.systemUTC());
    policy.start();
    member = startMember();
    OidcSettings oidc = BffStack.oidc(OIDC.provider(), PORT);
    bff = BffServer.start(PORT, new BffServer.Parts(() -> bffBus, () -> true, CORE, oidc,
        IssuerEndpoints.discover(oidc.issuer()), RecordReads.none(), LiveStreams::without,
        McpEndpoint.mount()), Clock.systemUTC());
    for (String name : List.of("alice", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the policy has arrived and the member is registered once alice sees it
    await().atMost(DEADLINE).until(() -> clusters("alice").statusCode() == 200
        && JSON.readTree(clusters("alice").body()).path("items").size() == 1);
  }

  @AfterAll
  static void stop() throws Exception {
    if (bff != null) {
      bff.close();
    }
    if (member != null) {
      member.close();
    }
    if (policy != null) {
      policy.close();
    }
    for (Connection connection : new Connection[] {operatorBus, bffBus, watcher}) {
      if (connection != null) {
        connection.close();
      }
    }
  }

  @Test
  void aCallerWithoutTheDrainVerbIsRefusedWith403NamingItAndTheRefusalIsAudited() throws Exception {
    String id = UUID.randomUUID().toString();
    HttpResponse<String> denied = post("dave", id, "drain", MEMBER, false);
    JsonNode body = json(denied, 403);
    assertThat(body.path("message").asText()).contains("drain clusters").contains("cluster " + MEMBER);
    assertThat(body.path("missing").path("verb").asText()).isEqualTo("drain");
    assertThat(body.path("missing").path("resource").asText()).isEqualTo("clusters");
    ActivityEvent audit = awaitAudit(id);
    assertThat(audit.getActor()).isEqualTo("dave");
    assertThat(audit.getAttributesMap()).containsEntry("outcome", "denied").containsEntry("verb", "drain")
        .containsEntry("targetCluster", MEMBER);
    assertThat(client.resources(Controller.class).inNamespace(NAMESPACE).list().getItems()).hasSize(3);
  }

  @Test
  void anMcpClientPreviewsTheDrainWithItsVerbAndIsRefusedWithout() throws Exception {
    String id = UUID.randomUUID().toString();
    McpSchema.CallToolResult preview = mcp("alice", Map.of("cluster", MEMBER, "requestId", id, "preview", true));
    assertThat(preview.isError()).as(String.valueOf(preview.content())).isFalse();
    JsonNode answer = JSON.valueToTree(preview.structuredContent());
    assertThat(answer.path("requestId").asText()).isEqualTo(id);
    assertThat(answer.path("outcome").asText()).isEqualTo("done");
    assertThat(answer.path("preview").asBoolean()).isTrue();

    String denied = UUID.randomUUID().toString();
    McpSchema.CallToolResult refused = mcp("dave", Map.of("cluster", MEMBER, "requestId", denied));
    assertThat(refused.isError()).isTrue();
    assertThat(((McpSchema.TextContent) refused.content().get(0)).text()).contains("drain clusters");
    assertThat(awaitAudit(denied).getAttributesMap()).containsEntry("outcome", "denied");
  }

  @Test
  void theCoreClusterIsNeverDrained() throws Exception {
    JsonNode body = json(post("alice", UUID.randomUUID().toString(), "drain", CORE, false), 409);
    assertThat(body.path("message").asText()).contains("cluster " + CORE + " is the core cluster");
  }

  @Test
  void aBrowserSessionCannotSendAnActionAndABadRequestIdIsNamed() throws Exception {
    HttpResponse<String> browser = HTTP.send(HttpRequest.newBuilder(URI.create(bff.url() + "/actions"))
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(json(browser, 403).path("error").asText()).isEqualTo("read_only_browser");
    JsonNode bad = json(post("alice", "not-a-uuid", "drain", MEMBER, false), 400);
    assertThat(bad.path("field").asText()).isEqualTo("requestId");
    assertThat(bad.path("message").asText()).contains("not-a-uuid").contains("UUID");
  }

  @Test
  void aDrainIsPreviewedAuditedCancelledReplayedWithoutASecondRunAndResumedAfterAnOperatorRestart()
      throws Exception {
    // preview: what each JENKINS_HOME volume's reclaim policy will do, nothing deleted, nothing audited
    String previewId = UUID.randomUUID().toString();
    JsonNode preview = json(post("alice", previewId, "drain", MEMBER, true), 200);
    assertThat(preview.path("controllersLeft").asInt()).isEqualTo(3);
    assertThat(fates(preview)).containsExactly("a-first/jenkins-home-a-first=fast:Delete",
        "b-second/jenkins-home-b-second=keep:Retain");

    // the drain: accepted, audited, the first Controller's claim and the Controller deleted, the next ones wait
    String drainId = UUID.randomUUID().toString();
    JsonNode accepted = json(post("alice", drainId, "drain", MEMBER, false), 200);
    assertThat(accepted.path("outcome").asText()).isEqualTo("accepted");
    assertThat(accepted.path("state").asText()).isEqualTo("Draining");
    assertThat(accepted.path("controllersLeft").asInt()).isEqualTo(3);
    ActivityEvent audit = awaitAudit(drainId);
    assertThat(audit.getActor()).isEqualTo("alice");
    assertThat(audit.getAttributesMap()).containsEntry("outcome", "accepted").containsEntry("targetCluster", MEMBER);
    await().atMost(DEADLINE).until(() -> deleting("a-first") && claimDeleted("a-first"));
    await().atMost(DEADLINE).until(() -> drainState("alice").equals("Draining"));
    assertThat(exists("b-second")).isTrue();
    assertThat(exists("c-third")).isTrue();

    // cancel: the state says so; the held Controller goes once released, the others stay
    JsonNode cancelled = json(post("alice", UUID.randomUUID().toString(), "cancel-drain", MEMBER, false), 200);
    assertThat(cancelled.path("state").asText()).isEqualTo("DrainCancelled");
    assertThat(cancelled.path("message").asText()).contains("already deleted stay deleted");
    // the first drain's id again: its first answer, and no second drain
    JsonNode replayed = json(post("alice", drainId, "drain", MEMBER, false), 200);
    assertThat(replayed.path("replayed").asBoolean()).isTrue();
    assertThat(replayed.path("outcome").asText()).isEqualTo("accepted");
    release("a-first");
    await().atMost(DEADLINE).until(() -> !exists("a-first"));
    awaitSteps(member.clusterDrain(), 3);
    assertThat(exists("b-second")).isTrue();
    assertThat(exists("c-third")).isTrue();
    assertThat(ledgerState()).isEqualTo("DrainCancelled");
    assertThat(audits()).filteredOn(e -> e.getAttributesMap().get("requestId").equals(drainId)).hasSize(1);
    await().atMost(DEADLINE).until(() -> drainState("alice").equals("DrainCancelled"));

    // a new drain, stopped by an operator restart while the next Controller is held: the new operator finishes it
    hold("b-second");
    json(post("alice", UUID.randomUUID().toString(), "drain", MEMBER, false), 200);
    await().atMost(DEADLINE).until(() -> deleting("b-second") && claimDeleted("b-second"));
    member.close();
    assertThat(ledgerState()).isEqualTo("Draining");
    assertThat(exists("c-third")).isTrue();
    member = startMember();
    release("b-second");
    await().atMost(DEADLINE).until(() -> !exists("b-second") && !exists("c-third"));
    await().atMost(DEADLINE).until(() -> drainState("alice").equals("Drained"));
    assertThat(ledgerState()).isEqualTo("Drained");
  }

  private static McpSchema.CallToolResult mcp(String user, Map<String, Object> arguments) {
    McpSyncClient mcp = McpClient.sync(HttpClientStreamableHttpTransport.builder(bff.url())
        .endpoint(McpEndpoint.PATH)
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + TOKENS.get(user)))
        .build()).requestTimeout(Duration.ofSeconds(20)).build();
    try {
      mcp.initialize();
      return mcp.callTool(new McpSchema.CallToolRequest("drain_cluster", arguments));
    } finally {
      mcp.closeGracefully();
    }
  }

  private static VarroaOperator startMember() {
    ActivityPublisher activity = new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC());
    VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null, activity,
        Optional.empty(), Clock.systemUTC());
    operator.start();
    operator.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    return operator;
  }

  private static void storageClass(String name, String reclaimPolicy) {
    BffFixtures.create(client, "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: " + name
        + "}\nprovisioner: test.varroa.dev/none\nreclaimPolicy: " + reclaimPolicy + "\n", StorageClass.class);
  }

  private static void controller(String name, boolean held) {
    BffFixtures.create(client, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: " + name
        + ", namespace: " + NAMESPACE + (held ? ", finalizers: [" + HOLD + "]" : "") + "}\nspec: {}\n",
        Controller.class);
  }

  private static void claim(String controller, String storageClass) {
    BffFixtures.create(client, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: jenkins-home-"
        + controller + ", namespace: " + NAMESPACE + ", labels: {" + ControllerLabels.CONTROLLER + ": "
        + ControllerLabels.value(controller) + "}}\nspec: {accessModes: [ReadWriteOnce], storageClassName: "
        + storageClass + ", resources: {requests: {storage: 1Gi}}}\n", PersistentVolumeClaim.class);
  }

  private static void hold(String name) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).edit(c -> {
      c.getMetadata().getFinalizers().add(HOLD);
      return c;
    });
  }

  private static void release(String name) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).edit(c -> {
      c.getMetadata().getFinalizers().remove(HOLD);
      return c;
    });
  }

  private static boolean exists(String name) {
    return client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).get() != null;
  }

  private static boolean deleting(String name) {
    Controller c = client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).get();
    return c != null && c.getMetadata().getDeletionTimestamp() != null;
  }

  /** Deleted: gone, or held by kubernetes.io/pvc-protection (no controller manager here removes it). */
  private static boolean claimDeleted(String controller) {
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(NAMESPACE)
        .withName("jenkins-home-" + controller).get();
    return claim == null || claim.getMetadata().getDeletionTimestamp() != null;
  }

  private static String ledgerState() {
    String namespace = Optional.ofNullable(client.getNamespace()).orElse("default");
    return client.configMaps().inNamespace(namespace).withName(ActionLedger.CONFIG_MAP).get().getData()
        .get("drain.state");
  }

  /** Waits until the drain looked at the ledger and the Controllers this many more times. */
  private static void awaitSteps(ClusterDrain drain, int more) {
    long target = drain.steps() + more;
    await().atMost(DEADLINE).until(() -> drain.steps() >= target);
  }

  private static List<String> fates(JsonNode answer) {
    List<String> out = new ArrayList<>();
    answer.path("volumes").forEach(v -> out.add(v.path("controller").asText() + "/" + v.path("claim").asText() + "="
        + v.path("storageClass").asText() + ":" + v.path("reclaimPolicy").asText()));
    return out;
  }

  private static List<ActivityEvent> audits() {
    return ACTIVITY.stream().filter(e -> e.getKind().equals(ClusterActions.USER_ACTION)).toList();
  }

  private static ActivityEvent awaitAudit(String requestId) {
    return await().atMost(DEADLINE).until(() -> audits().stream()
        .filter(e -> requestId.equals(e.getAttributesMap().get("requestId"))).findFirst(), Optional::isPresent).get();
  }

  private static String drainState(String user) throws Exception {
    HttpResponse<String> response = clusters(user);
    JsonNode items = JSON.readTree(response.body()).path("items");
    return items.size() == 1 ? items.get(0).path("drainState").asText() : "";
  }

  private static HttpResponse<String> clusters(String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(bff.url() + "/clusters"))
        .header("Authorization", "Bearer " + TOKENS.get(user)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> post(String user, String requestId, String verb, String cluster,
      boolean preview) throws Exception {
    String body = JSON.writeValueAsString(Map.of("requestId", requestId, "verb", verb, "target",
        Map.of("cluster", cluster), "preview", preview));
    return HTTP.send(HttpRequest.newBuilder(URI.create(bff.url() + "/actions"))
        .header("Authorization", "Bearer " + TOKENS.get(user)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }
}

package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.BroodFixtures;
import dev.varroa.protocol.activity.v1.ActivityEvent;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broodop verbs of POST /actions over a real operator (the core's, registered with its ClusterActionResponder),
 * API server, NATS and OpenID provider: create from a manifest, pause, resume, cancel and delete, each authorized by a
 * VarroaRole verb on broodoperations in the namespace, audited as a user action, replayed by request id without a
 * second run, and refused with the reason when the manifest is not a BroodOperation or the operation has finished.
 */
@WithKubeApiServer
class BroodOperationActionsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String MANIFEST = """
      apiVersion: varroa.dev/v1alpha1
      kind: BroodOperation
      metadata: {name: %s, namespace: team-a}
      spec:
        targets: {namespaces: [team-a], phases: [Connected]}
        steps: [{type: backup}, {type: safeRestart}]
      """;

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("carol"), BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static Connection watcher;
  private static BffStack stack;
  private static final Map<String, String> TOKENS = new HashMap<>();
  private static final Queue<ActivityEvent> ACTIVITY = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    client = kube.client();
    BffFixtures.namespaces(client, "team-a", "team-b");
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: brood-operator}
        spec:
          rules:
            - verbs: [list, get, create, update, delete]
              resources: [broodoperations]
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-runs-brood", "brood-operator", "User", "alice", null);
    BffFixtures.binding(client, "bob-runs-brood-in-team-b", "brood-operator", "User", "bob", "team-b");
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: brood-operator-here}
        spec:
          rules:
            - verbs: [create]
              resources: [broodoperations]
              clusters: [%s]
        """.formatted(BffStack.CLUSTER), VarroaRole.class);
    BffFixtures.binding(client, "carol-runs-brood-here", "brood-operator-here", "User", "carol", null);
    BffFixtures.binding(client, "dave-reads", "reader", "User", "dave", null);

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
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    for (String name : List.of("alice", "bob", "carol", "dave")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the policy has arrived once alice may list brood operations
    await().atMost(DEADLINE).until(() -> get("/broodoperations", "alice").statusCode() == 200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack != null) {
      stack.close();
    }
    for (Connection connection : new Connection[] {operatorBus, bffBus, watcher}) {
      if (connection != null) {
        connection.close();
      }
    }
  }

  @Test
  void aCreateMakesTheOperationOnceIsAuditedAndAReplayRunsNothing() throws Exception {
    String id = UUID.randomUUID().toString();
    JsonNode created = json(post("alice", id, "broodop-create", "team-a", "", MANIFEST.formatted("wave-1")), 200);
    assertThat(created.path("outcome").asText()).isEqualTo("done");
    assertThat(created.path("message").asText()).contains("BroodOperation team-a/wave-1 created in cluster "
        + BffStack.CLUSTER);
    assertThat(created.path("target").path("namespace").asText()).isEqualTo("team-a");
    assertThat(created.path("target").path("name").asText()).isEqualTo("wave-1");
    BroodOperation stored = operation("wave-1");
    assertThat(stored.getSpec().steps).extracting(s -> s.type).containsExactly("backup", "safeRestart");
    String uid = stored.getMetadata().getUid();

    ActivityEvent audit = awaitAudit(id);
    assertThat(audit.getActor()).isEqualTo("alice");
    assertThat(audit.getAttributesMap()).containsEntry("verb", "broodop-create").containsEntry("outcome", "done")
        .containsEntry("targetCluster", BffStack.CLUSTER).containsEntry("targetNamespace", "team-a");

    JsonNode again = json(post("alice", id, "broodop-create", "team-a", "", MANIFEST.formatted("wave-1")), 200);
    assertThat(again.path("replayed").asBoolean()).isTrue();
    assertThat(operation("wave-1").getMetadata().getUid()).as("a replay creates nothing").isEqualTo(uid);
    // a fresh request for the same name is a conflict the operator names
    JsonNode exists = json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-a", "",
        MANIFEST.formatted("wave-1")), 409);
    assertThat(exists.path("message").asText()).contains("team-a/wave-1 already exists");
  }

  @Test
  void pauseResumeAndCancelWriteTheSpecAndAFinishedOperationRefusesThem() throws Exception {
    json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-a", "", MANIFEST.formatted("wave-2")),
        200);
    assertThat(json(post("alice", UUID.randomUUID().toString(), "broodop-pause", "team-a", "wave-2", null), 200)
        .path("message").asText()).contains("paused");
    assertThat(operation("wave-2").getSpec().suspend).isTrue();
    json(post("alice", UUID.randomUUID().toString(), "broodop-resume", "team-a", "wave-2", null), 200);
    assertThat(operation("wave-2").getSpec().suspend).isFalse();
    json(post("alice", UUID.randomUUID().toString(), "broodop-cancel", "team-a", "wave-2", null), 200);
    assertThat(operation("wave-2").getSpec().cancel).isTrue();
    JsonNode stays = json(post("alice", UUID.randomUUID().toString(), "broodop-resume", "team-a", "wave-2", null),
        409);
    assertThat(stays.path("message").asText()).contains("is cancelled");

    json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-a", "", MANIFEST.formatted("wave-3")),
        200);
    BroodFixtures.status(client, operation("wave-3"), status -> status.phase = BroodOperationStatus.Phase.Succeeded);
    JsonNode finished = json(post("alice", UUID.randomUUID().toString(), "broodop-cancel", "team-a", "wave-3", null),
        409);
    assertThat(finished.path("message").asText()).contains("team-a/wave-3 has finished (Succeeded)");
    assertThat(operation("wave-3").getSpec().cancel).isNull();

    JsonNode missing = json(post("alice", UUID.randomUUID().toString(), "broodop-pause", "team-a", "nothing-here",
        null), 404);
    assertThat(missing.path("message").asText()).contains("team-a/nothing-here does not exist");

    json(post("alice", UUID.randomUUID().toString(), "broodop-delete", "team-a", "wave-3", null), 200);
    await().atMost(DEADLINE).until(() -> client.resources(BroodOperation.class).inNamespace("team-a")
        .withName("wave-3").get() == null);
  }

  @Test
  void aManifestThatIsNotABroodOperationIsRefusedNamingWhatItIs() throws Exception {
    String id = UUID.randomUUID().toString();
    JsonNode refused = json(post("alice", id, "broodop-create", "team-a", "", """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: sneaky, namespace: team-a}
        spec: {}
        """), 409);
    assertThat(refused.path("message").asText()).contains("is a Controller (varroa.dev/v1alpha1), not a"
        + " BroodOperation");
    assertThat(awaitAudit(id).getAttributesMap()).containsEntry("outcome", "refused");
    JsonNode empty = json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-a", "", ""), 400);
    assertThat(empty.path("field").asText()).isEqualTo("manifest");
    // the API server's own validation (an empty selection) comes back with its message
    JsonNode invalid = json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-a", "", """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: everything, namespace: team-a}
        spec: {targets: {}, steps: [{type: backup}]}
        """), 409);
    assertThat(invalid.path("message").asText()).contains("spec.targets selects nothing");
  }

  @Test
  void theVerbIsCheckedInTheNamespaceAndARefusalNamesIt() throws Exception {
    String id = UUID.randomUUID().toString();
    JsonNode denied = json(post("dave", id, "broodop-create", "team-a", "", MANIFEST.formatted("dave-wave")), 403);
    assertThat(denied.path("message").asText()).contains("create broodoperations");
    assertThat(denied.path("missing").path("verb").asText()).isEqualTo("create");
    assertThat(denied.path("missing").path("resource").asText()).isEqualTo("broodoperations");
    assertThat(awaitAudit(id).getAttributesMap()).containsEntry("outcome", "denied");
    JsonNode elsewhere = json(post("bob", UUID.randomUUID().toString(), "broodop-create", "team-a", "",
        MANIFEST.formatted("bob-wave")), 403);
    assertThat(elsewhere.path("missing").path("namespace").asText()).isEqualTo("team-a");
    assertThat(client.resources(BroodOperation.class).inNamespace("team-a").withName("dave-wave").get()).isNull();
    assertThat(client.resources(BroodOperation.class).inNamespace("team-a").withName("bob-wave").get()).isNull();
  }

  @Test
  void aCreateNeedsTheVerbWhereverItsTargetsReachNotOnlyWhereItIsStored() throws Exception {
    String inTeamB = """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: %s, namespace: team-b}
        spec:
          targets: %s
          steps: [{type: safeRestart}]
        """;
    // bob may create BroodOperations in team-b only: one there that restarts team-a's Controllers is refused
    String id = UUID.randomUUID().toString();
    JsonNode across = json(post("bob", id, "broodop-create", "team-b", "",
        inTeamB.formatted("reach-a", "{namespaces: [team-b, team-a]}")), 403);
    assertThat(across.path("message").asText()).contains("namespace team-a in cluster " + BffStack.CLUSTER);
    assertThat(across.path("missing").path("namespace").asText()).isEqualTo("team-a");
    assertThat(awaitAudit(id).getAttributesMap()).containsEntry("outcome", "denied");
    // namespaces omitted reach every namespace: only a grant on the whole cluster covers that
    JsonNode everywhere = json(post("bob", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("reach-all", "{phases: [Connected]}")), 403);
    assertThat(everywhere.path("message").asText()).contains("of cluster " + BffStack.CLUSTER + ":");
    assertThat(everywhere.path("missing").has("namespace")).isFalse();
    // carol may create them anywhere in this cluster: every cluster is beyond her grant, this one whole is not
    JsonNode everyCluster = json(post("carol", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("reach-fleet", "{clusters: ['*'], namespaces: [team-b]}")), 403);
    assertThat(everyCluster.path("message").asText()).contains("namespace team-b in every cluster");
    json(post("carol", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("carol-here", "{phases: [Connected]}")), 200);
    for (String name : List.of("reach-a", "reach-all", "reach-fleet")) {
      assertThat(client.resources(BroodOperation.class).inNamespace("team-b").withName(name).get()).isNull();
    }
    // within its own namespace the same grant suffices, and alice's unscoped grant covers every cluster
    json(post("bob", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("reach-own", "{namespaces: [team-b]}")), 200);
    JsonNode fleet = json(post("alice", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("alice-fleet", "{clusters: ['*'], phases: [Connected]}") + "  dryRun: true\n"), 200);
    assertThat(fleet.path("outcome").asText()).isEqualTo("done");
    // a manifest whose targets cannot be read is refused before anything is sent
    JsonNode unreadable = json(post("bob", UUID.randomUUID().toString(), "broodop-create", "team-b", "",
        inTeamB.formatted("reach-odd", "{namespaces: team-a}")), 400);
    assertThat(unreadable.path("field").asText()).isEqualTo("manifest");
    assertThat(unreadable.path("message").asText()).contains("spec.targets.namespaces must be a list");
  }

  private static BroodOperation operation(String name) {
    return client.resources(BroodOperation.class).inNamespace("team-a").withName(name).get();
  }

  private static ActivityEvent awaitAudit(String requestId) {
    return await().atMost(DEADLINE).until(() -> ACTIVITY.stream()
        .filter(e -> "user.action".equals(e.getKind()) && requestId.equals(e.getAttributesMap().get("requestId")))
        .findFirst().orElse(null), e -> e != null);
  }

  private static HttpResponse<String> post(String user, String id, String verb, String namespace, String name,
      String manifest) throws Exception {
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("cluster", BffStack.CLUSTER);
    target.put("namespace", namespace);
    target.put("name", name);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", id);
    body.put("verb", verb);
    body.put("target", target);
    if (manifest != null) {
      body.put("manifest", manifest);
    }
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/actions"))
        .header("Authorization", "Bearer " + TOKENS.get(user)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path, String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + TOKENS.get(user)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }
}

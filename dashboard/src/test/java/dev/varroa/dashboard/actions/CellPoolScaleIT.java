package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.CellFixtures;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * POST /actions cellpool-scale from the core's BFF to a member's operator (two API servers, real NATS and OpenID
 * provider): spec.replicas written through the CellPool's scale subresource on the member, the VarroaRole verb update
 * on cellpools in the pool's namespace required, audited as a user action, replayed by request id without a second
 * write, a missing pool a 404, and bad replicas refused before anything is sent.
 */
@WithKubeApiServer
class CellPoolScaleIT {

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
      BffFixtures.user("bob")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient memberClient;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static Connection watcher;
  private static BffStack stack;
  private static VarroaOperator member;
  private static final Map<String, String> TOKENS = new HashMap<>();
  private static final Queue<ActivityEvent> ACTIVITY = new ConcurrentLinkedQueue<>();

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path cache, @TempDir Path memberCache) throws Exception {
    KubernetesClient coreClient = core.client();
    memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "tenant-a", "tenant-b");
    BffFixtures.namespaces(memberClient, "tenant-a", "tenant-b");
    BffFixtures.create(coreClient, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: pool-scaler}
        spec:
          rules:
            - verbs: [list, get, update]
              resources: [cellpools]
        """, VarroaRole.class);
    BffFixtures.binding(coreClient, "alice-scales", "pool-scaler", "User", "alice", null);
    BffFixtures.binding(coreClient, "bob-scales-tenant-b", "pool-scaler", "User", "bob", "tenant-b");
    CellFixtures.pool(memberClient, "tenant-a", "builds", 4, List.of(List.of("payments")));
    CellFixtures.pool(memberClient, "tenant-b", "ci", 4, List.of(List.of("mobile"), List.of("web")));

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
    stack = BffStack.start(coreClient, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(memberCache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    for (String name : List.of("alice", "bob")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the policy has arrived and the member is registered once alice lists both of its pools
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> cells = get("/cells?cluster=" + MEMBER, "alice");
      return cells.statusCode() == 200 && JSON.readTree(cells.body()).path("pools").size() == 2;
    });
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, member, operatorBus, bffBus, watcher}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void scalesTheMembersPoolThroughItsScaleSubresourceAuditedAndReplayed() throws Exception {
    String id = UUID.randomUUID().toString();
    JsonNode scaled = json(post("alice", id, "tenant-b", "ci", 3), 200);
    assertThat(scaled.path("outcome").asText()).isEqualTo("done");
    assertThat(scaled.path("message").asText()).contains("CellPool tenant-b/ci in cluster east scaled from 2 to 3");
    assertThat(scaled.path("target").path("name").asText()).isEqualTo("ci");
    assertThat(scaled.path("replicas").asInt()).isEqualTo(3);
    assertThat(replicas("tenant-b", "ci")).isEqualTo(3);
    ActivityEvent audit = awaitAudit(id);
    assertThat(audit.getActor()).isEqualTo("alice");
    assertThat(audit.getAttributesMap()).containsEntry("verb", "cellpool-scale").containsEntry("outcome", "done")
        .containsEntry("targetCluster", MEMBER).containsEntry("targetNamespace", "tenant-b")
        .containsEntry("targetName", "ci").containsEntry("replicas", "3");

    // someone scales it by hand; the same request id again is answered from the ledger and writes nothing
    memberClient.resources(CellPool.class).inNamespace("tenant-b").withName("ci")
        .edit(pool -> {
          pool.getSpec().replicas = 1;
          return pool;
        });
    JsonNode again = json(post("alice", id, "tenant-b", "ci", 3), 200);
    assertThat(again.path("replayed").asBoolean()).isTrue();
    assertThat(replicas("tenant-b", "ci")).isEqualTo(1);

    JsonNode down = json(post("alice", UUID.randomUUID().toString(), "tenant-b", "ci", 0), 200);
    assertThat(down.path("message").asText()).contains("scaled from 1 to 0").contains("move their teams");
    assertThat(replicas("tenant-b", "ci")).isZero();
  }

  @Test
  void aTenantScalesItsOwnNamespaceOnly() throws Exception {
    String id = UUID.randomUUID().toString();
    JsonNode denied = json(post("bob", id, "tenant-a", "builds", 5), 403);
    assertThat(denied.path("message").asText()).contains("update cellpools");
    assertThat(awaitAudit(id).getAttributesMap()).containsEntry("outcome", "denied");
    assertThat(replicas("tenant-a", "builds")).isEqualTo(1);
    json(post("bob", UUID.randomUUID().toString(), "tenant-b", "ci", 2), 200);
    assertThat(replicas("tenant-b", "ci")).isEqualTo(2);
  }

  @Test
  void aMissingPoolIsNotFoundAndBadReplicasAreRefusedBeforeAnythingIsSent() throws Exception {
    JsonNode missing = json(post("alice", UUID.randomUUID().toString(), "tenant-a", "nothing-here", 2), 404);
    assertThat(missing.path("message").asText()).contains("CellPool tenant-a/nothing-here does not exist in cluster"
        + " east");
    JsonNode tooMany = json(post("alice", UUID.randomUUID().toString(), "tenant-a", "builds", 501), 400);
    assertThat(tooMany.path("field").asText()).isEqualTo("replicas");
    assertThat(replicas("tenant-a", "builds")).isEqualTo(1);
  }

  private static int replicas(String namespace, String name) {
    return memberClient.resources(CellPool.class).inNamespace(namespace).withName(name).get().getSpec().replicas;
  }

  private static ActivityEvent awaitAudit(String requestId) {
    return await().atMost(DEADLINE).until(() -> ACTIVITY.stream()
        .filter(e -> "user.action".equals(e.getKind()) && requestId.equals(e.getAttributesMap().get("requestId")))
        .findFirst().orElse(null), e -> e != null);
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> post(String user, String id, String namespace, String name, int replicas)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", id);
    body.put("verb", "cellpool-scale");
    body.put("target", Map.of("cluster", MEMBER, "namespace", namespace, "name", name));
    body.put("replicas", replicas);
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/actions"))
        .header("Authorization", "Bearer " + TOKENS.get(user)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static HttpResponse<String> get(String path, String user) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + TOKENS.get(user)).build(), HttpResponse.BodyHandlers.ofString());
  }
}

package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.BroodFixtures;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The brood lists across two clusters, each its own API server with its own operator answering from its own caches:
 * the core's BFF merges both, names each row's cluster, reads one operation in full from the member, and narrows to
 * one cluster on request.
 */
@WithKubeApiServer
class BroodReadsAcrossClustersIT {

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
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice")),
      List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static VarroaOperator member;
  private static String token;

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path cache, @TempDir Path memberCache) throws Exception {
    KubernetesClient coreClient = core.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "team-a");
    BffFixtures.namespaces(memberClient, "team-a");
    BffFixtures.readerRole(coreClient);
    BffFixtures.binding(coreClient, "alice-reads-all", "reader", "User", "alice", null);
    BroodFixtures.running(coreClient, BroodFixtures.operation(coreClient, "team-a", "core-wave", null,
        List.of("orders")), BffStack.CLUSTER);
    BroodFixtures.running(memberClient, BroodFixtures.operation(memberClient, "team-a", "east-wave", null,
        List.of("search", "index")), MEMBER);
    BroodFixtures.schedule(memberClient, "team-a", "east-nightly", null);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(coreClient, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(memberCache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    token = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), "alice", BffFixtures.password("alice"))
        .idToken();
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> list = get("/broodoperations");
      return list.statusCode() == 200 && JSON.readTree(list.body()).path("operations").size() == 2
          && JSON.readTree(list.body()).path("operations").get(0).path("phase").asText().equals("Running");
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
  void bothClustersRowsAreMergedEachNamingItsCluster() throws Exception {
    JsonNode body = json(get("/broodoperations"), 200);
    assertThat(rows(body.path("operations"))).containsExactly("east/team-a/east-wave", "eu-1/team-a/core-wave");
    assertThat(body.path("operations").get(0).path("counts").path("total").asInt()).isEqualTo(2);
    assertThat(rows(body.path("clusters"), "name")).containsExactly("east", "eu-1");
    body.path("clusters").forEach(c -> assertThat(c.path("ok").asBoolean()).isTrue());

    assertThat(rows(json(get("/broodoperations?cluster=east"), 200).path("operations")))
        .containsExactly("east/team-a/east-wave");
    JsonNode schedules = json(get("/broodschedules"), 200);
    assertThat(rows(schedules.path("schedules"))).containsExactly("east/team-a/east-nightly");
    assertThat(rows(schedules.path("clusters"), "name")).containsExactly("east", "eu-1");
  }

  @Test
  void oneOperationIsReadFromTheClusterThatHoldsIt() throws Exception {
    JsonNode body = json(get("/broodoperations/east/team-a/east-wave"), 200);
    assertThat(body.path("cluster").asText()).isEqualTo(MEMBER);
    assertThat(body.path("operation").path("status").path("targets").get(0).path("cluster").asText())
        .isEqualTo(MEMBER);
    json(get("/broodoperations/eu-1/team-a/east-wave"), 404);
  }

  private static List<String> rows(JsonNode items) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path("cluster").asText() + "/" + r.path("namespace").asText() + "/"
        + r.path("name").asText()));
    return out;
  }

  private static List<String> rows(JsonNode items, String field) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path(field).asText()));
    return out;
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path)).header("Authorization", "Bearer " + token)
        .build(), HttpResponse.BodyHandlers.ofString());
  }
}

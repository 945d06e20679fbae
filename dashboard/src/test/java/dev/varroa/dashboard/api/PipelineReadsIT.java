package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.records.DashboardDatabase;
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
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * GET /pipelines over two clusters (the core and a member, each its own API server and operator),
 * PostgreSQL as the record store and a real OpenID provider: a row per pipeline of every Team with its job on its
 * cell, kind pipeline on the core and unknown on the member, the newest run of its job from the runs table and the
 * next cron run; a tenant's namespace-scoped binding sees only its Teams' pipelines; a silent member is named.
 */
@WithKubeApiServer
class PipelineReadsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String MEMBER = "east";

  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("carol")), List.of(BffStack.redirectUri(PORT)));

  private static final Map<String, String> TOKENS = new HashMap<>();
  private static Connection operatorBus;
  private static Connection bffBus;
  private static DashboardDatabase database;
  private static BffStack stack;
  private static VarroaOperator member;

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path folder) throws Exception {
    KubernetesClient coreClient = core.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "cells", "tenant-a", "tenant-b");
    BffFixtures.namespaces(memberClient, "tenant-b");
    BffFixtures.readerRole(coreClient);
    BffFixtures.create(coreClient, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: teams-only}
        spec:
          rules:
            - verbs: [list]
              resources: [teams]
        """, VarroaRole.class);
    BffFixtures.binding(coreClient, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(coreClient, "bob-reads-tenant-b", "reader", "User", "bob", "tenant-b");
    BffFixtures.binding(coreClient, "carol-lists-teams", "teams-only", "User", "carol", null);
    // tenant-a's Team uses the shared pool of namespace cells; tenant-b has a Team on the core and one on the member
    pool(coreClient, "cells", "shared");
    team(coreClient, "tenant-a", "payments", "shared", "cells", "shared-0", """
            - {name: build, repository: "https://git.example/payments.git"}
            - name: nightly
              repository: "https://git.example/payments.git"
              branch: release
              triggers: {cron: "0 2 * * *", pollScm: "H/5 * * * *"}
        """);
    pool(coreClient, "tenant-b", "ci");
    team(coreClient, "tenant-b", "mobile", "ci", null, "ci-0", """
            - {name: app, repository: "https://git.example/mobile.git"}
        """);
    pool(memberClient, "tenant-b", "ci-east");
    team(memberClient, "tenant-b", "data", "ci-east", null, "ci-east-0", """
            - {name: etl, repository: "https://git.example/etl.git", scriptPath: ci/Jenkinsfile}
        """);

    database = DashboardDatabase.create(POSTGRES.server(), "pipelines", folder);
    Instant started = Instant.parse("2026-12-04T10:00:00Z");
    // two runs of payments/build on its cell: the newer one is the last run; a run of the same job on another
    // cell and one of another job are not
    run("uid-shared-0", "cells", "shared-0", "tenant-a_payments/build", 1, started, "FAILURE", 30_000);
    run("uid-shared-0", "cells", "shared-0", "tenant-a_payments/build", 2, started.plusSeconds(3600), "SUCCESS",
        42_000);
    run("uid-other", "cells", "other-0", "tenant-a_payments/build", 9, started.plusSeconds(7200), "ABORTED", 1_000);
    run("uid-shared-0", "cells", "shared-0", "tenant-a_payments/deploy", 1, started.plusSeconds(7200), "SUCCESS",
        1_000);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    BusTopology.ensureActivity(operatorBus);
    stack = BffStack.startRecorded(coreClient, folder.resolve("cache"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, database, folder.resolve("bff-db-password"),
        logs -> BffServer.McpMount.none());
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(folder.resolve("member-cache")), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers().withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    for (String name : List.of("alice", "bob", "carol")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the policy, both clusters and every Team with its status have reached the caches
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> answer = get("/pipelines", "alice");
      if (answer.statusCode() != 200) {
        return false;
      }
      JsonNode rows = JSON.readTree(answer.body()).path("pipelines");
      return rows.size() == 4 && StreamSupport.stream(rows.spliterator(), false)
          .allMatch(r -> !r.path("cell").isNull() && !r.path("cellNamespace").isNull());
    });
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, member, database, operatorBus, bffBus}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void aRowPerPipelineWithItsJobKindLastRunAndNextRun() throws Exception {
    JsonNode body = json(get("/pipelines", "alice"), 200);
    assertThat(body.path("recordStore").asBoolean()).isTrue();
    assertThat(rows(body.path("pipelines"))).containsExactly("east/tenant-b/data/etl", "eu-1/tenant-a/payments/build",
        "eu-1/tenant-a/payments/nightly", "eu-1/tenant-b/mobile/app");
    assertThat(field(body.path("clusters"), "name")).containsExactly("east", "eu-1");

    JsonNode build = body.path("pipelines").get(1);
    assertThat(build.path("cell").asText()).isEqualTo("shared-0");
    assertThat(build.path("cellNamespace").asText()).isEqualTo("cells");
    assertThat(build.path("job").asText()).isEqualTo("tenant-a_payments/build");
    assertThat(build.path("kind").asText()).isEqualTo("pipeline");
    assertThat(build.path("lastRun").path("build").asLong()).isEqualTo(2);
    assertThat(build.path("lastRun").path("result").asText()).isEqualTo("SUCCESS");
    assertThat(build.path("lastRun").path("durationMillis").asLong()).isEqualTo(42_000);
    assertThat(Instant.parse(build.path("lastRun").path("startedAt").asText()))
        .isEqualTo(Instant.parse("2026-12-04T11:00:00Z"));
    assertThat(build.path("lastRun").path("runId").asText()).isNotEmpty();
    assertThat(build.path("nextRun").isNull()).isTrue();

    JsonNode nightly = body.path("pipelines").get(2);
    assertThat(nightly.path("branch").asText()).isEqualTo("release");
    assertThat(nightly.path("triggers").path("cron").asText()).isEqualTo("0 2 * * *");
    assertThat(nightly.path("triggers").path("pollScm").asText()).isEqualTo("H/5 * * * *");
    assertThat(nightly.path("lastRun").isNull()).as("no run of this job is recorded").isTrue();
    Instant next = Instant.parse(nightly.path("nextRun").asText());
    assertThat(next.toString()).endsWith("T02:00:00Z");
    assertThat(next).isAfter(Instant.now()).isBefore(Instant.now().plus(Duration.ofHours(25)));

    JsonNode etl = body.path("pipelines").get(0);
    assertThat(etl.path("kind").asText()).as("the core does not read a member Team's bundle").isEqualTo("unknown");
    assertThat(etl.path("job").asText()).isEqualTo("data/etl");
    assertThat(etl.path("scriptPath").asText()).isEqualTo("ci/Jenkinsfile");

    assertThat(rows(json(get("/pipelines?team=payments", "alice"), 200).path("pipelines")))
        .containsExactly("eu-1/tenant-a/payments/build", "eu-1/tenant-a/payments/nightly");
    assertThat(rows(json(get("/pipelines?cluster=east", "alice"), 200).path("pipelines")))
        .containsExactly("east/tenant-b/data/etl");
    assertThat(json(get("/pipelines?team=Not_A_Team", "alice"), 400).path("message").asText())
        .contains("team must be a Team name");
  }

  @Test
  void aTenantScopedBindingSeesOnlyItsOwnTeamsPipelines() throws Exception {
    assertThat(rows(json(get("/pipelines", "bob"), 200).path("pipelines")))
        .containsExactly("east/tenant-b/data/etl", "eu-1/tenant-b/mobile/app");
    assertThat(json(get("/pipelines?namespace=tenant-a", "bob"), 200).path("pipelines").size()).isZero();
    assertThat(json(get("/pipelines?team=payments", "bob"), 200).path("pipelines").size()).isZero();
  }

  @Test
  void listingTeamsIsNotListingPipelines() throws Exception {
    assertThat(json(get("/pipelines", "carol"), 403).path("message").asText()).contains("list pipelines");
  }

  @Test
  void aRegisteredMemberThatDoesNotAnswerIsNamed() throws Exception {
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      JsonNode body = await().atMost(DEADLINE).until(() -> json(get("/pipelines", "alice"), 200),
          b -> b.path("clusters").size() == 3);
      assertThat(body.path("pipelines").size()).isEqualTo(4);
      JsonNode silent = StreamSupport.stream(body.path("clusters").spliterator(), false)
          .filter(c -> c.path("name").asText().equals("eu-2")).findFirst().orElseThrow();
      assertThat(silent.path("ok").asBoolean()).isFalse();
      assertThat(silent.path("reason").asText()).isEqualTo("list unavailable");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  private static void pool(KubernetesClient client, String namespace, String name) {
    client.resource(YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: CellPool\nmetadata: {name: " + name
        + ", namespace: " + namespace + "}\nspec: {replicas: 1, template: {spec: {}}}\n", CellPool.class)).create();
  }

  /** A Team Placed on the cell, with status written as the cell reconcilers would (they do not run here). */
  private static void team(KubernetesClient client, String namespace, String name, String pool, String poolNamespace,
      String cell, String pipelines) {
    Team team = client.resource(YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: Team\nmetadata: {name: " + name
        + ", namespace: " + namespace + "}\nspec:\n  pool: " + pool
        + (poolNamespace == null ? "" : "\n  poolNamespace: " + poolNamespace) + "\n  pipelines:\n" + pipelines,
        Team.class)).create();
    TeamStatus status = new TeamStatus();
    status.phase = TeamStatus.Phase.Placed;
    status.cell = cell;
    status.cellNamespace = poolNamespace == null ? namespace : poolNamespace;
    status.placedSince = "2026-12-04T00:00:00Z";
    team.setStatus(status);
    client.resource(team).updateStatus();
  }

  private static void run(String controllerUid, String namespace, String controller, String job, long build,
      Instant started, String result, long durationMillis) throws Exception {
    database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace, controller_name, job, "
        + "build_number, queued_at, started_at, result, completed_at, duration_millis, last_sequence) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 5)", controllerUid, job + "#" + build, BffStack.CLUSTER,
        namespace, controller, job, build, Timestamp.from(started.minusSeconds(5)), Timestamp.from(started), result,
        Timestamp.from(started.plusMillis(durationMillis)), durationMillis);
  }

  private static List<String> rows(JsonNode items) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path("cluster").asText() + "/" + r.path("namespace").asText() + "/"
        + r.path("team").asText() + "/" + r.path("pipeline").asText()));
    return out;
  }

  private static List<String> field(JsonNode items, String name) {
    List<String> out = new ArrayList<>();
    items.forEach(r -> out.add(r.path(name).asText()));
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

package dev.varroa.dashboard.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.CellFixtures;
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
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Pipelines page in headless Chromium against the BFF with its record store, in front of two clusters (two API
 * servers, an operator each), NATS and the OpenID provider: every Team's pipelines for a reader of every namespace,
 * the tenant-b ones only for a user bound in tenant-b, a silent member named, the filter in the URL, and a run that
 * starts and ends in the runs table showing on the open page without a reload.
 */
@WithKubeApiServer
class PipelinesBrowserIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String MEMBER = "east";
  private static final String SILENT_MEMBER = "us-2";
  private static final String RUN_ID = "payments-build-1";

  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static DashboardDatabase database;
  private static BffStack stack;
  private static VarroaOperator member;

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path folder) throws Exception {
    Files.createDirectories(DashboardBrowserIT.SCREENSHOTS);
    KubernetesClient coreClient = core.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "tenant-a", "tenant-b");
    BffFixtures.namespaces(memberClient, "tenant-b");
    BffFixtures.readerRole(coreClient);
    BffFixtures.binding(coreClient, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(coreClient, "bob-reads-tenant-b", "reader", "User", "bob", "tenant-b");
    CellFixtures.pool(coreClient, "tenant-a", "builds", 4, List.of(List.of("payments", "orders")));
    CellFixtures.pool(coreClient, "tenant-b", "ci", 4, List.of(List.of("mobile")));
    CellFixtures.pool(memberClient, "tenant-b", "ci-east", 2, List.of(List.of("data")));

    database = DashboardDatabase.create(POSTGRES.server(), "pipelines_page", folder);
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
    String token = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), "alice",
        BffFixtures.password("alice")).idToken();
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/pipelines"))
          .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
      return answer.statusCode() == 200 && JSON.readTree(answer.body()).path("pipelines").size() == 4;
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
  void aReaderOfEveryNamespaceSeesEveryPipelineAndARunLive() throws Exception {
    Instant started = Instant.now().minusSeconds(62);
    BrowserScript script = script("alice", "pipelines", "east/tenant-b/data/build,eu-1/tenant-a/orders/build,"
        + "eu-1/tenant-a/payments/build,eu-1/tenant-b/mobile/build", "", "eu-1/tenant-a/payments/build")
        // the recorder's rows for a run of payments/build on its cell: started, then ended
        .on("run-started", () -> database.execute("INSERT INTO runs (controller_uid, run_id, cluster, namespace,"
            + " controller_name, job, build_number, queued_at, started_at, last_sequence) VALUES ('uid-builds-0', ?,"
            + " ?, 'tenant-a', 'builds-0', 'payments/build', 1, ?, ?, 2)", RUN_ID, BffStack.CLUSTER,
            Timestamp.from(started), Timestamp.from(started)))
        .on("run-ended", () -> database.execute("UPDATE runs SET result = 'SUCCESS', completed_at = ?,"
            + " duration_millis = 62000, last_sequence = 5 WHERE run_id = ?", Timestamp.from(started.plusSeconds(62)),
            RUN_ID));
    withSilentMember(() -> passes(script.run("pipelines.mjs")));
  }

  @Test
  void aTenantSeesOnlyItsOwnTeamsPipelines() throws Exception {
    withSilentMember(() -> passes(script("bob", "pipelines-tenant", "east/tenant-b/data/build,"
        + "eu-1/tenant-b/mobile/build", "eu-1/tenant-a/orders/build,eu-1/tenant-a/payments/build", "")
        .run("pipelines.mjs")));
  }

  private static void withSilentMember(BrowserScript.Step body) throws Exception {
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put(SILENT_MEMBER, ClusterPresence.newBuilder()
        .setName(SILENT_MEMBER).setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build()
        .toByteArray());
    try {
      body.run();
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete(SILENT_MEMBER);
    }
  }

  private static BrowserScript script(String user, String shot, String rows, String hidden, String live) {
    Map<String, String> environment = new HashMap<>();
    environment.put("VARROA_E2E_URL", stack.url());
    environment.put("VARROA_E2E_USER", user);
    environment.put("VARROA_E2E_PASSWORD", BffFixtures.password(user));
    environment.put("VARROA_E2E_SCREENSHOTS", DashboardBrowserIT.SCREENSHOTS.toString());
    environment.put("VARROA_E2E_SILENT_CLUSTER", SILENT_MEMBER);
    environment.put("VARROA_E2E_PIPELINES", rows);
    environment.put("VARROA_E2E_HIDDEN_PIPELINES", hidden);
    environment.put("VARROA_E2E_LIVE", live);
    environment.put("VARROA_E2E_SHOT", shot);
    return new BrowserScript(environment);
  }

  private static void passes(BrowserScript.Outcome outcome) {
    assertThat(outcome.exitCode()).as("%s", outcome).isZero();
    assertThat(outcome.output()).as("%s", outcome).anyMatch(line -> line.startsWith("ok: "));
  }
}

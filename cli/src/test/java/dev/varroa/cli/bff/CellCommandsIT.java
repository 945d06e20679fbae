package dev.varroa.cli.bff;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.cli.VarroactlRun;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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
 * varroactl get cellpools and get teams against a real BFF in front of two clusters (two API servers, an operator
 * each), NATS and an OpenID provider: both clusters' rows, --cluster, -o wide and json, a tenant-scoped user who sees
 * only its namespace, a user without a binding refused, and a cluster whose list did not arrive named on stderr.
 */
@WithKubeApiServer
class CellCommandsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MEMBER = "east";

  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static VarroaOperator member;
  private static final Map<String, Map<String, String>> ENV = new HashMap<>();

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path cache, @TempDir Path memberCache, @TempDir Path configs)
      throws Exception {
    KubernetesClient coreClient = core.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    BffFixtures.namespaces(coreClient, "tenant-a", "tenant-b");
    BffFixtures.namespaces(memberClient, "tenant-b");
    BffFixtures.readerRole(coreClient);
    BffFixtures.binding(coreClient, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(coreClient, "bob-reads-tenant-b", "reader", "User", "bob", "tenant-b");
    CellFixtures.pool(coreClient, "tenant-a", "builds", 4, List.of(List.of("payments", "orders"), List.of()));
    CellFixtures.team(coreClient, "tenant-a", "late", "builds", null);
    CellFixtures.pool(memberClient, "tenant-b", "ci-east", 2, List.of(List.of("data", "ml")));

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(coreClient, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(memberCache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    for (String name : List.of("alice", "bob", "dave")) {
      ENV.put(name, Map.of("XDG_CONFIG_HOME", configs.resolve(name).toString()));
      Path token = configs.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken() + "\n");
      assertThat(varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString()).exitCode())
          .isZero();
    }
    await().atMost(DEADLINE).until(() -> {
      String out = varroactl("alice", "get", "teams").out();
      return out.contains("ci-east-0") && out.contains("builds-0") && out.contains("Pending");
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
  void cellPoolsOfBothClustersWithLoadAndTheirCellsInWide() throws Exception {
    VarroactlRun pools = varroactl("alice", "get", "cellpools");
    assertThat(pools.exitCode()).as(pools.err()).isZero();
    assertThat(pools.out().lines().findFirst().orElseThrow()).startsWith("CLUSTER").contains("LOAD");
    assertThat(pools.out()).containsPattern("east +tenant-b +ci-east +1 +1 +2 +100% +0 ")
        .containsPattern("eu-1 +tenant-a +builds +2 +2 +2 +25% +1 ");
    assertThat(varroactl("alice", "get", "cellpools", "-o", "wide").out())
        .contains("builds-0=Connected:2/4,builds-1=Connected:0/4");
    VarroactlRun east = varroactl("alice", "get", "cellpools", "--cluster", MEMBER);
    assertThat(east.out()).contains("ci-east").doesNotContain("builds");
    VarroactlRun json = varroactl("alice", "get", "cellpools", "-o", "json");
    assertThat(JSON.readTree(json.out()).path("pools").size()).isEqualTo(2);
  }

  @Test
  void teamsWithPoolCellAndPhase() {
    VarroactlRun teams = varroactl("alice", "get", "teams");
    assertThat(teams.exitCode()).as(teams.err()).isZero();
    assertThat(teams.out()).containsPattern("east +tenant-b +data +ci-east +ci-east-0 +Placed +1 ")
        .containsPattern("eu-1 +tenant-a +late +builds +- +Pending +1 ");
    assertThat(varroactl("alice", "get", "teams", "-o", "wide").out()).contains("every cell of pool builds is full");
    assertThat(varroactl("alice", "get", "teams", "--pool", "ci-east").out()).contains("data").contains("ml")
        .doesNotContain("payments");
  }

  @Test
  void pipelinesOfEveryTeamWithCellKindAndTheTenantsOwnOnly() {
    VarroactlRun pipelines = varroactl("alice", "get", "pipelines");
    assertThat(pipelines.exitCode()).as(pipelines.err()).isZero();
    assertThat(pipelines.out().lines().findFirst().orElseThrow()).startsWith("CLUSTER").contains("LAST-RESULT")
        .contains("NEXT-RUN");
    assertThat(pipelines.out()).containsPattern("east +tenant-b +data +build +ci-east-0 +unknown +- +- *\\R")
        .containsPattern("eu-1 +tenant-a +payments +build +builds-0 +pipeline +- +- *\\R")
        .containsPattern("eu-1 +tenant-a +late +build +- +pipeline ");
    assertThat(varroactl("alice", "get", "pipelines", "--cluster", MEMBER, "-o", "wide").out())
        .contains("data/build").contains("https://git.example/data/app.git").doesNotContain("payments");
    VarroactlRun bob = varroactl("bob", "get", "pipelines");
    assertThat(bob.out()).contains("data").contains("ml").doesNotContain("payments");
    VarroactlRun none = varroactl("bob", "get", "pipelines", "-n", "tenant-a");
    assertThat(none.exitCode()).isZero();
    assertThat(none.err()).contains("No pipelines found in namespace tenant-a.");
    VarroactlRun refused = varroactl("dave", "get", "pipelines");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("list pipelines");
  }

  @Test
  void aTenantScopedUserSeesOnlyItsNamespaceAndNoBindingIsRefused() {
    VarroactlRun pools = varroactl("bob", "get", "cellpools");
    assertThat(pools.exitCode()).as(pools.err()).isZero();
    assertThat(pools.out()).contains("ci-east").doesNotContain("builds");
    assertThat(varroactl("bob", "get", "teams").out()).contains("data").doesNotContain("payments")
        .doesNotContain("late");
    VarroactlRun none = varroactl("bob", "get", "teams", "-n", "tenant-a");
    assertThat(none.exitCode()).isZero();
    assertThat(none.err()).contains("No teams found in namespace tenant-a.");
    VarroactlRun refused = varroactl("dave", "get", "cellpools");
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.err()).contains("list cellpools");
  }

  @Test
  void aClusterWhoseListDidNotArriveIsAWarning() throws Exception {
    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      for (String kind : List.of("cellpools", "teams", "pipelines")) {
        VarroactlRun partial = varroactl("alice", "get", kind);
        assertThat(partial.exitCode()).isZero();
        assertThat(partial.out()).contains("ci-east");
        assertThat(partial.err()).contains("warning: cluster eu-2: list unavailable");
      }
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(ENV.get(user), args);
  }
}

package dev.varroa.cli.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.cli.VarroactlRun;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.CellFixtures;
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
 * varroactl scale cellpool from the core, against a real BFF in front of two clusters (two API servers, an operator
 * each), NATS and an OpenID provider: the pool found by name on the member, spec.replicas written there, a name in two
 * places refused unless --cluster says which, a tenant's update permission limited to its namespace, bad replicas
 * refused as invalid input.
 */
@WithKubeApiServer
class ScaleCellPoolCommandIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String MEMBER = "east";

  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient coreClient;
  private static KubernetesClient memberClient;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static VarroaOperator member;
  private static final Map<String, Map<String, String>> ENV = new HashMap<>();

  @BeforeAll
  static void start(KubeApiServer core, @TempDir Path cache, @TempDir Path memberCache, @TempDir Path configs)
      throws Exception {
    coreClient = core.client();
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
    CellFixtures.pool(memberClient, "tenant-b", "ci-east", 2, List.of(List.of("data")));
    CellFixtures.pool(memberClient, "tenant-a", "builds", 4, List.of(List.of("payments")));
    // the same name on both clusters: only --cluster tells them apart
    CellFixtures.pool(coreClient, "tenant-a", "shared", 4, List.of(List.of("orders")));
    CellFixtures.pool(memberClient, "tenant-a", "shared", 4, List.of(List.of("search")));

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(coreClient, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    member = new VarroaOperator(memberClient, OperatorSettings.defaults(memberCache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC()).withoutBroodReconcilers()
        .withoutCellReconcilers();
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    for (String name : List.of("alice", "bob")) {
      ENV.put(name, Map.of("XDG_CONFIG_HOME", configs.resolve(name).toString()));
      Path token = configs.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken() + "\n");
      assertThat(varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString()).exitCode())
          .isZero();
    }
    await().atMost(DEADLINE).until(() -> varroactl("alice", "get", "cellpools").out().contains("ci-east"));
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
  void scalesThePoolOnTheClusterThatHoldsIt() {
    VarroactlRun scale = varroactl("alice", "scale", "cellpool", "ci-east", "--replicas", "3");
    assertThat(scale.exitCode()).as(scale.err()).isZero();
    assertThat(scale.out()).contains("CellPool tenant-b/ci-east in cluster east scaled from 1 to 3");
    assertThat(replicas(memberClient, "tenant-b", "ci-east")).isEqualTo(3);
    // the command the Cells page offers, with --cluster
    VarroactlRun copied = varroactl("alice", "scale", "cellpool", "ci-east", "--replicas", "2", "--cluster", MEMBER);
    assertThat(copied.exitCode()).as(copied.err()).isZero();
    assertThat(replicas(memberClient, "tenant-b", "ci-east")).isEqualTo(2);
  }

  @Test
  void aNameInTwoClustersNeedsTheCluster() {
    VarroactlRun ambiguous = varroactl("alice", "scale", "cellpool", "shared", "--replicas", "2");
    assertThat(ambiguous.exitCode()).isEqualTo(2);
    assertThat(ambiguous.err()).contains("CellPool shared exists 2 times").contains("give --cluster and -n");
    VarroactlRun core = varroactl("alice", "scale", "cellpool", "shared", "--replicas", "2", "--cluster",
        BffStack.CLUSTER);
    assertThat(core.exitCode()).as(core.err()).isZero();
    assertThat(replicas(coreClient, "tenant-a", "shared")).isEqualTo(2);
    assertThat(replicas(memberClient, "tenant-a", "shared")).isEqualTo(1);
  }

  @Test
  void aTenantScalesItsOwnNamespaceOnly() {
    VarroactlRun hidden = varroactl("bob", "scale", "cellpool", "builds", "--replicas", "5");
    assertThat(hidden.exitCode()).isEqualTo(1);
    assertThat(hidden.err()).contains("CellPool builds not found in any cluster");
    VarroactlRun named = varroactl("bob", "scale", "cellpool", "builds", "--replicas", "5", "--cluster", MEMBER,
        "-n", "tenant-a");
    assertThat(named.exitCode()).isEqualTo(1);
    assertThat(replicas(memberClient, "tenant-a", "builds")).isEqualTo(1);
  }

  @Test
  void replicasOutOfRangeAreInvalidInput() {
    VarroactlRun negative = varroactl("alice", "scale", "cellpool", "builds", "--replicas", "501");
    assertThat(negative.exitCode()).isEqualTo(2);
    assertThat(negative.err()).contains("give 0 to 500");
    assertThat(varroactl("alice", "scale", "cellpool", "builds").exitCode()).as("--replicas is required")
        .isEqualTo(2);
  }

  private static int replicas(KubernetesClient client, String namespace, String name) {
    return client.resources(CellPool.class).inNamespace(namespace).withName(name).get().getSpec().replicas;
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(ENV.get(user), args);
  }
}

package dev.varroa.cli.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.cli.VarroactlRun;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.identity.IssuerEndpoints;
import dev.varroa.dashboard.identity.OidcSettings;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.access.AccessPolicyPublisher;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.render.naming.ControllerLabels;
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
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroactl drain cluster against a real BFF, the member's operator, API server, NATS and OpenID provider: what it
 * says before it asks, an unconfirmed drain, its exit codes (403: 1, the core and nothing to cancel: 3), a confirmed
 * drain followed to Drained with varroactl get clusters, and a retry with the same request id.
 */
@WithKubeApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrainCommandIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String CORE = "eu-1";
  private static final String MEMBER = "east";

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static AccessPolicyPublisher policy;
  private static VarroaOperator member;
  private static BffServer bff;
  private static final Map<String, Map<String, String>> ENV = new HashMap<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache, @TempDir Path configs) throws Exception {
    client = kube.client();
    BffFixtures.namespaces(client, "team-a");
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
    BffFixtures.create(client, "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: fast}\n"
        + "provisioner: test.varroa.dev/none\nreclaimPolicy: Delete\n", StorageClass.class);
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.create(client, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: jenkins-home-orders-0,"
        + " namespace: team-a, labels: {" + ControllerLabels.CONTROLLER + ": " + ControllerLabels.value("orders")
        + "}}\nspec: {accessModes: [ReadWriteOnce], storageClassName: fast, resources: {requests: {storage: 1Gi}}}\n",
        PersistentVolumeClaim.class);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    policy = new AccessPolicyPublisher(() -> operatorBus, client, Clock.systemUTC());
    policy.start();
    member = new VarroaOperator(client, OperatorSettings.defaults(cache), null,
        new ActivityPublisher(() -> operatorBus, MEMBER, "operator", Clock.systemUTC()), Optional.empty(),
        Clock.systemUTC());
    member.start();
    member.registerCluster(MEMBER, ClusterRole.MEMBER, () -> operatorBus);
    OidcSettings oidc = BffStack.oidc(OIDC.provider(), PORT);
    bff = BffServer.start(PORT, new BffServer.Parts(() -> bffBus, () -> true, CORE, oidc,
        IssuerEndpoints.discover(oidc.issuer()), RecordReads.none(), LiveStreams::without,
        BffServer.McpMount.none()), Clock.systemUTC());
    for (String name : List.of("alice", "dave")) {
      ENV.put(name, Map.of("XDG_CONFIG_HOME", configs.resolve(name).toString()));
      Path token = configs.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken() + "\n");
      assertThat(varroactl(name, "login", "--server", bff.url(), "--token-file", token.toString()).exitCode())
          .isZero();
    }
    await().atMost(DEADLINE).until(() -> varroactl("alice", "get", "clusters").out().contains(MEMBER));
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {bff, member, policy, operatorBus, bffBus}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  @Order(1)
  void saysJenkinsHomeIsNotMigratedAndWhatTheReclaimPolicyDoesThenDeletesNothingUnconfirmed() {
    VarroactlRun run = withInput("no\n", () -> varroactl("alice", "drain", "cluster", MEMBER));

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.out()).contains("Draining cluster east deletes its 1 Controller")
        .contains("JENKINS_HOME is not migrated")
        .contains("team-a/orders: claim jenkins-home-orders-0 (StorageClass fast) - reclaim policy Delete: the"
            + " volume and its data are deleted")
        .contains("Type the cluster name (east) to drain it:");
    assertThat(run.err()).contains("not confirmed; nothing was drained");
    assertThat(client.resources(Controller.class).inNamespace("team-a").withName("orders").get()).isNotNull();
    assertThat(varroactl("alice", "get", "clusters").out()).doesNotContain("Draining");
  }

  @Test
  @Order(2)
  void refusalsExitAsKubectlsDo() {
    VarroactlRun denied = varroactl("dave", "drain", "cluster", MEMBER, "--yes");
    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.err()).contains("Error from server (Forbidden)")
        .contains("missing permission: drain clusters (cluster east)");

    VarroactlRun core = varroactl("alice", "drain", "cluster", CORE, "--yes");
    assertThat(core.exitCode()).isEqualTo(3);
    assertThat(core.err()).contains("Error from server (Conflict)").contains("is the core cluster");

    VarroactlRun nothing = varroactl("alice", "drain", "cluster", MEMBER, "--cancel");
    assertThat(nothing.exitCode()).isEqualTo(3);
    assertThat(nothing.err()).contains("is not draining");
  }

  @Test
  @Order(3)
  void aConfirmedDrainEndsDrainedInGetClustersAndARetryRunsNothing() {
    String id = UUID.randomUUID().toString();
    VarroactlRun run = withInput("east\n", () -> varroactl("alice", "drain", "cluster", MEMBER, "--request-id", id));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("cluster east: cluster east is draining: 1 Controllers to delete")
        .contains("Follow it with: varroactl get clusters");
    await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace("team-a").withName("orders")
        .get() == null);
    await().atMost(DEADLINE).until(() -> varroactl("alice", "get", "clusters").out().lines()
        .anyMatch(line -> line.startsWith(MEMBER + " ") && line.endsWith("Drained")));

    VarroactlRun retry = varroactl("alice", "drain", "cluster", MEMBER, "--yes", "--request-id", id);
    assertThat(retry.exitCode()).isZero();
    assertThat(retry.out()).contains("was already answered; nothing ran again");
  }

  private static VarroactlRun withInput(String typed, java.util.function.Supplier<VarroactlRun> run) {
    InputStream before = System.in;
    System.setIn(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)));
    try {
      return run.get();
    } finally {
      System.setIn(before);
    }
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(ENV.get(user), args);
  }
}

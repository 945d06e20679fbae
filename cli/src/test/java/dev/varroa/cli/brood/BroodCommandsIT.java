package dev.varroa.cli.brood;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.cli.VarroactlRun;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.BroodFixtures;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.nats.client.Connection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroactl broodop and broodschedule against a real BFF, operator, API server, NATS and OpenID provider: the list
 * and its warning for a cluster whose list did not arrive, one operation with every target's step and results,
 * create (and a file that is not a BroodOperation), pause, resume, cancel with their exit codes, a dry run that lists
 * the targets and leaves nothing behind, and the schedules. The engine is not running: the test writes the status
 * the engine would write.
 */
@WithKubeApiServer
class BroodCommandsIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("dave")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static Watch dryRunEngine;
  private static Path files;
  private static final Map<String, Map<String, String>> ENV = new HashMap<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache, @TempDir Path configs) throws Exception {
    client = kube.client();
    files = configs;
    BffFixtures.namespaces(client, "team-a");
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: brood-operator}
        spec:
          rules:
            - verbs: [create, update, delete]
              resources: [broodoperations]
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-reads", "reader", "User", "alice", null);
    BffFixtures.binding(client, "alice-runs-brood", "brood-operator", "User", "alice", null);
    BffFixtures.binding(client, "dave-reads", "reader", "User", "dave", null);
    BroodFixtures.running(client, BroodFixtures.operation(client, "team-a", "restart-wave", null,
        List.of("orders", "billing")), BffStack.CLUSTER);
    BroodFixtures.schedule(client, "team-a", "nightly", "Europe/Berlin");
    // what the engine does with a dry run: resolve the targets, write them with the steps, touch nothing
    dryRunEngine = client.resources(BroodOperation.class).inNamespace("team-a").watch(new Watcher<>() {
      @Override
      public void eventReceived(Action action, BroodOperation operation) {
        if (action == Action.ADDED && Boolean.TRUE.equals(operation.getSpec().dryRun)) {
          BroodFixtures.status(client, operation, status -> {
            status.phase = BroodOperationStatus.Phase.Succeeded;
            status.dryRun = true;
            status.steps = operation.getSpec().steps.stream().map(s -> s.type).toList();
            BroodOperationStatus.Counts counts = new BroodOperationStatus.Counts();
            counts.total = 2;
            status.counts = counts;
            for (String name : List.of("billing", "orders")) {
              BroodOperationStatus.Target target = new BroodOperationStatus.Target();
              target.cluster = BffStack.CLUSTER;
              target.namespace = "team-a";
              target.name = name;
              target.phase = BroodOperationStatus.TargetPhase.Pending;
              target.step = 0;
              status.targets.add(target);
            }
          });
        }
      }

      @Override
      public void onClose(WatcherException cause) {
      }
    });

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    for (String name : List.of("alice", "dave")) {
      ENV.put(name, Map.of("XDG_CONFIG_HOME", configs.resolve(name).toString()));
      Path token = configs.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken() + "\n");
      assertThat(varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString()).exitCode())
          .isZero();
    }
    await().atMost(DEADLINE).until(() -> varroactl("alice", "broodop", "list").out().contains("Running"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (dryRunEngine != null) {
      dryRunEngine.close();
    }
    for (AutoCloseable closeable : new AutoCloseable[] {stack, operatorBus, bffBus}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void listShowsProgressAndWarnsOfAClusterWhoseListDidNotArrive() throws Exception {
    VarroactlRun list = varroactl("alice", "broodop", "list");
    assertThat(list.exitCode()).as(list.err()).isZero();
    assertThat(list.out().lines().findFirst().orElseThrow()).startsWith("CLUSTER").contains("PROGRESS");
    assertThat(list.out()).containsPattern("eu-1 +team-a +restart-wave +Running +0/2 +0 +backup,safeRestart");

    BusTopology.ensureClusters(operatorBus);
    operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put("eu-2", ClusterPresence.newBuilder().setName("eu-2")
        .setRole("member").setRefreshedAtEpochMillis(System.currentTimeMillis()).build().toByteArray());
    try {
      VarroactlRun partial = varroactl("alice", "broodop", "list");
      assertThat(partial.exitCode()).isZero();
      assertThat(partial.out()).contains("restart-wave");
      assertThat(partial.err()).contains("warning: cluster eu-2: list unavailable");
      VarroactlRun schedules = varroactl("alice", "broodschedule", "get");
      assertThat(schedules.exitCode()).isZero();
      assertThat(schedules.err()).contains("warning: cluster eu-2: list unavailable");
      // the same line get controllers prints for that cluster
      assertThat(varroactl("alice", "get", "controllers").err())
          .contains("warning: cluster eu-2: list unavailable");
    } finally {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).delete("eu-2");
    }
  }

  @Test
  void getShowsEveryTargetWithItsStepAndResults() {
    VarroactlRun get = varroactl("alice", "broodop", "get", "restart-wave");
    assertThat(get.exitCode()).as(get.err()).isZero();
    assertThat(get.out()).contains("Name:       team-a/restart-wave").contains("Cluster:    eu-1")
        .contains("Phase:      Running").contains("Steps:      backup -> safeRestart")
        .contains("Targets:    2 (succeeded 0, failed 0, running 1");
    assertThat(get.out()).containsPattern(
        "eu-1 +team-a +orders +Running +2/2 safeRestart +backup:Succeeded safeRestart:Running +waiting for 1 running");
    assertThat(get.out()).containsPattern("eu-1 +team-a +billing +Pending +1/2 backup");
    VarroactlRun missing = varroactl("alice", "broodop", "get", "no-such-op");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("BroodOperation no-such-op not found in any cluster");
  }

  @Test
  void createPauseResumeAndCancelWithTheirExitCodes() throws Exception {
    Path manifest = files.resolve("wave.yaml");
    Files.writeString(manifest, """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: cli-wave, namespace: team-a}
        spec:
          targets: {namespaces: [team-a]}
          steps: [{type: reapplyConfiguration}]
        """);
    VarroactlRun created = varroactl("alice", "broodop", "create", "-f", manifest.toString());
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("BroodOperation team-a/cli-wave created in cluster eu-1")
        .contains("varroactl broodop get cli-wave --cluster eu-1 -n team-a");
    assertThat(operation("cli-wave").getSpec().dryRun).isNull();

    await().atMost(DEADLINE).until(() -> varroactl("alice", "broodop", "list").out().contains("cli-wave"));
    assertThat(varroactl("alice", "broodop", "pause", "cli-wave").exitCode()).isZero();
    assertThat(operation("cli-wave").getSpec().suspend).isTrue();
    VarroactlRun resumed = varroactl("alice", "broodop", "resume", "cli-wave", "--cluster", "eu-1", "-n", "team-a");
    assertThat(resumed.out()).contains("team-a/cli-wave resumed");
    assertThat(operation("cli-wave").getSpec().suspend).isFalse();

    VarroactlRun denied = varroactl("dave", "broodop", "cancel", "cli-wave");
    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.err()).contains("missing permission: update broodoperations (cluster eu-1, namespace team-a)");
    assertThat(operation("cli-wave").getSpec().cancel).isNull();

    assertThat(varroactl("alice", "broodop", "cancel", "cli-wave").exitCode()).isZero();
    assertThat(operation("cli-wave").getSpec().cancel).isTrue();
    VarroactlRun again = varroactl("alice", "broodop", "pause", "cli-wave");
    assertThat(again.exitCode()).as("a conflict").isEqualTo(3);
    assertThat(again.err()).contains("is cancelled");

    Path controller = files.resolve("controller.yaml");
    Files.writeString(controller, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: x}\nspec: {}\n");
    VarroactlRun wrong = varroactl("alice", "broodop", "create", "-f", controller.toString());
    assertThat(wrong.exitCode()).isEqualTo(2);
    assertThat(wrong.err()).contains("is a Controller (varroa.dev/v1alpha1), not a BroodOperation");
  }

  @Test
  void aDryRunListsTheTargetsAndStepsAndLeavesNothingBehind() throws Exception {
    Path manifest = files.resolve("dry.yaml");
    Files.writeString(manifest, """
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: dry-wave}
        spec:
          targets: {namespaces: [team-a], phases: [Connected]}
          steps: [{type: backup}, {type: safeRestart}]
        """);
    VarroactlRun dry = varroactl("alice", "broodop", "create", "-f", manifest.toString(), "-n", "team-a",
        "--dry-run", "--timeout", "60");
    assertThat(dry.exitCode()).as(dry.err()).isZero();
    assertThat(dry.out()).contains("Dry run: nothing was touched").contains("Phase:      Succeeded (dry run")
        .contains("Steps:      backup -> safeRestart");
    assertThat(dry.out()).containsPattern("eu-1 +team-a +billing +Pending +1/2 backup");
    assertThat(dry.out()).containsPattern("eu-1 +team-a +orders +Pending +1/2 backup");
    await().atMost(DEADLINE).until(() -> operation("dry-wave") == null);
  }

  @Test
  void broodscheduleGetShowsNextRunAndLastResult() {
    VarroactlRun get = varroactl("alice", "broodschedule", "get");
    assertThat(get.exitCode()).as(get.err()).isZero();
    assertThat(get.out()).containsPattern("eu-1 +team-a +nightly +0 2 \\* \\* \\* +Europe/Berlin +false"
        + " +2026-12-05T01:00:00Z +2026-12-04T01:00:00Z +Succeeded +0");
    assertThat(get.err()).contains("No job schedules: the build record store is not enabled.");
  }

  private static BroodOperation operation(String name) {
    return client.resources(BroodOperation.class).inNamespace("team-a").withName(name).get();
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(ENV.get(user), args);
  }
}

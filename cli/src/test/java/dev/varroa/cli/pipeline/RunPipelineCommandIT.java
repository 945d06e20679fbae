package dev.varroa.cli.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.cli.VarroactlRun;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.mcp.McpEndpoint;
import dev.varroa.dashboard.records.RecordedRuns;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroactl run pipeline against a real BFF (NATS, OpenID provider, a record store holding one run's console log),
 * with a subscriber playing the recorder: what an accepted run prints, --follow's log and exit code for each Jenkins
 * result, a run that never starts (failed, or still waiting at --timeout), --param values with '=', and the exit
 * codes of invalid input, a Team not placed and a caller without the permission.
 */
@WithKubeApiServer
class RunPipelineCommandIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String CLUSTER = BffStack.CLUSTER;
  /** Pipelines of the played Team and the result the played recorder reports for each. */
  private static final Map<String, String> RESULTS = Map.of("deploy", "SUCCESS", "broken", "FAILURE",
      "shaky", "UNSTABLE", "stopped", "ABORTED", "skipped", "NOT_BUILT");

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static Connection recorderBus;
  private static RecordedRuns records;
  private static BffStack stack;
  private static Path configs;
  private static final Map<String, ActionRequest> RECEIVED = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> STATUS_ASKED = new ConcurrentHashMap<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache, @TempDir Path configRoot) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "team-a", "tenant-a");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.readerRole(client);
    BffFixtures.create(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: pipeline-runner}
        spec:
          rules:
            - verbs: [trigger]
              resources: [pipelines]
        """, VarroaRole.class);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "alice-runs-tenant-a", "pipeline-runner", "User", "alice", "tenant-a");
    BffFixtures.binding(client, "bob-reads-all", "reader", "User", "bob", null);
    configs = configRoot;
    records = RecordedRuns.seed(POSTGRES.server(), cache);
    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    recorderBus = NATS.server().connect();
    playRecorder();
    stack = BffStack.start(client, cache.resolve("operator"), operatorBus, bffBus,
        BffStack.oidc(OIDC.provider(), PORT), PORT, records.reads,
        reads -> new LiveStreams(reads, Optional.empty(), Optional.of(records.logs)), McpEndpoint.mount(records.tail));
    for (String name : List.of("alice", "bob")) {
      Path token = configRoot.resolve(name + ".token");
      Files.writeString(token, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
      VarroactlRun login = varroactl(name, "login", "--server", stack.url(), "--token-file", token.toString());
      assertThat(login.exitCode()).as(login.err()).isZero();
    }
    // the policy is in and the core registered once alice sees its Controller
    await().atMost(DEADLINE).until(() -> varroactl("alice", "get", "controllers").out().contains("orders"));
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, records, operatorBus, bffBus, recorderBus}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  /**
   * Team tenant-a/payments is on cell cells/pool-0 and has the pipelines of RESULTS and "missing-job" (which the cell
   * does not have) and "slow" (whose cell never wakes); Team "waiting" is not placed. Every build that starts is the
   * recorded run with RecordedRuns.LOG; "deploy" is requested, then running, then finished, as a real one moves.
   */
  private static void playRecorder() throws Exception {
    Dispatcher dispatcher = recorderBus.createDispatcher();
    dispatcher.subscribe(BusNames.PIPELINE_RUNS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP, message -> {
      ActionRequest request;
      try {
        request = ActionRequest.parseFrom(message.getData());
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
      RECEIVED.put(request.getRequestId(), request);
      ActionResult.Builder result = ActionResult.newBuilder().setRequestId(request.getRequestId());
      if (request.getName().equals("waiting")) {
        result.setOutcome("refused").setMessage("Team tenant-a/waiting is not placed on a cell: pool builds is full");
      } else {
        result.setOutcome("accepted").setCell("pool-0").setCellNamespace("cells")
            .setJob("tenant-a_payments/" + request.getPipeline()).setWake("woken");
      }
      recorderBus.publish(message.getReplyTo(), result.build().toByteArray());
    });
    dispatcher.subscribe(BusNames.PIPELINE_RUN_STATUS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP, message -> {
      String id;
      try {
        id = PipelineRunStatusRequest.parseFrom(message.getData()).getRequestId();
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException(e);
      }
      recorderBus.publish(message.getReplyTo(), status(id).build().toByteArray());
    });
    recorderBus.flush(DEADLINE);
  }

  private static PipelineRunStatus.Builder status(String id) {
    ActionRequest request = RECEIVED.get(id);
    PipelineRunStatus.Builder status = PipelineRunStatus.newBuilder().setRequestId(id);
    if (request == null) {
      return status;
    }
    status.setCluster(request.getCluster()).setNamespace(request.getNamespace()).setTeam(request.getName())
        .setPipeline(request.getPipeline()).setCellNamespace("cells").setCell("pool-0")
        .setJob("tenant-a_payments/" + request.getPipeline()).setWake("woken").setRequestedBy(request.getUser());
    int asked = STATUS_ASKED.computeIfAbsent(id, i -> new AtomicInteger()).incrementAndGet();
    String pipeline = request.getPipeline();
    if (pipeline.equals("missing-job")) {
      return status.setState("failed").setMessage("cell cells/pool-0 has no job tenant-a_payments/missing-job"
          + " (Jenkins answered 404)");
    }
    if (pipeline.equals("slow") || (pipeline.equals("deploy") && asked == 1)) {
      return status.setState("requested").setMessage("waiting for cell cells/pool-0 to wake");
    }
    status.setRunId(RecordedRuns.ORDERS_RUN).setBuildNumber(7).setQueueId(12);
    if (pipeline.equals("deploy") && asked == 2) {
      return status.setState("running");
    }
    return status.setState("finished").setResult(RESULTS.get(pipeline));
  }

  @Test
  void anAcceptedRunPrintsItsRequestIdCellJobAndWake() {
    VarroactlRun run = varroactl("alice", "run", "pipeline", "payments/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER);
    assertThat(run.exitCode()).as(run.err()).isZero();
    String id = run.out().lines().filter(l -> l.startsWith("requestId:")).findFirst().orElseThrow()
        .substring("requestId:".length()).trim();
    assertThat(RECEIVED.get(id).getPipeline()).isEqualTo("deploy");
    assertThat(run.out()).contains("cell:      cells/pool-0").contains("job:       tenant-a_payments/deploy")
        .contains("wake:      woken").contains("team:      tenant-a/payments in cluster " + CLUSTER);
  }

  @Test
  void parametersKeepEveryEqualsSignAfterTheFirstAndTheRequestIdIsTheOneGiven() {
    String id = UUID.randomUUID().toString();
    VarroactlRun run = varroactl("alice", "run", "pipeline", "payments/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER, "--param", "OPTS=-Dx=1 -Dy=2", "--param", "EMPTY=", "--request-id", id);
    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(RECEIVED.get(id).getParametersMap()).containsExactlyInAnyOrderEntriesOf(Map.of("OPTS", "-Dx=1 -Dy=2",
        "EMPTY", ""));
  }

  @Test
  void followPrintsTheLogAndExitsWithTheBuildsResult() {
    List<String> seen = new ArrayList<>();
    for (Map.Entry<String, Integer> expected : Map.of("deploy", 0, "broken", 10, "shaky", 11, "stopped", 12,
        "skipped", 13).entrySet()) {
      VarroactlRun run = varroactl("alice", "run", "pipeline", "payments/" + expected.getKey(), "-n", "tenant-a",
          "--cluster", CLUSTER, "--follow");
      assertThat(run.exitCode()).as(expected.getKey() + ": " + run.err()).isEqualTo(expected.getValue());
      // stdout is the console log alone; what was accepted and the result are on stderr
      assertThat(run.out()).as(expected.getKey()).isEqualTo(RecordedRuns.LOG);
      assertThat(run.err()).contains("cell:      cells/pool-0").contains("result: " + RESULTS.get(expected.getKey()));
      seen.add(expected.getKey());
    }
    assertThat(seen).hasSize(5);
  }

  @Test
  void aRunThatNeverStartsExitsFourteenNamingTheRequestAndTheCell() {
    VarroactlRun failed = varroactl("alice", "run", "pipeline", "payments/missing-job", "-n", "tenant-a",
        "--cluster", CLUSTER, "--follow");
    assertThat(failed.exitCode()).as(failed.err()).isEqualTo(14);
    assertThat(failed.err()).contains("never started on cell cells/pool-0")
        .contains("has no job tenant-a_payments/missing-job");
    assertThat(failed.out()).isEmpty();

    String id = UUID.randomUUID().toString();
    VarroactlRun slow = varroactl("alice", "run", "pipeline", "payments/slow", "-n", "tenant-a", "--cluster",
        CLUSTER, "--follow", "--timeout", "2s", "--request-id", id);
    assertThat(slow.exitCode()).as(slow.err()).isEqualTo(14);
    assertThat(slow.err()).contains("pipeline run " + id + " never started on cell cells/pool-0")
        .contains("still requested (waiting for cell cells/pool-0 to wake)").contains("--timeout");
  }

  @Test
  void refusalsAndBadInputHaveTheirExitCodes() {
    VarroactlRun noEquals = varroactl("alice", "run", "pipeline", "payments/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER, "--param", "VERSION");
    assertThat(noEquals.exitCode()).isEqualTo(2);
    assertThat(noEquals.err()).contains("--param 'VERSION' is not NAME=VALUE");
    VarroactlRun noPipeline = varroactl("alice", "run", "pipeline", "payments", "-n", "tenant-a");
    assertThat(noPipeline.exitCode()).isEqualTo(2);
    VarroactlRun badId = varroactl("alice", "run", "pipeline", "payments/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER, "--request-id", "42");
    assertThat(badId.exitCode()).isEqualTo(2);
    VarroactlRun badTimeout = varroactl("alice", "run", "pipeline", "payments/deploy", "--timeout", "soon");
    assertThat(badTimeout.exitCode()).isEqualTo(2);

    VarroactlRun notPlaced = varroactl("alice", "run", "pipeline", "waiting/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER);
    assertThat(notPlaced.exitCode()).isEqualTo(3);
    assertThat(notPlaced.err()).contains("tenant-a/waiting is not placed");

    VarroactlRun bob = varroactl("bob", "run", "pipeline", "payments/deploy", "-n", "tenant-a", "--cluster",
        CLUSTER);
    assertThat(bob.exitCode()).isEqualTo(1);
    assertThat(bob.err()).contains("trigger pipelines");
  }

  private static VarroactlRun varroactl(String user, String... args) {
    return VarroactlRun.in(Map.of("XDG_CONFIG_HOME", configs == null ? "/nonexistent"
        : configs.resolve(user).toString()), args);
  }
}

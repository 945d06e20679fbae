package dev.varroa.dashboard.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.api.LiveStreams;
import dev.varroa.dashboard.mcp.McpEndpoint;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.v1.ActionRequest;
import dev.varroa.protocol.bus.v1.ActionResult;
import dev.varroa.protocol.bus.v1.PipelineRunStatus;
import dev.varroa.protocol.bus.v1.PipelineRunStatusRequest;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * POST /actions pipeline-run and GET /pipeline-runs/{id} through a real BFF, NATS and OpenID provider, with a
 * subscriber playing the recorder on varroa.recorder.pipeline-runs and .pipeline-run-status: trigger pipelines on the
 * Team's namespace required, the pipeline and parameters carried to the recorder, the cell and job answered, the
 * recorder's refusals mapped (not found 404, not placed 409), no recorder a 503, the audit naming parameters but
 * never their values, and the MCP tools on the same path.
 */
@WithKubeApiServer
class PipelineRunActionIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String CLUSTER = BffStack.CLUSTER;
  private static final String SECRET_LOOKING_VALUE = "value-that-must-not-be-audited";

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("bob"), BffFixtures.user("carol")), List.of(BffStack.redirectUri(PORT)));

  private static Connection operatorBus;
  private static Connection bffBus;
  private static Connection recorderBus;
  private static Connection watcher;
  private static Dispatcher recorder;
  private static BffStack stack;
  private static final Map<String, String> TOKENS = new HashMap<>();
  private static final Queue<ActivityEvent> ACTIVITY = new ConcurrentLinkedQueue<>();
  /** What the played recorder was sent, by request id. */
  private static final Map<String, ActionRequest> RECEIVED = new ConcurrentHashMap<>();

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    BffFixtures.namespaces(client, "tenant-a", "tenant-b");
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
    BffFixtures.binding(client, "alice-runs-tenant-a", "pipeline-runner", "User", "alice", "tenant-a");
    BffFixtures.binding(client, "bob-reads-all", "reader", "User", "bob", null);
    BffFixtures.binding(client, "carol-runs-tenant-b", "pipeline-runner", "User", "carol", "tenant-b");

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    recorderBus = NATS.server().connect();
    watcher = NATS.server().connect();
    watcher.createDispatcher(message -> {
      try {
        ACTIVITY.add(ActivityEvent.parseFrom(message.getData()));
      } catch (com.google.protobuf.InvalidProtocolBufferException e) {
        throw new IllegalStateException("not an ActivityEvent on " + message.getSubject(), e);
      }
    }).subscribe("activity.>");
    watcher.flush(DEADLINE);
    recorder = playRecorder();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT,
        RecordReads.none(), LiveStreams::without, McpEndpoint.mount());
    for (String name : List.of("alice", "bob", "carol")) {
      TOKENS.put(name, BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), name,
          BffFixtures.password(name)).idToken());
    }
    // the policy holds every binding and the core cluster is registered once bob lists it
    await().atMost(DEADLINE).until(() -> {
      HttpResponse<String> clusters = get("/clusters", "bob");
      HttpResponse<String> carol = get("/me", "carol");
      return clusters.statusCode() == 200 && clusters.body().contains(CLUSTER)
          && carol.body().contains("carol-runs-tenant-b") && get("/me", "alice").body().contains("alice-runs");
    });
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {stack, operatorBus, bffBus, recorderBus, watcher}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  /**
   * The recorder's side of the two subjects: payments/deploy is accepted on cell cells/pool-0, a pipeline the Team
   * does not have is refused as not found, Team "waiting" is not placed; a status names what was accepted.
   */
  private static Dispatcher playRecorder() throws Exception {
    Dispatcher dispatcher = recorderBus.createDispatcher();
    dispatcher.subscribe(BusNames.PIPELINE_RUNS_SUBJECT, BusNames.RECORDER_QUEUE_GROUP, message -> {
      ActionRequest request = parse(message);
      RECEIVED.put(request.getRequestId(), request);
      ActionResult.Builder result = ActionResult.newBuilder().setRequestId(request.getRequestId());
      if (request.getName().equals("waiting")) {
        result.setOutcome("refused").setMessage("Team " + request.getNamespace() + "/waiting is not placed on a cell:"
            + " every cell of pool builds is full");
      } else if (!request.getPipeline().equals("deploy")) {
        result.setOutcome("refused").setNotFound(true).setMessage("Team " + request.getNamespace() + "/"
            + request.getName() + " has no pipeline " + request.getPipeline() + "; its pipelines: deploy");
      } else {
        result.setOutcome("accepted").setMessage("queued for cell cells/pool-0").setCell("pool-0")
            .setCellNamespace("cells").setJob(request.getNamespace() + "_" + request.getName() + "/deploy")
            .setWake("woken");
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
      ActionRequest request = RECEIVED.get(id);
      PipelineRunStatus.Builder status = PipelineRunStatus.newBuilder().setRequestId(id);
      if (request != null && request.getPipeline().equals("deploy")) {
        status.setState("running").setCluster(request.getCluster()).setNamespace(request.getNamespace())
            .setTeam(request.getName()).setPipeline("deploy").setCellNamespace("cells").setCell("pool-0")
            .setJob(request.getNamespace() + "_" + request.getName() + "/deploy").setQueueId(42)
            .setRunId("run-" + id.substring(0, 8)).setBuildNumber(3).setRequestedBy(request.getUser())
            .setWake("woken");
      }
      recorderBus.publish(message.getReplyTo(), status.build().toByteArray());
    });
    recorderBus.flush(DEADLINE);
    return dispatcher;
  }

  private static ActionRequest parse(Message message) {
    try {
      return ActionRequest.parseFrom(message.getData());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalStateException("not an ActionRequest on " + message.getSubject(), e);
    }
  }

  @Test
  void anAuthorizedCallerIsAcceptedWithTheCellAndJobAndTheParametersReachTheRecorder() throws Exception {
    String id = UUID.randomUUID().toString();
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("VERSION", "1.4.2");
    parameters.put("NOTE", SECRET_LOOKING_VALUE);
    JsonNode accepted = json(post("alice", id, "tenant-a", "payments", "deploy", parameters), 200);
    assertThat(accepted.path("outcome").asText()).isEqualTo("accepted");
    assertThat(accepted.path("pipeline").asText()).isEqualTo("deploy");
    assertThat(accepted.path("cell").asText()).isEqualTo("pool-0");
    assertThat(accepted.path("cellNamespace").asText()).isEqualTo("cells");
    assertThat(accepted.path("job").asText()).isEqualTo("tenant-a_payments/deploy");
    assertThat(accepted.path("wake").asText()).isEqualTo("woken");
    assertThat(accepted.path("target").path("name").asText()).isEqualTo("payments");

    ActionRequest sent = RECEIVED.get(id);
    assertThat(sent.getVerb()).isEqualTo("pipeline-run");
    assertThat(sent.getCluster()).isEqualTo(CLUSTER);
    assertThat(sent.getNamespace()).isEqualTo("tenant-a");
    assertThat(sent.getName()).isEqualTo("payments");
    assertThat(sent.getPipeline()).isEqualTo("deploy");
    assertThat(sent.getParametersMap()).isEqualTo(parameters);
    assertThat(sent.getUser()).isEqualTo("alice");

    ActivityEvent audit = awaitAudit(id);
    assertThat(audit.getActor()).isEqualTo("alice");
    assertThat(audit.getAttributesMap()).containsEntry("verb", "pipeline-run").containsEntry("outcome", "accepted")
        .containsEntry("targetNamespace", "tenant-a").containsEntry("targetName", "payments")
        .containsEntry("pipeline", "deploy").containsEntry("parameters", "VERSION,NOTE");
    assertThat(audit.toString()).doesNotContain(SECRET_LOOKING_VALUE).doesNotContain("1.4.2");
  }

  @Test
  void aCallerWithoutTriggerPipelinesOnTheTeamsNamespaceIsForbiddenAndNothingIsSent() throws Exception {
    String bobs = UUID.randomUUID().toString();
    JsonNode reader = json(post("bob", bobs, "tenant-a", "payments", "deploy", Map.of()), 403);
    assertThat(reader.path("missing").path("verb").asText()).isEqualTo("trigger");
    assertThat(reader.path("missing").path("resource").asText()).isEqualTo("pipelines");
    assertThat(reader.path("missing").path("namespace").asText()).isEqualTo("tenant-a");
    assertThat(awaitAudit(bobs).getAttributesMap()).containsEntry("outcome", "denied");

    String carols = UUID.randomUUID().toString();
    JsonNode otherTenant = json(post("carol", carols, "tenant-a", "payments", "deploy", Map.of()), 403);
    assertThat(otherTenant.path("missing").path("resource").asText()).isEqualTo("pipelines");
    assertThat(RECEIVED).doesNotContainKeys(bobs, carols);
  }

  @Test
  void theRecordersRefusalsMapToNotFoundAndConflict() throws Exception {
    JsonNode missing = json(post("alice", UUID.randomUUID().toString(), "tenant-a", "payments", "nightly",
        Map.of()), 404);
    assertThat(missing.path("message").asText()).contains("has no pipeline nightly").contains("its pipelines: deploy");
    JsonNode waiting = json(post("alice", UUID.randomUUID().toString(), "tenant-a", "waiting", "deploy", Map.of()),
        409);
    assertThat(waiting.path("message").asText()).contains("tenant-a/waiting is not placed");
  }

  @Test
  void badPipelineFieldsAreRefusedNamingTheFieldBeforeAnythingIsSent() throws Exception {
    String id = UUID.randomUUID().toString();
    Map<String, Object> body = body(id, "tenant-a", "payments", "deploy");
    body.put("parameters", List.of("VERSION=1"));
    assertThat(json(send("alice", body), 400).path("field").asText()).isEqualTo("parameters");
    body.put("parameters", Map.of("VERSION", 3));
    assertThat(json(send("alice", body), 400).path("field").asText()).isEqualTo("parameters.VERSION");
    body.put("parameters", Map.of("has space", "x"));
    assertThat(json(send("alice", body), 400).path("field").asText()).isEqualTo("parameters.has space");
    body.remove("parameters");
    body.remove("pipeline");
    assertThat(json(send("alice", body), 400).path("field").asText()).isEqualTo("pipeline");
    Map<String, Object> scale = body(UUID.randomUUID().toString(), "tenant-a", "builds", "deploy");
    scale.put("verb", "cellpool-scale");
    scale.put("replicas", 2);
    JsonNode notForScale = json(send("alice", scale), 400);
    assertThat(notForScale.path("field").asText()).isEqualTo("pipeline");
    assertThat(notForScale.path("message").asText()).contains("only for pipeline-run");
    assertThat(RECEIVED).doesNotContainKey(id);
  }

  @Test
  void theStatusIsReadByWhoMayTriggerOrGetRunsThereAndAnUnknownIdIsNotFound() throws Exception {
    String id = UUID.randomUUID().toString();
    json(post("alice", id, "tenant-a", "payments", "deploy", Map.of()), 200);
    JsonNode status = json(get("/pipeline-runs/" + id, "alice"), 200);
    assertThat(status.path("requestId").asText()).isEqualTo(id);
    assertThat(status.path("state").asText()).isEqualTo("running");
    assertThat(status.path("team").asText()).isEqualTo("payments");
    assertThat(status.path("cellNamespace").asText()).isEqualTo("cells");
    assertThat(status.path("runId").asText()).isEqualTo("run-" + id.substring(0, 8));
    assertThat(status.path("buildNumber").asLong()).isEqualTo(3);
    assertThat(status.path("queueId").asLong()).isEqualTo(42);
    assertThat(status.path("requestedBy").asText()).isEqualTo("alice");
    // bob gets runs everywhere; carol triggers pipelines in tenant-b only
    assertThat(json(get("/pipeline-runs/" + id, "bob"), 200).path("state").asText()).isEqualTo("running");
    JsonNode carol = json(get("/pipeline-runs/" + id, "carol"), 403);
    assertThat(carol.path("message").asText()).contains("tenant-a/payments").contains("trigger pipelines");
    assertThat(json(get("/pipeline-runs/" + UUID.randomUUID(), "alice"), 404).path("message").asText())
        .contains("no pipeline run was requested with id");
    assertThat(json(get("/pipeline-runs/not-a-uuid", "alice"), 400).path("parameter").asText())
        .isEqualTo("requestId");
  }

  @Test
  void withoutARecorderTheRunIsUnavailableAndSaysWhy() throws Exception {
    recorderBus.closeDispatcher(recorder);
    recorderBus.flush(DEADLINE);
    try {
      JsonNode none = json(post("alice", UUID.randomUUID().toString(), "tenant-a", "payments", "deploy", Map.of()),
          503);
      assertThat(none.path("message").asText()).contains("no recorder answers varroa.recorder.pipeline-runs")
          .contains("is recordStore.enabled?");
    } finally {
      recorder = playRecorder();
    }
  }

  @Test
  void theMcpToolsRunAPipelineAndReadItsStatusOnTheSamePath() throws Exception {
    McpSyncClient alice = mcp("alice");
    try {
      McpSchema.CallToolResult run = alice.callTool(new McpSchema.CallToolRequest("run_pipeline", Map.of(
          "cluster", CLUSTER, "namespace", "tenant-a", "team", "payments", "pipeline", "deploy",
          "parameters", Map.of("VERSION", "2.0.0"))));
      assertThat(run.isError()).as(String.valueOf(run.content())).isFalse();
      JsonNode accepted = JSON.valueToTree(run.structuredContent());
      String id = accepted.path("requestId").asText();
      assertThat(accepted.path("cell").asText()).isEqualTo("pool-0");
      assertThat(accepted.path("job").asText()).isEqualTo("tenant-a_payments/deploy");
      assertThat(RECEIVED.get(id).getParametersMap()).containsExactlyEntriesOf(Map.of("VERSION", "2.0.0"));
      assertThat(awaitAudit(id).getAttributesMap()).containsEntry("verb", "pipeline-run")
          .containsEntry("parameters", "VERSION");

      McpSchema.CallToolResult status = alice.callTool(new McpSchema.CallToolRequest("get_pipeline_run",
          Map.of("requestId", id)));
      assertThat(status.isError()).as(String.valueOf(status.content())).isFalse();
      assertThat(JSON.valueToTree(status.structuredContent()).path("state").asText()).isEqualTo("running");

      McpSchema.CallToolResult elsewhere = alice.callTool(new McpSchema.CallToolRequest("run_pipeline", Map.of(
          "cluster", CLUSTER, "namespace", "tenant-b", "team", "mobile", "pipeline", "deploy")));
      assertThat(elsewhere.isError()).isTrue();
      assertThat(((McpSchema.TextContent) elsewhere.content().get(0)).text()).contains("trigger pipelines");
    } finally {
      alice.closeGracefully();
    }
  }

  private static McpSyncClient mcp(String user) {
    McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(stack.url())
        .endpoint(McpEndpoint.PATH)
        .requestBuilder(HttpRequest.newBuilder().header("Authorization", "Bearer " + TOKENS.get(user)))
        .build()).requestTimeout(Duration.ofSeconds(30)).build();
    client.initialize();
    return client;
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

  private static Map<String, Object> body(String id, String namespace, String team, String pipeline) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", id);
    body.put("verb", "pipeline-run");
    body.put("target", Map.of("cluster", CLUSTER, "namespace", namespace, "name", team));
    body.put("pipeline", pipeline);
    return body;
  }

  private static HttpResponse<String> post(String user, String id, String namespace, String team, String pipeline,
      Map<String, String> parameters) throws Exception {
    Map<String, Object> body = body(id, namespace, team, pipeline);
    body.put("parameters", parameters);
    return send(user, body);
  }

  private static HttpResponse<String> send(String user, Map<String, Object> body) throws Exception {
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

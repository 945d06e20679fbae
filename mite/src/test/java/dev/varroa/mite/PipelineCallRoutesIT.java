package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.util.JsonFormat;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.PipelineCallAnswer;
import dev.varroa.protocol.builds.v1.PipelineCallRequest;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.protocol.mite.v1.PipelineCallAsk;
import dev.varroa.protocol.mite.v1.PipelineCallReply;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cross-tenant step's loopback routes end to end: real HTTP on the loopback listener, a real mutual-TLS stream to
 * a {@link PlayedGateway} that answers pipeline calls only when the test says.
 */
class PipelineCallRoutesIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");
  private static final Duration SHORT_REPLY_WAIT = Duration.ofMillis(500);
  private static final JsonFormat.Printer JSON = JsonFormat.printer().omittingInsignificantWhitespace();

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private PlayedGateway gateway;
  private JenkinsFixture jenkins;
  private Mite mite;

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    OperatorTokens tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    gateway = new PlayedGateway(dir);
    gateway.storeIdentity(CONTROLLER, dir.resolve("identity"));
    gateway.jenkinsToken(tokens.mint());
    MiteSettings settings = new MiteSettings(CONTROLLER, "ci-0", List.of(gateway.endpoint()),
        dir.resolve("bootstrap/token"), gateway.caFile(), dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, SHORT_REPLY_WAIT,
        Duration.ofMillis(200));
    mite = Mite.start(settings);
    await().atMost(Duration.ofSeconds(20)).until(mite::connected);
  }

  @AfterEach
  void tearDown() throws Exception {
    if (mite != null) {
      mite.close();
    }
    gateway.close();
    jenkins.close();
  }

  @Test
  void forwardsTheCallOverTheStreamAndAnswersTheRecordersAnswer() throws Exception {
    gateway.answerPipelineCalls(ask -> Optional.of(PipelineCallReply.newBuilder().setRequestId(ask.getRequestId())
        .setAnswer(PipelineCallAnswer.newBuilder().setState(ask.getStatusOnly() ? "running" : "requested")
            .setCode("OK").setCluster("core").setNamespace("payments-ns").setTeam("payments").setPipeline("deploy")
            .setRunId(ask.getStatusOnly() ? "run-b" : ""))
        .build()));
    PipelineCallRequest call = call();

    HttpResponse<String> posted = post(call);

    assertThat(posted.statusCode()).isEqualTo(200);
    assertThat(answer(posted.body()).getState()).isEqualTo("requested");
    assertThat(answer(posted.body()).getNamespace()).isEqualTo("payments-ns");
    PipelineCallAsk asked = asks().get(0);
    assertThat(asked.getRequestId()).isNotEmpty();
    assertThat(asked.getCall()).isEqualTo(call);
    assertThat(asked.getStatusOnly()).isFalse();

    HttpResponse<String> status = get("/v1/pipeline-calls/" + call.getCallId(), true);

    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(answer(status.body()).getState()).isEqualTo("running");
    assertThat(answer(status.body()).getRunId()).isEqualTo("run-b");
    PipelineCallAsk question = asks().get(1);
    assertThat(question.getStatusOnly()).isTrue();
    assertThat(question.getCall()).isEqualTo(PipelineCallRequest.newBuilder().setCallId(call.getCallId()).build());
    assertThat(question.getRequestId()).isNotEqualTo(asked.getRequestId());
  }

  @Test
  void answers504WithAnEmptyStateWhenNoAnswerComesWithinTheBudget() throws Exception {
    HttpResponse<String> expired = post(call());

    assertThat(expired.statusCode()).isEqualTo(504);
    PipelineCallAnswer empty = answer(expired.body());
    assertThat(empty.getState()).isEmpty();
    assertThat(empty.getCode()).isEqualTo("UNAVAILABLE");
    assertThat(empty.getMessage()).contains("VARROA_CLAIM_REPLY_WAIT", "same call id");
    assertThat(asks()).hasSize(1);
  }

  @Test
  void answers503AtOnceWhenTheStreamIsGone() throws Exception {
    gateway.close();
    await().atMost(Duration.ofSeconds(20)).until(() -> !mite.connected());

    HttpResponse<String> answer = post(call());

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer(answer.body()).getCode()).isEqualTo("UNAVAILABLE");
    assertThat(answer(answer.body()).getMessage()).contains("not connected");
  }

  @Test
  void refusesAMissingOrMalformedFieldWith400NamingItAndForwardsNothing() throws Exception {
    HttpResponse<String> noTeam = post(call().toBuilder().clearTeam().build());
    HttpResponse<String> noJob = post(call().toBuilder().clearJob().build());
    HttpResponse<String> noPipeline = post(call().toBuilder().clearPipeline().build());
    HttpResponse<String> badId = post(call().toBuilder().setCallId("call-1").build());
    HttpResponse<String> badPath = get("/v1/pipeline-calls/not-a-uuid", true);

    assertThat(List.of(noTeam, noJob, noPipeline, badId, badPath)).extracting(HttpResponse::statusCode)
        .containsOnly(400);
    assertThat(answer(noTeam.body()).getCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(answer(noTeam.body()).getMessage()).startsWith("team is empty");
    assertThat(answer(noJob.body()).getMessage()).startsWith("job is empty");
    assertThat(answer(noPipeline.body()).getMessage()).startsWith("pipeline is empty");
    assertThat(answer(badId.body()).getMessage()).startsWith("callId \"call-1\" is not a UUID");
    assertThat(answer(badPath.body()).getMessage()).contains("not-a-uuid", "is not a UUID");
    assertThat(asks()).isEmpty();
  }

  @Test
  void refusesARequestWithoutTheLoopbackTokenWith401() throws Exception {
    HttpResponse<String> posted = http.send(HttpRequest.newBuilder(url("/v1/pipeline-calls"))
        .POST(HttpRequest.BodyPublishers.ofString(JSON.print(call()))).build(), HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> asked = get("/v1/pipeline-calls/" + UUID.randomUUID(), false);

    assertThat(posted.statusCode()).isEqualTo(401);
    assertThat(asked.statusCode()).isEqualTo(401);
    assertThat(posted.headers().firstValue("WWW-Authenticate")).contains("Bearer");
    assertThat(asks()).isEmpty();
  }

  @Test
  void allowsOnlyPostOnTheCollectionAndGetOnACall() throws Exception {
    HttpResponse<String> getCollection = get("/v1/pipeline-calls", true);
    HttpResponse<String> postCall = http.send(request("/v1/pipeline-calls/" + UUID.randomUUID())
        .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(getCollection.statusCode()).isEqualTo(405);
    assertThat(getCollection.headers().firstValue("Allow")).contains("POST");
    assertThat(postCall.statusCode()).isEqualTo(405);
    assertThat(postCall.headers().firstValue("Allow")).contains("GET");
  }

  private static PipelineCallRequest call() {
    return PipelineCallRequest.newBuilder().setCallId(UUID.randomUUID().toString()).setRunId("run-a")
        .setJob("team-a_frontend/release").setTeam("payments").setPipeline("deploy").putParameters("VERSION", "1.4")
        .build();
  }

  private List<PipelineCallAsk> asks() {
    return gateway.received().stream().filter(MiteMessage::hasPipelineCall).map(MiteMessage::getPipelineCall)
        .toList();
  }

  private HttpResponse<String> post(PipelineCallRequest call) throws Exception {
    return http.send(request("/v1/pipeline-calls").POST(HttpRequest.BodyPublishers.ofString(JSON.print(call))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path, boolean withToken) throws Exception {
    HttpRequest.Builder request = withToken ? request(path) : HttpRequest.newBuilder(url(path));
    return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder request(String path) throws Exception {
    return HttpRequest.newBuilder(url(path)).header("Authorization", "Bearer "
        + Files.readString(dir.resolve("loopback/" + LoopbackToken.FILE_NAME)).strip());
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + mite.loopbackPort() + path);
  }

  private static PipelineCallAnswer answer(String json) throws Exception {
    PipelineCallAnswer.Builder answer = PipelineCallAnswer.newBuilder();
    JsonFormat.parser().merge(json, answer);
    return answer.build();
  }
}

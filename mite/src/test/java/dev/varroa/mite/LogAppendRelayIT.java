package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.JsonFormat;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.builds.v1.LogChunk;
import dev.varroa.protocol.builds.v1.LogChunkAck;
import dev.varroa.protocol.builds.v1.LogChunkBatch;
import dev.varroa.protocol.builds.v1.LogChunkBatchAck;
import dev.varroa.protocol.mite.v1.GatewayMessage;
import dev.varroa.protocol.mite.v1.LogAppend;
import dev.varroa.protocol.mite.v1.LogAppendAnswer;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /v1/logs} through the real mite over real HTTP and a real mutual-TLS stream. The gateway's side is a
 * {@link PlayedGateway}: the real gateway on this branch has no log writer yet (issue 12 builds it elsewhere), and
 * the relay's job (correlating answers by request id, 504, 503) is best pinned by a gateway the test controls.
 */
class LogAppendRelayIT {

  private static final ControllerIdentity CONTROLLER = new ControllerIdentity("team-a", "ci", "uid-1");
  private static final String PROTOBUF = "application/x-protobuf";

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private PlayedGateway gateway;
  private JenkinsFixture jenkins;
  private Mite mite;
  private GatewayEndpoint endpoint;

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    OperatorTokens tokens = OperatorTokens.forController(CONTROLLER, dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    gateway = new PlayedGateway(dir);
    gateway.storeIdentity(CONTROLLER, dir.resolve("identity"));
    gateway.jenkinsToken(tokens.mint());
    endpoint = gateway.endpoint();
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
  void forwardsTheBatchAndAnswersWithTheGatewaysAckInBinary() throws Exception {
    gateway.answerLogs(append -> Optional.of(answer(append, LogChunkAck.Result.STORED)));
    mite = connectedMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);
    LogChunkBatch batch = batch("run-a", 0, "Started by user admin\n", false);

    HttpResponse<byte[]> answer = postBinary(batch);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).contains(PROTOBUF);
    LogChunkBatchAck ack = LogChunkBatchAck.parseFrom(answer.body());
    assertThat(ack.getAcksList()).singleElement().satisfies(a -> {
      assertThat(a.getRunId()).isEqualTo("run-a");
      assertThat(a.getResult()).isEqualTo(LogChunkAck.Result.STORED);
      assertThat(a.getStoredThrough()).isEqualTo(22);
    });
    LogAppend forwarded = logAppends().get(0);
    assertThat(forwarded.getRequestId()).isNotEmpty();
    assertThat(forwarded.getBatch()).isEqualTo(batch);
  }

  @Test
  void matchesEachAnswerToItsRequestWhenTheGatewayAnswersOutOfOrder() throws Exception {
    Map<String, LogAppend> held = new ConcurrentHashMap<>();
    gateway.answerLogs(append -> {
      held.put(append.getBatch().getChunks(0).getRunId(), append);
      return Optional.empty();
    });
    mite = connectedMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);

    CompletableFuture<HttpResponse<byte[]>> first = postBinaryAsync(batch("run-a", 0, "aaaa", false));
    CompletableFuture<HttpResponse<byte[]>> second = postBinaryAsync(batch("run-b", 0, "bbbbbbbb", true));
    await().atMost(Duration.ofSeconds(10)).until(() -> held.size() == 2);
    gateway.send(GatewayMessage.newBuilder().setLogAppendAnswer(answer(held.get("run-b"), LogChunkAck.Result.STORED))
        .build());
    gateway.send(GatewayMessage.newBuilder().setLogAppendAnswer(answer(held.get("run-a"), LogChunkAck.Result.GAP))
        .build());

    LogChunkAck a = LogChunkBatchAck.parseFrom(first.get(10, TimeUnit.SECONDS).body()).getAcks(0);
    LogChunkAck b = LogChunkBatchAck.parseFrom(second.get(10, TimeUnit.SECONDS).body()).getAcks(0);
    assertThat(a.getRunId()).isEqualTo("run-a");
    assertThat(a.getResult()).isEqualTo(LogChunkAck.Result.GAP);
    assertThat(b.getRunId()).isEqualTo("run-b");
    assertThat(b.getResult()).isEqualTo(LogChunkAck.Result.STORED);
    assertThat(b.getComplete()).isTrue();
  }

  @Test
  void acceptsJsonAndAnswersInJson() throws Exception {
    gateway.answerLogs(append -> Optional.of(answer(append, LogChunkAck.Result.DUPLICATE)));
    mite = connectedMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);
    String json = JsonFormat.printer().print(batch("run-a", 0, "hello", false));

    HttpResponse<String> answer = http.send(loopback().header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type")).contains("application/json");
    LogChunkBatchAck.Builder ack = LogChunkBatchAck.newBuilder();
    JsonFormat.parser().merge(answer.body(), ack);
    assertThat(ack.getAcks(0).getResult()).isEqualTo(LogChunkAck.Result.DUPLICATE);
    assertThat(logAppends().get(0).getBatch().getChunks(0).getData().toStringUtf8()).isEqualTo("hello");
  }

  @Test
  void answers504AfterTheAppendWaitAndDropsTheLateAnswer() throws Exception {
    mite = connectedMite(Duration.ofMillis(500));

    HttpResponse<byte[]> expired = postBinary(batch("run-a", 0, "x", false));

    assertThat(expired.statusCode()).isEqualTo(504);
    assertThat(new String(expired.body(), StandardCharsets.UTF_8)).contains("VARROA_LOG_APPEND_WAIT");
    LogAppend late = logAppends().get(0);
    gateway.send(GatewayMessage.newBuilder().setLogAppendAnswer(answer(late, LogChunkAck.Result.STORED)).build());
    // the late answer went nowhere: the next request gets its own
    gateway.answerLogs(append -> Optional.of(answer(append, LogChunkAck.Result.DUPLICATE)));
    HttpResponse<byte[]> next = postBinary(batch("run-a", 0, "x", false));
    assertThat(LogChunkBatchAck.parseFrom(next.body()).getAcks(0).getResult()).isEqualTo(LogChunkAck.Result.DUPLICATE);
  }

  @Test
  void answers503WhenNoStreamIsUp() throws Exception {
    gateway.close();
    mite = startMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);

    HttpResponse<byte[]> answer = postBinary(batch("run-a", 0, "x", false));

    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(answer.headers().firstValue("Retry-After")).contains("1");
    assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("not connected to a gateway");
  }

  @Test
  void forgetsWaitingRequestsWhenTheStreamEndsAndAsksForAResend() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);
    CompletableFuture<HttpResponse<byte[]>> waiting = postBinaryAsync(batch("run-a", 0, "x", false));
    await().atMost(Duration.ofSeconds(10)).until(() -> logAppends().size() == 1);

    gateway.breakStream();

    HttpResponse<byte[]> answer = waiting.get(20, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(503);
    assertThat(new String(answer.body(), StandardCharsets.UTF_8)).contains("stream ended, resend");
  }

  @Test
  void refusesOversizedChunksAndUnknownContentTypes() throws Exception {
    mite = connectedMite(MiteSettings.DEFAULT_LOG_APPEND_WAIT);
    LogChunkBatch big = LogChunkBatch.newBuilder().addChunks(LogChunk.newBuilder().setRunId("run-a")
        .setData(ByteString.copyFrom(new byte[256 * 1024 + 1]))).build();

    assertThat(postBinary(big).statusCode()).isEqualTo(413);
    HttpResponse<String> text = http.send(loopback().header("Content-Type", "text/plain")
        .POST(HttpRequest.BodyPublishers.ofString("hello")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(text.statusCode()).isEqualTo(415);
    assertThat(text.body()).contains(PROTOBUF);
    HttpResponse<byte[]> noRun = postBinary(batch("", 0, "x", false));
    assertThat(noRun.statusCode()).isEqualTo(400);
    assertThat(logAppends()).isEmpty();
  }

  // ---- the world around the mite ----

  private Mite connectedMite(Duration appendWait) throws Exception {
    Mite started = startMite(appendWait);
    await().atMost(Duration.ofSeconds(20)).until(started::connected);
    return started;
  }

  private Mite startMite(Duration appendWait) throws Exception {
    MiteSettings settings = new MiteSettings(CONTROLLER, "ci-0", List.of(endpoint),
        dir.resolve("bootstrap/token"), gateway.caFile(), dir.resolve("identity"), jenkins.url(), dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(60),
        Duration.ofMinutes(10), 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT,
        Duration.ofMinutes(5)).withLogAppendWait(appendWait);
    return Mite.start(settings);
  }

  private List<LogAppend> logAppends() {
    return gateway.received().stream().filter(MiteMessage::hasLogAppend).map(MiteMessage::getLogAppend).toList();
  }

  private static LogChunkBatch batch(String runId, long offset, String text, boolean last) {
    return LogChunkBatch.newBuilder().addChunks(LogChunk.newBuilder().setRunId(runId).setJob("team/app")
        .setOffset(offset).setData(ByteString.copyFromUtf8(text)).setLast(last)).build();
  }

  /** What the gateway's writer would answer for a fresh store: every chunk lands (or the result the test names). */
  private static LogAppendAnswer answer(LogAppend append, LogChunkAck.Result result) {
    LogChunkBatchAck.Builder ack = LogChunkBatchAck.newBuilder();
    for (LogChunk chunk : append.getBatch().getChunksList()) {
      ack.addAcks(LogChunkAck.newBuilder().setRunId(chunk.getRunId()).setOffset(chunk.getOffset()).setResult(result)
          .setStoredThrough(chunk.getOffset() + chunk.getData().size()).setComplete(chunk.getLast()));
    }
    return LogAppendAnswer.newBuilder().setRequestId(append.getRequestId()).setAck(ack).build();
  }

  private HttpResponse<byte[]> postBinary(LogChunkBatch batch) throws Exception {
    return postBinaryAsync(batch).get(30, TimeUnit.SECONDS);
  }

  private CompletableFuture<HttpResponse<byte[]>> postBinaryAsync(LogChunkBatch batch) throws Exception {
    return http.sendAsync(loopback().header("Content-Type", PROTOBUF)
        .POST(HttpRequest.BodyPublishers.ofByteArray(batch.toByteArray())).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private HttpRequest.Builder loopback() throws Exception {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mite.loopbackPort() + "/v1/logs"))
        .header("Authorization", "Bearer " + Files.readString(dir.resolve("loopback/" + LoopbackToken.FILE_NAME)));
  }
}

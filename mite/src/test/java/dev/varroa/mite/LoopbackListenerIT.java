package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.http.StalledClients;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loopback listener's routes, token and drain over real HTTP, without a stream (claims find no gateway). */
class LoopbackListenerIT {

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newHttpClient();
  private final StopSignal stop = new StopSignal();
  private JenkinsFixture jenkins;
  private JenkinsClient client;
  private LoopbackListener listener;
  private String token;

  @BeforeEach
  void setUp() throws Exception {
    jenkins = JenkinsFixture.start();
    OperatorTokens tokens = OperatorTokens.forController(new ControllerIdentity("team-a", "ci", "uid-1"), dir);
    jenkins.bearerTokenAccepted(tokens.accepted());
    JenkinsBearer bearer = new JenkinsBearer(Clock.systemUTC());
    bearer.update(tokens.mint());
    client = new JenkinsClient(jenkins.url(), bearer);
  }

  @AfterEach
  void tearDown() {
    stop.stop();
    if (listener != null) {
      listener.close();
    }
    jenkins.close();
  }

  private void listen(JenkinsClient jenkinsClient, Duration drainTimeout) throws Exception {
    LoopbackToken loopbackToken = LoopbackToken.writeNew(dir);
    token = Files.readString(dir.resolve(LoopbackToken.FILE_NAME));
    listener = new LoopbackListener(0, loopbackToken, new EventRetention(1024 * 1024, Clock.systemUTC()),
        new ClaimRelay(Duration.ofMillis(500)), new LogAppendRelay(Duration.ofMillis(500)),
        new PipelineCallRelay(Duration.ofMillis(500)), new BuildDrain(jenkinsClient, drainTimeout, stop, Clock.systemUTC()),
        Clock.systemUTC());
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + path));
  }

  private HttpResponse<String> post(String path, String body, String bearer) throws Exception {
    HttpRequest.Builder request = request(path).POST(HttpRequest.BodyPublishers.ofString(body));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void refusesEveryRouteWithoutTheToken() throws Exception {
    listen(client, Duration.ofSeconds(5));

    for (String path : new String[] {"/v1/events", "/v1/claim", "/drain", "/nope"}) {
      HttpResponse<String> none = post(path, "{}", null);
      assertThat(none.statusCode()).as(path).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer");
      assertThat(none.body()).startsWith("{\"error\":\"");
      assertThat(post(path, "{}", token + "x").statusCode()).as(path).isEqualTo(401);
    }
    assertThat(jenkins.quietingDown()).isFalse();
  }

  @Test
  void answersUnknownRoutesAndWrongMethods() throws Exception {
    listen(client, Duration.ofSeconds(5));

    assertThat(post("/v2/events", "{}", token).statusCode()).isEqualTo(404);
    for (String path : new String[] {"/v1/events", "/v1/claim", "/drain"}) {
      HttpResponse<String> get = http.send(request(path).header("Authorization", "Bearer " + token).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(get.statusCode()).as(path).isEqualTo(405);
      assertThat(get.headers().firstValue("Allow")).contains("POST");
    }
    assertThat(jenkins.quietingDown()).isFalse();
  }

  @Test
  void namesTheFieldAnEventLacks() throws Exception {
    listen(client, Duration.ofSeconds(5));

    HttpResponse<String> noSequence = post("/v1/events",
        "{\"events\":[{\"runId\":\"r1\",\"sequence\":\"1\",\"job\":\"a\"},{\"runId\":\"r1\",\"job\":\"a\"}]}", token);
    assertThat(noSequence.statusCode()).isEqualTo(400);
    assertThat(noSequence.body()).contains("events[1].sequence must be > 0");
    assertThat(post("/v1/events", "{\"events\":[{\"sequence\":\"1\",\"job\":\"a\"}]}", token).body())
        .contains("events[0].runId is empty");
    assertThat(post("/v1/events", "{\"events\":[{\"runId\":\"r\",\"sequence\":\"1\"}]}", token).body())
        .contains("events[0].job is empty");
    HttpResponse<String> garbage = post("/v1/events", "{\"events\":", token);
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(garbage.body()).contains("not an EventBatch");
  }

  @Test
  void answersAClaimWithoutRunIdAsInvalid() throws Exception {
    listen(client, Duration.ofSeconds(5));

    HttpResponse<String> answer = post("/v1/claim", "{\"job\":\"a\"}", token);

    assertThat(answer.statusCode()).isEqualTo(400);
    assertThat(answer.body()).contains("\"decision\":\"\"", "\"code\":\"INVALID_ARGUMENT\"", "runId is empty");
  }

  @Test
  void drainWaitsForAPipelineOnAOneOffExecutorWhileClaimsStillAnswer() throws Exception {
    listen(client, Duration.ofMinutes(5));
    RunningBuild pipeline = jenkins.startBuild("deploy", true);

    CompletableFuture<HttpResponse<String>> drain = http.sendAsync(request("/drain")
        .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());

    await().atMost(Duration.ofSeconds(10)).until(jenkins::quietingDown);
    // the drain holds its thread; claims have their own and still answer (503: no gateway here)
    assertThat(post("/v1/claim", "{\"runId\":\"r\",\"job\":\"a\"}", token).statusCode()).isEqualTo(503);
    assertThat(drain).isNotDone();
    pipeline.finish();

    HttpResponse<String> answer = drain.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).startsWith("{\"buildsLeft\":0,").contains("\"timedOut\":false");
  }

  @Test
  void drainGivesUpAtTheDrainTimeout() throws Exception {
    listen(client, Duration.ofSeconds(1));
    jenkins.startBuild("long", false);

    HttpResponse<String> answer = post("/drain", "", token);

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body().strip()).matches("\\{\"buildsLeft\":1,\"waitedSeconds\":[0-9]+,\"timedOut\":true}");
  }

  @Test
  void drainReturnsAtOnceWhenJenkinsIsGone() throws Exception {
    listen(new JenkinsClient(ClosedPort.jenkinsUrl(), new JenkinsBearer(Clock.systemUTC())), Duration.ofMinutes(5));

    HttpResponse<String> answer = post("/drain", "", token);

    assertThat(answer.body()).startsWith("{\"buildsLeft\":0,\"waitedSeconds\":0,\"timedOut\":false}");
  }

  @Test
  void answersWhileClientsHoldHalfSentRequestsAndCutsThemOff() throws Exception {
    listen(client, Duration.ofSeconds(5));
    String halfHeaders = "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n";

    try (StalledClients stalled = StalledClients.open(listener.port(), LoopbackListener.LIMITS.threads() - 1,
        halfHeaders)) {
      assertThat(post("/v1/events", "{}", null).statusCode()).isEqualTo(401);
      await().atMost(LoopbackListener.LIMITS.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
  }

  @Test
  void cutsOffAnEventBatchWhoseBodyStops() throws Exception {
    listen(client, Duration.ofSeconds(5));
    String halfBody = "POST /v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
        + "\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"events\":[";

    try (StalledClients stalled = StalledClients.open(listener.port(), 1, halfBody)) {
      await().atMost(LoopbackListener.LIMITS.bodyIdleTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
    assertThat(post("/v1/events", "{\"events\":[]}", token).statusCode()).isEqualTo(200);
  }

}

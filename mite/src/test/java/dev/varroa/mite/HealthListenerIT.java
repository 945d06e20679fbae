package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The kubelet's calls (startup probe, preStop drain) against the Jenkins contract fixture. */
class HealthListenerIT {

  @TempDir
  Path dir;

  private final HttpClient http = HttpClient.newHttpClient();
  private final StopSignal stop = new StopSignal();
  private JenkinsFixture jenkins;
  private JenkinsClient client;
  private HealthListener listener;

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

  private HttpResponse<String> call(String method, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersReadyOnlyOnceReady() throws Exception {
    AtomicBoolean ready = new AtomicBoolean();
    listener = new HealthListener(0, ready::get, new BuildDrain(client, Duration.ofSeconds(5), stop, Clock.systemUTC()));

    assertThat(call("GET", "/readyz").statusCode()).isEqualTo(503);
    assertThat(call("GET", "/healthz").statusCode()).isEqualTo(200);
    ready.set(true);
    assertThat(call("GET", "/readyz").statusCode()).isEqualTo(200);
    assertThat(call("GET", "/nope").statusCode()).isEqualTo(404);
    assertThat(call("DELETE", "/drain").statusCode()).isEqualTo(405);
  }

  @Test
  void drainWaitsForAPipelineOnAOneOffExecutor() throws Exception {
    listener = new HealthListener(0, () -> true,
        new BuildDrain(client, Duration.ofMinutes(5), stop, Clock.systemUTC()));
    RunningBuild pipeline = jenkins.startBuild("deploy", true);

    CompletableFuture<HttpResponse<String>> drain = http.sendAsync(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + "/drain")).GET().build(),
        HttpResponse.BodyHandlers.ofString());

    await().atMost(Duration.ofSeconds(10)).until(jenkins::quietingDown);
    // the probes keep answering while the drain holds its request
    assertThat(call("GET", "/healthz").statusCode()).isEqualTo(200);
    assertThat(drain).isNotDone();
    pipeline.finish();

    HttpResponse<String> answer = drain.get(30, TimeUnit.SECONDS);
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).startsWith("{\"buildsLeft\":0,").contains("\"timedOut\":false");
  }

  @Test
  void drainGivesUpAtTheDrainTimeout() throws Exception {
    listener = new HealthListener(0, () -> true,
        new BuildDrain(client, Duration.ofSeconds(1), stop, Clock.systemUTC()));
    jenkins.startBuild("long", false);

    HttpResponse<String> answer = call("POST", "/drain");

    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body().strip()).matches("\\{\"buildsLeft\":1,\"waitedSeconds\":[0-9]+,\"timedOut\":true}");
  }

  @Test
  void drainReturnsAtOnceWhenJenkinsIsGone() throws Exception {
    listener = new HealthListener(0, () -> true, new BuildDrain(new JenkinsClient(ClosedPort.jenkinsUrl(),
        new JenkinsBearer(Clock.systemUTC())), Duration.ofMinutes(5), stop, Clock.systemUTC()));

    HttpResponse<String> answer = call("GET", "/drain");

    assertThat(answer.body()).startsWith("{\"buildsLeft\":0,\"waitedSeconds\":0,\"timedOut\":false}");
  }
}

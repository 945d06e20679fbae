package dev.varroa.operator.hooks;

import static dev.varroa.operator.hooks.FollowedObjects.catalogSource;
import static dev.varroa.operator.hooks.FollowedObjects.gitBundle;
import static dev.varroa.operator.hooks.FollowedObjects.ociBundle;
import static dev.varroa.operator.hooks.ProviderDeliveries.github;
import static dev.varroa.operator.hooks.ProviderDeliveries.githubPushBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.varroa.operator.hooks.ProviderDeliveries.Delivery;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.testfixtures.http.StalledClients;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The receiver over HTTP on loopback, with push targets that only record what they were asked. */
class WebhookReceiverTest {
  private static final String SECRET = "shared-webhook-secret";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final RecordingPushTargets targets = new RecordingPushTargets(
      List.of(gitBundle("team-a", "ssh://git@github.com/acme/bundles.git", "branch: main"),
          gitBundle("team-b", "https://github.com/acme/bundles", "branch: release"),
          ociBundle("team-c", "oci://registry.example.com/ci/bundles/team-c", "tag: stable")),
      List.of(catalogSource("platform", "git: {url: \"https://github.com/acme/bundles.git\", ref: {branch: main}}")));
  private final AtomicReference<String> secret = new AtomicReference<>(SECRET);
  private WebhookReceiver receiver;

  private WebhookReceiver start(WebhookSecret webhookSecret) throws IOException {
    // the registry's second re-check far away: each test counts the first re-checks only, but the one below
    receiver = WebhookReceiver.start(0, webhookSecret, targets, ListenerLimits.DELIVERIES, Clock.systemUTC(),
        Duration.ofHours(1));
    return receiver;
  }

  private WebhookReceiver start() throws IOException {
    return start(() -> WebhookSecret.of(secret.get()).current());
  }

  @AfterEach
  void stop() {
    if (receiver != null) {
      receiver.close();
    }
  }

  private HttpResponse<String> post(String path, Delivery delivery) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path))
        .POST(HttpRequest.BodyPublishers.ofByteArray(delivery.body()));
    delivery.headers().forEach((name, values) -> values.forEach(value -> request.header(name, value)));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private URI uri(String path) {
    return URI.create("http://127.0.0.1:" + receiver.port() + path);
  }

  private static JsonNode json(HttpResponse<String> response) throws IOException {
    return PayloadJson.MAPPER.readTree(response.body());
  }

  @Test
  void anAcceptedPushRechecksWhatFollowsItAndCountsThemWithoutNames() throws Exception {
    start();

    HttpResponse<String> response = post("/hooks/git", github("push", githubPushBody("refs/heads/main"), SECRET));

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(json(response).path("rechecked").path("composedBundles").asInt()).isEqualTo(1);
    assertThat(json(response).path("rechecked").path("catalogSources").asInt()).isEqualTo(1);
    assertThat(response.body()).doesNotContain("team-a", "platform", "ci/");
    assertThat(targets.rechecked).containsExactlyInAnyOrder("ComposedBundle ci/team-a", "CatalogSource ci/platform");
    assertThat(targets.reasons).allSatisfy(why -> assertThat(why)
        .isEqualTo("GitHub push to github.com/acme/bundles refs/heads/main; sources re-checked now"));
  }

  @Test
  void aPushRunsTheTeamPipelinesThatFollowItsBranchAndCountsThem() throws Exception {
    targets.teams.add(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: payments, namespace: tenant-a}
        spec:
          pool: shared
          pipelines:
            - {name: build, repository: "https://github.com/acme/bundles.git", triggers: {push: true}}
            - {name: nightly, repository: "https://github.com/acme/bundles.git", triggers: {cron: "H 2 * * *"}}
        """, dev.varroa.api.v1alpha1.Team.class));
    start();

    HttpResponse<String> response = post("/hooks/git", github("push", githubPushBody("refs/heads/main"), SECRET));
    HttpResponse<String> replayed = post("/hooks/git", github("push", githubPushBody("refs/heads/main"), SECRET));

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(json(response).path("rechecked").path("pipelines").asInt()).isEqualTo(1);
    assertThat(response.body()).doesNotContain("payments");
    assertThat(json(replayed).path("ignored").asText()).contains("already received");
    assertThat(targets.runs).containsExactly(
        "tenant-a/payments/build: GitHub push to github.com/acme/bundles refs/heads/main");
  }

  @Test
  void aBadOrMissingSignatureIs401AndRechecksNothing() throws Exception {
    start();
    Delivery forged = github("push", githubPushBody("refs/heads/main"), "not the secret");

    HttpResponse<String> wrong = post("/hooks/git", forged);
    HttpResponse<String> missing = post("/hooks/git", forged.without("X-Hub-Signature-256"));

    assertThat(wrong.statusCode()).isEqualTo(401);
    assertThat(json(wrong).path("error").asText()).contains("X-Hub-Signature-256 does not match");
    assertThat(missing.statusCode()).isEqualTo(401);
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void anUnknownEventIs202AndRechecksNothing() throws Exception {
    start();

    HttpResponse<String> response = post("/hooks/git", github("ping", "{\"zen\":\"Design for failure.\"}", SECRET));

    assertThat(response.statusCode()).isEqualTo(202);
    assertThat(json(response).path("ignored").asText()).contains("'ping' is not a push");
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void aBodyOverOneMebibyteIs413WithoutBeingRead() throws Exception {
    start();
    // Only the headers are sent: the announced length alone must be refused, before any body is read.
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), receiver.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /hooks/git HTTP/1.1\r\nHost: 127.0.0.1\r\nX-GitHub-Event: push\r\nContent-Type: application/json\r\n"
          + "Content-Length: " + (WebhookReceiver.MAX_BODY_BYTES + 1) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String statusLine = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      assertThat(statusLine).isEqualTo("HTTP/1.1 413");
    }
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void aChunkedBodyOverOneMebibyteIs413() throws Exception {
    start();
    byte[] oversized = new byte[WebhookReceiver.MAX_BODY_BYTES + 16];
    InputStream unknownLength = new ByteArrayInputStream(oversized);
    HttpRequest request = HttpRequest.newBuilder(uri("/hooks/git")).header("X-GitHub-Event", "push")
        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> unknownLength)).build();

    assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(413);
  }

  @Test
  void anotherMethodIs405AndAnotherPathIs404() throws Exception {
    start();

    HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(uri("/hooks/git")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> elsewhere = post("/hooks/gitlab", github("push", githubPushBody("refs/heads/main"), SECRET));

    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
    assertThat(elsewhere.statusCode()).isEqualTo(404);
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void malformedJsonIs400NamingWhatIsWrong() throws Exception {
    start();

    HttpResponse<String> response = post("/hooks/git", github("push", "{\"ref\":", SECRET));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response).path("error").asText()).startsWith("GitHub push: body is not valid JSON at line 1");
  }

  @Test
  void withoutASecretEveryDeliveryIs401() throws Exception {
    start(WebhookSecret.unset("VARROA_WEBHOOK_SECRET is not set"));

    HttpResponse<String> response = post("/hooks/git", github("push", githubPushBody("refs/heads/main"), SECRET));

    assertThat(response.statusCode()).isEqualTo(401);
    assertThat(response.body()).doesNotContain("VARROA_WEBHOOK_SECRET");
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void aRotatedSecretIsUsedFromTheNextDelivery() throws Exception {
    start();
    secret.set("rotated-secret");

    assertThat(post("/hooks/git", github("push", githubPushBody("refs/heads/main"), SECRET)).statusCode()).isEqualTo(401);
    assertThat(post("/hooks/git", github("push", githubPushBody("refs/heads/main"), "rotated-secret")).statusCode())
        .isEqualTo(202);
  }

  @Test
  void aRegistryNotificationWithTheBearerTokenRechecksTheTagFollower() throws Exception {
    start();
    String body = ProviderDeliveries.registryPushBody("registry.example.com", "ci/bundles/team-c", "stable",
        "sha256:" + "d".repeat(64));

    HttpResponse<String> refused = post("/hooks/registry", ProviderDeliveries.registry(body, "guess"));
    HttpResponse<String> accepted = post("/hooks/registry", ProviderDeliveries.registry(body, SECRET));

    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(accepted.statusCode()).isEqualTo(202);
    assertThat(json(accepted).path("rechecked").path("composedBundles").asInt()).isEqualTo(1);
    assertThat(accepted.body()).doesNotContain("team-c");
    assertThat(targets.rechecked).containsExactly("ComposedBundle ci/team-c");
  }

  @Test
  void aRegistryPushIsRecheckedOnceMoreOnceTheTagHadTimeToMove() throws Exception {
    receiver = WebhookReceiver.start(0, WebhookSecret.of(SECRET), targets, ListenerLimits.DELIVERIES,
        Clock.systemUTC(), Duration.ofMillis(200));
    String body = ProviderDeliveries.registryPushBody("registry.example.com", "ci/bundles/team-c", "stable",
        "sha256:" + "d".repeat(64));

    assertThat(post("/hooks/registry", ProviderDeliveries.registry(body, SECRET)).statusCode()).isEqualTo(202);

    await().atMost(Duration.ofSeconds(10)).until(() -> targets.rechecked.size() == 2);
    assertThat(targets.rechecked).containsExactly("ComposedBundle ci/team-c", "ComposedBundle ci/team-c");
  }

  @Test
  void aRegistryEnvelopeWithoutEventsIs400() throws Exception {
    start();

    HttpResponse<String> response = post("/hooks/registry", ProviderDeliveries.registry("{\"event\":[]}", SECRET));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(json(response).path("error").asText()).contains("field 'events' is missing");
  }

  @Test
  void aReplayedDeliveryIs202IgnoredAndRechecksNothing() throws Exception {
    start();
    Delivery delivery = github("push", githubPushBody("refs/heads/main"), SECRET);

    HttpResponse<String> first = post("/hooks/git", delivery);
    HttpResponse<String> replay = post("/hooks/git", delivery);

    assertThat(first.statusCode()).isEqualTo(202);
    assertThat(replay.statusCode()).isEqualTo(202);
    assertThat(json(replay).path("ignored").asText()).contains("already received");
    assertThat(targets.rechecked).containsExactlyInAnyOrder("ComposedBundle ci/team-a", "CatalogSource ci/platform");
  }

  @Test
  void aReplayUnderAFreshDeliveryIdIsRecognisedByItsSignedBody() throws Exception {
    start();
    Delivery delivery = github("push", githubPushBody("refs/heads/main"), SECRET);

    post("/hooks/git", delivery);
    HttpResponse<String> replay = post("/hooks/git", delivery.with("X-GitHub-Delivery", UUID.randomUUID().toString()));

    assertThat(json(replay).path("ignored").asText()).contains("already received");
    assertThat(targets.rechecked).hasSize(2);
  }

  @Test
  void aDeliveryIdSeenBeforeIsAReplayEvenWithAnotherBody() throws Exception {
    start();
    Delivery first = github("push", githubPushBody("refs/heads/main"), SECRET);
    String id = first.headers().getFirst("X-GitHub-Delivery");

    post("/hooks/git", first);
    HttpResponse<String> sameId = post("/hooks/git",
        github("push", githubPushBody("refs/heads/release"), SECRET).with("X-GitHub-Delivery", id));

    assertThat(json(sameId).path("ignored").asText()).contains("already received");
    assertThat(targets.rechecked).doesNotContain("ComposedBundle ci/team-b");
  }

  @Test
  void aRegistryEventIdSeenBeforeIsAReplay() throws Exception {
    start();
    String body = ProviderDeliveries.registryPushBody("registry.example.com", "ci/bundles/team-c", "stable",
        "sha256:" + "d".repeat(64));

    post("/hooks/registry", ProviderDeliveries.registry(body, SECRET));
    // the same event id again, with the envelope re-serialised: caught by the id, not the body
    HttpResponse<String> retried = post("/hooks/registry", ProviderDeliveries.registry(body + "\n", SECRET));

    assertThat(retried.statusCode()).isEqualTo(202);
    assertThat(json(retried).path("ignored").asText()).contains("already received");
    assertThat(targets.rechecked).containsExactly("ComposedBundle ci/team-c");
  }

  @Test
  void aClientThatStopsInItsHeadersIsCutOffWhileOthersAreAnswered() throws Exception {
    ListenerLimits limits = ListenerLimits.DELIVERIES.withRequestHeaderTime(Duration.ofSeconds(2));
    receiver = WebhookReceiver.start(0, () -> WebhookSecret.of(SECRET).current(), targets, limits, Clock.systemUTC(),
        Duration.ofHours(1));
    String halfHeaders = "POST /hooks/git HTTP/1.1\r\nHost: 127.0.0.1\r\nX-GitHub-Event: push\r\n";

    try (StalledClients stalled = StalledClients.open(receiver.port(), limits.threads() - 1, halfHeaders)) {
      assertThat(StalledClients.statusOf(uri("/hooks/git").toString(), Duration.ofSeconds(1))).isEqualTo(405);
      await().atMost(limits.requestHeaderTime().plusSeconds(2)).until(stalled::allClosedByServer);
    }
    assertThat(targets.rechecked).isEmpty();
  }

  @Test
  void aClientThatStopsInItsBodyIsCutOff() throws Exception {
    ListenerLimits limits = ListenerLimits.DELIVERIES.withBodyTime(Duration.ofSeconds(1), Duration.ofSeconds(5));
    receiver = WebhookReceiver.start(0, () -> WebhookSecret.of(SECRET).current(), targets, limits, Clock.systemUTC(),
        Duration.ofHours(1));
    String halfBody = "POST /hooks/git HTTP/1.1\r\nHost: 127.0.0.1\r\nX-GitHub-Event: push\r\n"
        + "Content-Length: 500\r\n\r\n{\"ref\":";

    try (StalledClients stalled = StalledClients.open(receiver.port(), limits.threads(), halfBody)) {
      await().atMost(Duration.ofSeconds(4)).until(stalled::allClosedByServer);
    }
    assertThat(StalledClients.statusOf(uri("/hooks/git").toString(), Duration.ofSeconds(1))).isEqualTo(405);
  }

  @Test
  void answersJson() throws Exception {
    start();

    HttpResponse<String> response = post("/hooks/git", github("push", githubPushBody("refs/heads/nobody"), SECRET));

    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(PayloadJson.MAPPER.convertValue(json(response), Map.class)).containsOnlyKeys("rechecked");
  }
}

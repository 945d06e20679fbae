package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffServer;
import dev.varroa.dashboard.BffStack;
import dev.varroa.dashboard.activity.BusFanout;
import dev.varroa.dashboard.http.LoginRateLimit;
import dev.varroa.dashboard.http.TrustedProxies;
import dev.varroa.dashboard.identity.ReturnPathTest;
import dev.varroa.dashboard.reads.DashboardReads;
import dev.varroa.dashboard.reads.RecordReads;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The BFF's doors (issue 24) over a real operator, API server, NATS JetStream and OpenID provider: where a login may
 * land, how many logins one address may start, nosniff on every answer, 500s without exception text, logout by POST
 * from this origin only, and live streams that end with the session or the binding that allowed them.
 */
@WithKubeApiServer
class BffHardeningIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final int LOGINS_PER_MINUTE = 10;
  /** What the failing record store's exception says: none of it may reach a client. */
  private static final String INTERNAL_DETAIL = "jdbc:postgresql://db.internal.example:5432/varroa password=hunter2";
  /** Each login of the return_to check comes "through the proxy" from its own address, so the cap stays out of it. */
  private static final AtomicInteger CLIENT = new AtomicInteger();

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user("alice"),
      BffFixtures.user("erin")), List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static BusFanout fanout;
  private static ActivityPublisher activity;
  private static BffStack stack;
  private static String aliceToken;
  private static String erinToken;

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    client = kube.client();
    BffFixtures.namespaces(client, "team-a");
    BffFixtures.controller(client, "team-a", "orders", Map.of());
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", "alice", null);
    BffFixtures.binding(client, "erin-reads-all", "reader", "User", "erin", null);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    BusTopology.ensureActivity(operatorBus);
    fanout = BusFanout.start(bffBus, BffStack.CLUSTER);
    activity = new ActivityPublisher(() -> operatorBus, BffStack.CLUSTER, "operator", Clock.systemUTC());
    RecordReads failing = new RecordReads() {
      @Override
      public boolean enabled() {
        return true;
      }

      @Override
      public List<Map<String, Object>> runs(RunQuery query, Predicate<DashboardReads.RunKey> allowed) {
        throw new IllegalStateException("cannot reach " + INTERNAL_DETAIL);
      }
    };
    // the test client is the "proxy" (127.0.0.1) and names its clients in X-Forwarded-For
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT, failing,
        reads -> new LiveStreams(reads, Optional.of(fanout), Optional.empty()), BffServer.McpMount.none(),
        new LoginRateLimit.Settings(LOGINS_PER_MINUTE, TrustedProxies.parse("test", "127.0.0.1, ::1")));
    aliceToken = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), "alice", "alice-password").idToken();
    erinToken = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), "erin", "erin-password").idToken();
    await().atMost(DEADLINE).until(() -> get("/controllers", aliceToken).statusCode() == 200
        && JSON.readTree(get("/controllers", aliceToken).body()).path("items").size() == 1);
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack != null) {
      stack.close();
    }
    if (fanout != null) {
      fanout.close();
    }
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void aLoginLandsOnlyOnThisServerWhateverReturnToSays() throws Exception {
    List<String> wrong = new ArrayList<>();
    for (String returnTo : ReturnPathTest.offSite()) {
      String landing = landingAfterLogin("return_to=" + URLEncoder.encode(returnTo, StandardCharsets.UTF_8));
      if (!landing.equals("/")) {
        wrong.add(returnTo.replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r") + " -> " + landing);
      }
    }
    // the query strings as an attacker types them into a link (decoded once by the BFF)
    for (String query : List.of("return_to=/%5Cevil.example", "return_to=//evil.example", "return_to=/%09/evil.example",
        "return_to=%2F%2Fevil.example", "return_to=/%2F/evil.example", "return_to=/%252F/evil.example",
        "return_to=/%E3%80%80/evil.example", "return_to=/%EF%BC%8F/evil.example", "return_to=%5C%5Cevil.example",
        "return_to=/%0D%0A/evil.example", "return_to=https:%2F%2Fevil.example", "return_to=")) {
      String landing = landingAfterLogin(query);
      if (!landing.equals("/") && !landing.equals("/%252F/evil.example")) {
        wrong.add(query + " -> " + landing);
      }
    }
    assertThat(wrong).as("logins that would land off this server").isEmpty();
    assertThat(landingAfterLogin("return_to=" + URLEncoder.encode("/ui/controllers?namespace=team-a&q=a%2Fb",
        StandardCharsets.UTF_8))).isEqualTo("/ui/controllers?namespace=team-a&q=a%2Fb");
  }

  @Test
  void loginStartsAreCappedPerClientAddress() throws Exception {
    for (int i = 0; i < LOGINS_PER_MINUTE; i++) {
      assertThat(startLogin("203.0.113.9").statusCode()).as("start %s", i).isEqualTo(302);
    }
    HttpResponse<String> refused = startLogin("203.0.113.9");
    JsonNode body = json(refused, 429);
    assertThat(body.path("error").asText()).isEqualTo("too_many_requests");
    assertThat(body.path("message").asText()).contains("VARROA_BFF_LOGIN_RATE_LIMIT");
    assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
    assertThat(startLogin("203.0.113.10").statusCode()).as("another client address").isEqualTo(302);
  }

  @Test
  void everyAnswerTellsBrowsersNotToSniff() throws Exception {
    List<HttpResponse<String>> answers = List.of(send(request("/auth/login").build()),
        send(request("/auth/config").build()), send(request("/auth/logout").build()),
        send(request("/auth/callback?error=access_denied").build()), send(request("/me").build()),
        get("/controllers", aliceToken), get("/runs", aliceToken), get("/no-such-route", aliceToken),
        send(request("/").build()), send(request("/ui/").build()), send(request("/ui/assets/missing.js").build()),
        send(request("/healthz").build()));
    for (HttpResponse<String> answer : answers) {
      assertThat(answer.headers().firstValue("X-Content-Type-Options")).as("%s %s", answer.uri(),
          answer.statusCode()).hasValue("nosniff");
    }
    HttpResponse<java.io.InputStream> sse = HTTP.send(request("/activity/stream")
        .header("Authorization", "Bearer " + aliceToken).build(), HttpResponse.BodyHandlers.ofInputStream());
    sse.body().close();
    assertThat(sse.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
  }

  @Test
  void anUnexpectedFailureAnswers500WithACorrelationIdAndNoExceptionText() throws Exception {
    HttpResponse<String> failed = get("/runs", aliceToken);
    JsonNode body = json(failed, 500);
    assertThat(failed.body()).doesNotContain("db.internal.example").doesNotContain("hunter2")
        .doesNotContain("IllegalStateException");
    assertThat(body.path("error").asText()).isEqualTo("internal");
    String id = body.path("correlationId").asText();
    assertThat(id).matches("[0-9a-f-]{36}");
    assertThat(body.path("message").asText()).contains(id);
    assertThat(failed.headers().firstValue("Varroa-Correlation-Id")).hasValue(id);
  }

  @Test
  void logoutIsAPostFromThisOriginAndGetOnlyAsksToConfirm() throws Exception {
    String session = browserSession("alice");
    HttpResponse<String> confirm = send(request("/auth/logout").header("Cookie", "varroa_session=" + session).build());
    assertThat(confirm.statusCode()).isEqualTo(200);
    assertThat(confirm.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/html");
    assertThat(confirm.body()).contains("<form method=\"post\" action=\"/auth/logout\">");
    assertThat(confirm.headers().firstValue("Content-Security-Policy").orElseThrow())
        .contains("frame-ancestors 'none'");
    assertThat(me(session)).as("a GET logs nobody out").isEqualTo(200);

    HttpResponse<String> crossSite = send(request("/auth/logout").header("Cookie", "varroa_session=" + session)
        .header("Origin", "https://evil.example").POST(HttpRequest.BodyPublishers.noBody()).build());
    assertThat(json(crossSite, 403).path("message").asText()).contains("https://evil.example");
    assertThat(me(session)).as("another site logs nobody out").isEqualTo(200);

    HttpResponse<String> out = send(request("/auth/logout").header("Cookie", "varroa_session=" + session)
        .header("Origin", "http://localhost:" + PORT).POST(HttpRequest.BodyPublishers.noBody()).build());
    assertThat(out.statusCode()).isEqualTo(303);
    assertThat(out.headers().firstValue("Location")).hasValue("/");
    assertThat(out.headers().allValues("Set-Cookie")).anyMatch(c -> c.startsWith("varroa_session=;")
        && c.contains("Max-Age=0"));
    assertThat(me(session)).isEqualTo(401);
  }

  @Test
  void anOpenActivityStreamEndsAtLogout() throws Exception {
    String session = browserSession("alice");
    try (SseClient stream = SseClient.open(uri("/activity/stream"), "Cookie", "varroa_session=" + session, null)) {
      assertThat(stream.status).isEqualTo(200);
      HttpResponse<String> out = send(request("/auth/logout").header("Cookie", "varroa_session=" + session)
          .POST(HttpRequest.BodyPublishers.noBody()).build());
      assertThat(out.statusCode()).isEqualTo(303);
      await().atMost(DEADLINE).until(stream::ended);
      assertThat(stream.named("end")).singleElement().satisfies(end ->
          assertThat(JSON.readTree(end.data()).path("reason").asText()).contains("session ended"));
    }
  }

  @Test
  void anOpenActivityStreamEndsWhenItsBindingGoes() throws Exception {
    try (SseClient stream = SseClient.open(uri("/activity/stream"), erinToken, null)) {
      assertThat(stream.status).isEqualTo(200);
      // the stream is live: an event published now arrives
      activity.controller("team-a", "orders", "controller.phase_changed", "erin-live", Map.of());
      await().atMost(DEADLINE).until(() -> stream.named("activity").stream()
          .anyMatch(e -> e.data().contains("erin-live")));
      assertThat(stream.ended()).isFalse();
      client.resources(VarroaRoleBinding.class).withName("erin-reads-all").delete();
      await().atMost(DEADLINE).until(stream::ended);
      assertThat(stream.named("end")).singleElement().satisfies(end ->
          assertThat(JSON.readTree(end.data()).path("reason").asText()).contains("may no longer watch activity"));
    }
    assertThat(get("/activity", erinToken).statusCode()).isEqualTo(403);
  }

  /** Logs in through the provider with the query on /auth/login and returns where the callback sends the browser. */
  private static String landingAfterLogin(String query) throws Exception {
    HttpResponse<String> start = send(request("/auth/login?" + query)
        .header("X-Forwarded-For", "198.51.100." + (CLIENT.incrementAndGet() % 250)).build());
    assertThat(start.statusCode()).as("%s: %s", query, start.body()).isEqualTo(302);
    URI callback = BrowserLogin.authorize(OIDC.provider(), URI.create(start.headers().firstValue("location")
        .orElseThrow()), "alice", "alice-password");
    HttpResponse<String> back = send(HttpRequest.newBuilder(callback).header("Cookie", "varroa_login="
        + cookie(start, "varroa_login")).build());
    assertThat(back.statusCode()).as("%s: %s", query, back.body()).isEqualTo(302);
    return back.headers().firstValue("location").orElseThrow();
  }

  private static String browserSession(String user) throws Exception {
    HttpResponse<String> start = send(request("/auth/login?return_to=/me")
        .header("X-Forwarded-For", "198.51.100." + (CLIENT.incrementAndGet() % 250)).build());
    URI callback = BrowserLogin.authorize(OIDC.provider(), URI.create(start.headers().firstValue("location")
        .orElseThrow()), user, BffFixtures.password(user));
    HttpResponse<String> back = send(HttpRequest.newBuilder(callback).header("Cookie", "varroa_login="
        + cookie(start, "varroa_login")).build());
    return cookie(back, "varroa_session");
  }

  private static int me(String session) throws Exception {
    return send(request("/me").header("Cookie", "varroa_session=" + session).build()).statusCode();
  }

  private static HttpResponse<String> startLogin(String client) throws Exception {
    return send(request("/auth/login?return_to=/ui/").header("X-Forwarded-For", client).build());
  }

  private static String cookie(HttpResponse<String> response, String name) {
    return response.headers().allValues("set-cookie").stream().filter(c -> c.startsWith(name + "="))
        .map(c -> c.substring(name.length() + 1, c.indexOf(';'))).findFirst().orElseThrow();
  }

  private static JsonNode json(HttpResponse<String> response, int status) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return JSON.readTree(response.body());
  }

  private static HttpResponse<String> get(String path, String token) throws Exception {
    return send(request(path).header("Authorization", "Bearer " + token).build());
  }

  private static HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path));
  }

  private static HttpResponse<String> send(HttpRequest request) throws Exception {
    return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
  }

  private static URI uri(String path) {
    return URI.create(stack.url() + path);
  }
}

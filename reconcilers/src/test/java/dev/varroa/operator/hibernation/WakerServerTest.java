package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.protocol.mite.v1.Header;
import dev.varroa.testfixtures.http.StalledClients;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The waker over HTTP on loopback, with a store that only records what it was asked to keep. */
class WakerServerTest {
  private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
  private static final String UID = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";

  private final Controller nightly = controller("nightly", "ci", UID, "https://jenkins.example.com/",
      ControllerStatus.Phase.Hibernated);
  private final Controller other = controller("other", "qa", "9a4e28ba-2fa1-11d2-883f-0016d3cca427",
      "http://other-9a4e28ba.qa.svc:8080/", ControllerStatus.Phase.Hibernated);
  private final Controller running = controller("running", "ci", "7c4e28ba-2fa1-11d2-883f-0016d3cca427",
      "https://running.example.com/", ControllerStatus.Phase.Connected);
  /** Woken a moment ago: its pod is not ready yet, so its Service still routes to the waker. */
  private final Controller waking = controller("waking", "ci", "5d4e28ba-2fa1-11d2-883f-0016d3cca427",
      "https://waking.example.com/", ControllerStatus.Phase.Provisioning);
  private final List<EndpointSlice> routes = new CopyOnWriteArrayList<>();
  private final RecordingStore store = new RecordingStore();
  private final MovableClock clock = new MovableClock();
  private int perMinute = HibernationSettings.DEFAULT_KEPT_PER_SOURCE_PER_MINUTE;
  private WakerServer waker;

  private static Controller controller(String name, String namespace, String uid, String url,
      ControllerStatus.Phase phase) {
    Controller controller = new Controller();
    controller.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).withUid(uid).build());
    controller.setStatus(new ControllerStatus());
    controller.getStatus().url = url;
    controller.getStatus().phase = phase;
    return controller;
  }

  private WakerServer start() throws Exception {
    waker = WakerServer.start(0, () -> List.of(nightly, other, running, waking), new ParkedControllers(() -> routes),
        store, new SourceRateLimit(perMinute, clock), Clock.fixed(NOW, ZoneOffset.UTC));
    return waker;
  }

  /** The slice the operator gives a Controller's Service while it routes it to the waker. */
  private static EndpointSlice route(Controller controller) {
    String service = WakeRequests.statefulSet(controller);
    return new EndpointSliceBuilder().withNewMetadata().withName(WakerRoute.sliceName(service, WakerRoute.IPV4))
        .withNamespace(controller.getMetadata().getNamespace())
        .withLabels(Map.of(WakerRoute.SERVICE_NAME_LABEL, service, WakerRoute.MANAGED_BY_LABEL, WakerRoute.MANAGED_BY))
        .withOwnerReferences(new OwnerReferenceBuilder().withKind("Controller").withName(controller.getMetadata()
            .getName()).withUid(controller.getMetadata().getUid()).withController(true).build())
        .endMetadata().withAddressType(WakerRoute.IPV4).build();
  }

  @AfterEach
  void stop() {
    if (waker != null) {
      waker.close();
    }
  }

  private HttpResponse<String> raw(String method, String host, String path, byte[] body, String... headers)
      throws Exception {
    return raw(method, host, path, body.length, body, headers);
  }

  /** Declares {@code length} bytes and sends {@code body}: fewer when the server should refuse unread. */
  private HttpResponse<String> raw(String method, String host, String path, long length, byte[] body,
      String... headers) throws Exception {
    try (java.net.Socket socket = new java.net.Socket("127.0.0.1", waker.port())) {
      StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
      for (int i = 0; i < headers.length; i += 2) {
        request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      request.append("Content-Length: ").append(length).append("\r\nConnection: close\r\n\r\n");
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(body);
      socket.getOutputStream().flush();
      // read the head, then exactly Content-Length bytes: a refused body stays unread, so the server keeps the socket
      java.io.InputStream in = socket.getInputStream();
      java.io.ByteArrayOutputStream head = new java.io.ByteArrayOutputStream();
      while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          break;
        }
        head.write(b);
      }
      String headText = head.toString(StandardCharsets.ISO_8859_1);
      java.util.regex.Matcher declared = java.util.regex.Pattern.compile("(?im)^content-length:\\s*(\\d+)")
          .matcher(headText);
      byte[] answerBody = declared.find() ? in.readNBytes(Integer.parseInt(declared.group(1))) : new byte[0];
      return new RawResponse(headText + new String(answerBody, StandardCharsets.UTF_8));
    }
  }

  @Test
  void answersABrowserAtTheIngressHostWithAStartingPageThatReloadsAndWakesTheController() throws Exception {
    start();

    HttpResponse<String> page = raw("GET", "jenkins.example.com", "/job/app/", new byte[0]);

    assertThat(page.statusCode()).isEqualTo(503);
    assertThat(page.headers().firstValue("retry-after")).contains(String.valueOf(WakePage.REFRESH_SECONDS));
    assertThat(page.headers().firstValue("cache-control")).contains("no-store");
    assertThat(page.body()).contains("Jenkins nightly is starting")
        .contains("<meta http-equiv=\"refresh\" content=\"" + WakePage.REFRESH_SECONDS + "\">");
    assertThat(store.visits).containsExactly("ci/nightly");
    assertThat(store.kept).isEmpty();
  }

  @Test
  void findsTheControllerByItsServiceNameInEveryForm() throws Exception {
    start();
    for (String host : List.of("nightly-1b4e28ba.ci.svc.cluster.local:8080", "nightly-1b4e28ba.ci.svc",
        "nightly-1b4e28ba.ci", "nightly-1b4e28ba", "NIGHTLY-1B4E28BA.CI.SVC.CLUSTER.LOCAL")) {
      assertThat(raw("GET", host, "/", new byte[0]).statusCode()).as(host).isEqualTo(503);
    }
    assertThat(raw("HEAD", "other-9a4e28ba.qa.svc:8080", "/", new byte[0]).statusCode()).isEqualTo(503);

    assertThat(store.visits).hasSize(6).containsOnly("ci/nightly", "qa/other").contains("qa/other");
  }

  @Test
  void keepsAWebhookDeliveryAnswers202AndWakesTheController() throws Exception {
    start();
    byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> kept = raw("POST", "jenkins.example.com", "/github-webhook/?x=1", body,
        "X-GitHub-Event", "push", "X-Hub-Signature-256", "sha256=abc", "Content-Type", "application/json");

    assertThat(kept.statusCode()).isEqualTo(202);
    assertThat(kept.body()).contains("\"kept\":\"stored-1\"").contains("ci/nightly");
    assertThat(store.kept).singleElement().satisfies(delivery -> {
      assertThat(delivery.method()).isEqualTo("POST");
      assertThat(delivery.path()).isEqualTo("/github-webhook/?x=1");
      assertThat(delivery.body()).isEqualTo(body);
      assertThat(delivery.receivedAt()).isEqualTo(NOW);
      assertThat(delivery.headers()).extracting(h -> h.getName().toLowerCase() + "=" + h.getValue())
          .contains("x-github-event=push", "x-hub-signature-256=sha256=abc", "content-type=application/json")
          .noneMatch(h -> h.startsWith("host=") || h.startsWith("content-length=") || h.startsWith("connection="));
    });
    assertThat(store.visits).isEmpty();
  }

  @Test
  void refusesADeliveryOverTheBoundWith413Unread() throws Exception {
    start();

    HttpResponse<String> refused = raw("POST", "jenkins.example.com", "/github-webhook/",
        WakerServer.MAX_DELIVERY_BYTES + 1L, new byte[0]);

    assertThat(refused.statusCode()).isEqualTo(413);
    assertThat(refused.body()).contains("only up to " + WakerServer.MAX_DELIVERY_BYTES + " bytes");
    assertThat(store.kept).isEmpty();
  }

  @Test
  void asksTheSenderToRetryWhenTooManyDeliveriesWait() throws Exception {
    store.full.set(true);
    start();

    HttpResponse<String> full = raw("POST", "jenkins.example.com", "/github-webhook/", new byte[] {1});

    assertThat(full.statusCode()).isEqualTo(503);
    assertThat(full.headers().firstValue("retry-after")).contains("60");
    assertThat(full.body()).contains(WakeRequestStore.MAX_KEPT_DELIVERIES + " deliveries already wait");
  }

  @Test
  void answers404ForAHostNoControllerHas() throws Exception {
    start();

    HttpResponse<String> unknown = raw("GET", "elsewhere.example.com", "/", new byte[0]);

    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body()).contains("elsewhere.example.com");
    assertThat(store.visits).isEmpty();
  }

  @Test
  void answers404AndKeepsNothingForARunningController() throws Exception {
    start();

    HttpResponse<String> post = raw("POST", "running.example.com", "/github-webhook/", new byte[] {'{', '}'},
        "X-GitHub-Event", "push");
    HttpResponse<String> get = raw("GET", "running-7c4e28ba.ci.svc", "/", new byte[0]);

    assertThat(post.statusCode()).isEqualTo(404);
    assertThat(get.statusCode()).isEqualTo(404);
    assertThat(post.body()).as("the same answer as for a host nobody has")
        .startsWith("No parked Jenkins controller of this cluster is served at host running.example.com");
    assertThat(store.kept).isEmpty();
    assertThat(store.visits).isEmpty();
  }

  @Test
  void answers404AndKeepsNothingForAPostToAnUnknownHost() throws Exception {
    start();

    HttpResponse<String> post = raw("POST", "elsewhere.example.com", "/github-webhook/", new byte[] {'{', '}'});

    assertThat(post.statusCode()).isEqualTo(404);
    assertThat(store.kept).isEmpty();
    assertThat(store.visits).isEmpty();
  }

  @Test
  void servesAWokenControllerUntilItsServiceNoLongerRoutesToTheWaker() throws Exception {
    start();
    routes.add(route(waking));

    assertThat(raw("POST", "waking.example.com", "/github-webhook/", new byte[] {1}).statusCode()).isEqualTo(202);
    routes.clear();
    assertThat(raw("POST", "waking.example.com", "/github-webhook/", new byte[] {2}).statusCode()).isEqualTo(404);

    assertThat(store.kept).singleElement().satisfies(d -> assertThat(d.body()).containsExactly(1));
  }

  @Test
  void wakesButDoesNotKeepAPostToARouteThatIsNotAWebhook() throws Exception {
    start();

    HttpResponse<String> build = raw("POST", "jenkins.example.com", "/job/app/build?delay=0", new byte[] {'x'},
        "Authorization", "Basic YWRtaW46c2VjcmV0");

    assertThat(build.statusCode()).isEqualTo(503);
    assertThat(build.headers().firstValue("retry-after")).contains(String.valueOf(WakePage.REFRESH_SECONDS));
    assertThat(build.body()).contains("this request was not kept");
    assertThat(store.visits).containsExactly("ci/nightly");
    assertThat(store.kept).isEmpty();
  }

  @Test
  void limitsTheDeliveriesKeptPerSourceAndMinute() throws Exception {
    perMinute = 2;
    start();

    assertThat(raw("POST", "jenkins.example.com", "/github-webhook/", new byte[] {1}).statusCode()).isEqualTo(202);
    assertThat(raw("POST", "other-9a4e28ba.qa.svc", "/github-webhook/", new byte[] {2}).statusCode()).isEqualTo(202);
    HttpResponse<String> limited = raw("POST", "jenkins.example.com", "/github-webhook/", new byte[] {3});

    assertThat(limited.statusCode()).isEqualTo(429);
    assertThat(limited.headers().firstValue("retry-after")).get().satisfies(seconds ->
        assertThat(Integer.parseInt(seconds)).isBetween(1, 30));
    assertThat(limited.body()).contains("more than 2 deliveries a minute");
    assertThat(store.kept).hasSize(2);

    clock.advance(Duration.ofSeconds(30));
    assertThat(raw("POST", "jenkins.example.com", "/github-webhook/", new byte[] {4}).statusCode()).isEqualTo(202);
    assertThat(store.kept).extracting(d -> d.body()[0]).containsExactly((byte) 1, (byte) 2, (byte) 4);
  }

  @Test
  void refusesWith507WhenTheClusterCapOfKeptBytesIsReached() throws Exception {
    store.overCap.set(true);
    start();

    HttpResponse<String> refused = raw("POST", "jenkins.example.com", "/github-webhook/", new byte[] {1});

    assertThat(refused.statusCode()).isEqualTo(507);
    assertThat(refused.headers().firstValue("retry-after")).contains("60");
    assertThat(refused.body()).contains("cap of 1048576 bytes").contains(HibernationSettings.ENV_KEPT_BYTES);
  }

  @Test
  void stillShowsThePageWhenTheVisitCannotBeKept() throws Exception {
    store.failVisits.set(true);
    start();

    assertThat(raw("GET", "jenkins.example.com", "/", new byte[0]).statusCode()).isEqualTo(503);
  }

  @Test
  void escapesWhatThePageShows() {
    assertThat(new String(WakePage.render("ns", "<b>&'\""), StandardCharsets.UTF_8))
        .contains("&lt;b&gt;&amp;&#39;&quot;").doesNotContain("<b>&'");
  }

  /** Records visits and deliveries; names the kept ones stored-1, stored-2... */
  private static final class RecordingStore implements WakeRequestStore {
    final List<String> visits = new CopyOnWriteArrayList<>();
    final List<KeptDelivery> kept = new CopyOnWriteArrayList<>();
    final AtomicReference<Boolean> full = new AtomicReference<>(false);
    final AtomicReference<Boolean> failVisits = new AtomicReference<>(false);
    final AtomicReference<Boolean> overCap = new AtomicReference<>(false);

    @Override
    public void visit(Controller controller, Instant at) {
      if (failVisits.get()) {
        throw new IllegalStateException("API server unreachable");
      }
      visits.add(controller.getMetadata().getNamespace() + "/" + controller.getMetadata().getName());
    }

    @Override
    public Kept keep(Controller controller, KeptDelivery delivery) {
      if (full.get()) {
        return new Kept.Full(MAX_KEPT_DELIVERIES);
      }
      if (overCap.get()) {
        return new Kept.OverCap(1024 * 1024);
      }
      kept.add(delivery);
      return new Kept.Stored("stored-" + kept.size());
    }
  }

  /** A response read off the socket: status line, headers, body. */
  private static final class RawResponse implements HttpResponse<String> {
    private final int status;
    private final java.net.http.HttpHeaders headers;
    private final String body;

    RawResponse(String raw) {
      int split = raw.indexOf("\r\n\r\n");
      String[] head = raw.substring(0, split).split("\r\n");
      status = Integer.parseInt(head[0].split(" ")[1]);
      java.util.Map<String, List<String>> map = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      for (int i = 1; i < head.length; i++) {
        int colon = head[i].indexOf(':');
        map.computeIfAbsent(head[i].substring(0, colon).strip(), k -> new java.util.ArrayList<>())
            .add(head[i].substring(colon + 1).strip());
      }
      headers = java.net.http.HttpHeaders.of(map, (a, b) -> true);
      body = raw.substring(split + 4);
    }

    @Override public int statusCode() { return status; }
    @Override public HttpRequest request() { return null; }
    @Override public java.util.Optional<HttpResponse<String>> previousResponse() { return java.util.Optional.empty(); }
    @Override public java.net.http.HttpHeaders headers() { return headers; }
    @Override public String body() { return body; }
    @Override public java.util.Optional<javax.net.ssl.SSLSession> sslSession() { return java.util.Optional.empty(); }
    @Override public URI uri() { return null; }
    @Override public HttpClient.Version version() { return HttpClient.Version.HTTP_1_1; }
  }

  @Test
  void answersWhileClientsHoldHalfSentRequestsAndCutsThemOff() throws Exception {
    start();
    ListenerLimits limits = ListenerLimits.DELIVERIES;
    String halfHeaders = "POST /github-webhook/ HTTP/1.1\r\nHost: jenkins.example.com\r\n";

    try (StalledClients stalled = StalledClients.open(waker.port(), limits.threads() - 1, halfHeaders)) {
      assertThat(StalledClients.statusOf("http://127.0.0.1:" + waker.port() + "/", Duration.ofSeconds(1)))
          .isEqualTo(404);
      await().atMost(limits.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
    assertThat(store.kept).isEmpty();
  }

}

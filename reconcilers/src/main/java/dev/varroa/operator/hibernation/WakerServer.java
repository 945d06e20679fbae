package dev.varroa.operator.hibernation;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import dev.varroa.operator.hooks.BoundedBody;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.protocol.mite.v1.Header;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waker: while a controller is parked its Service sends Jenkins' HTTP traffic here, to every operator replica. It
 * finds the controller from the Host header and answers only for one parked now ({@link ParkedControllers}); any
 * other host gets 404 and nothing is kept. A GET (a browser) gets a page that says Jenkins is starting and reloads
 * itself, and wakes the controller; a POST at an SCM webhook route ({@link ReplayableRoutes}) is kept, answered 202,
 * and wakes it, to be replayed to Jenkins once it is up, since senders such as GitHub do not redeliver a webhook that
 * timed out; a POST elsewhere wakes it and is not kept. Kept deliveries are bounded per source and minute
 * ({@link SourceRateLimit}), per controller and in bytes cluster-wide. Everything it keeps goes through the API server
 * (a {@link WakeRequestStore}), so any replica may answer.
 */
public final class WakerServer implements AutoCloseable {
  /** The waker's own port, beside /metrics on 8081 and the push webhooks on 8082. */
  public static final int DEFAULT_PORT = 8083;
  /** A kept delivery lives in a Secret (at most 1 MiB with its headers): bodies beyond this are refused with 413. */
  public static final int MAX_DELIVERY_BYTES = 512 * 1024;
  /** How soon a sender whose delivery could not be kept is asked to retry. */
  static final int RETRY_AFTER_FULL_SECONDS = 60;
  /** 507 Insufficient Storage: the cluster-wide cap of kept bytes is reached. */
  static final int INSUFFICIENT_STORAGE = 507;
  private static final int THREADS = 4;
  private static final Set<String> CONNECTION_HEADERS = Set.of("connection", "keep-alive", "transfer-encoding", "te",
      "trailer", "upgrade", "proxy-connection", "proxy-authenticate", "proxy-authorization", "host", "content-length");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Logger LOG = LoggerFactory.getLogger(WakerServer.class);

  private final LimitedHttpServer server;
  private final Supplier<List<Controller>> controllers;
  private final Predicate<Controller> parked;
  private final WakeRequestStore store;
  private final SourceRateLimit rate;
  private final Clock clock;

  private WakerServer(LimitedHttpServer server, Supplier<List<Controller>> controllers,
      Predicate<Controller> parked, WakeRequestStore store, SourceRateLimit rate, Clock clock) {
    this.server = server;
    this.controllers = controllers;
    this.parked = parked;
    this.store = store;
    this.rate = rate;
    this.clock = clock;
  }

  /**
   * Listens on the port (0 picks a free one) on every interface.
   *
   * @param controllers every Controller, as an informer holds them
   * @param parked which of them the waker answers for ({@link ParkedControllers})
   * @param rate how many deliveries it keeps per source address and minute
   */
  public static WakerServer start(int port, Supplier<List<Controller>> controllers, Predicate<Controller> parked,
      WakeRequestStore store, SourceRateLimit rate, Clock clock) throws IOException {
    LimitedHttpServer server = LimitedHttpServer.bind("waker", new InetSocketAddress(port),
        ListenerLimits.DELIVERIES.withThreads(THREADS));
    WakerServer waker = new WakerServer(server, controllers, parked, store, rate, clock);
    server.route("/", waker::handle);
    server.start();
    LOG.info("event=waker_listening port={}", waker.port());
    return waker;
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Reply reply;
      try {
        reply = answer(exchange);
      } catch (RuntimeException e) {
        LOG.error("event=waker_failed method={} path={} error=\"{}\"", exchange.getRequestMethod(),
            exchange.getRequestURI().getRawPath(), e.toString(), e);
        reply = Reply.json(503, Map.of("error", "the request could not be kept; try again"), 10);
      }
      reply.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
      boolean head = "HEAD".equals(exchange.getRequestMethod());
      exchange.sendResponseHeaders(reply.status(), head ? -1 : reply.body().length);
      if (!head) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(reply.body());
        }
      }
    }
  }

  private Reply answer(HttpExchange exchange) throws IOException {
    String host = exchange.getRequestHeaders().getFirst("Host");
    String path = exchange.getRequestURI().getRawPath();
    Optional<Controller> found = ControllerHosts.find(host, controllers.get());
    if (found.isEmpty() || !parked.test(found.get())) {
      // a running controller gets the same answer as an unknown host: the waker says nothing of what exists
      LOG.info("event={} host=\"{}\" path={}", found.isEmpty() ? "waker_unknown_host" : "waker_not_parked", host,
          path);
      Reply unknown = Reply.text(404, "No parked Jenkins controller of this cluster is served at host " + host
          + ". The waker answers only for hibernated controllers, by their Ingress host or Service name.\n");
      unknown.headers().put("Connection", "close");
      return unknown;
    }
    Controller controller = found.get();
    String who = controller.getMetadata().getNamespace() + "/" + controller.getMetadata().getName();
    if (!"POST".equals(exchange.getRequestMethod())) {
      visit(controller, who, exchange.getRequestMethod(), path);
      Reply page = new Reply(503, WakePage.render(controller.getMetadata().getNamespace(),
          controller.getMetadata().getName()), new LinkedHashMap<>());
      page.headers().put("Content-Type", "text/html; charset=utf-8");
      page.headers().put("Retry-After", String.valueOf(WakePage.REFRESH_SECONDS));
      page.headers().put("Cache-Control", "no-store");
      return page;
    }
    if (!ReplayableRoutes.replayable(path)) {
      // an API call or a form may carry a person's credentials: it wakes Jenkins and is not kept
      visit(controller, who, "POST", path);
      LOG.info("event=waker_delivery_not_kept controller={} path={} reason=\"not a webhook route\"", who, path);
      Reply woken = Reply.json(503, Map.of("error", "Jenkins " + who + " is parked and starting now; only webhook"
          + " deliveries to the SCM routes of docs/hibernation.md are kept for replay, so this request was not kept."
          + " Send it again once Jenkins runs"), WakePage.REFRESH_SECONDS);
      woken.headers().put("Connection", "close");
      return woken;
    }
    String source = exchange.getRemoteAddress().getAddress().getHostAddress();
    Optional<Duration> wait = rate.take(source);
    if (wait.isPresent()) {
      long seconds = Math.max(1, (wait.get().toMillis() + 999) / 1000);
      LOG.warn("event=waker_delivery_refused controller={} path={} status=429 source={} reason=\"over {} kept"
          + " deliveries per minute from this source\"", who, path, source, rate.perMinute());
      Reply limited = Reply.json(429, Map.of("error", "this source sent more than " + rate.perMinute()
          + " deliveries a minute to parked Jenkins controllers; this one was not kept. Send it again in " + seconds
          + " s"), (int) seconds);
      limited.headers().put("Connection", "close");
      return limited;
    }
    byte[] body = readBounded(exchange);
    if (body == null) {
      LOG.warn("event=waker_delivery_refused controller={} path={} status=413 reason=\"body over {} bytes\"", who, path,
          MAX_DELIVERY_BYTES);
      Reply refused = Reply.json(413, Map.of("error", "Jenkins " + who + " is parked and a delivery is kept until it"
          + " is up, but only up to " + MAX_DELIVERY_BYTES + " bytes; this one is larger. Send it again once Jenkins"
          + " runs (open its URL to wake it)"), 0);
      refused.headers().put("Connection", "close");
      return refused;
    }
    String query = exchange.getRequestURI().getRawQuery();
    KeptDelivery delivery = new KeptDelivery("POST", query == null ? path : path + "?" + query,
        headers(exchange), body, clock.instant());
    WakeRequestStore.Kept kept = store.keep(controller, delivery);
    if (kept instanceof WakeRequestStore.Kept.Full full) {
      LOG.warn("event=waker_delivery_refused controller={} path={} status=503 reason=\"{} deliveries already kept\"",
          who, path, full.limit());
      return Reply.json(503, Map.of("error", full.limit() + " deliveries already wait for Jenkins " + who
          + ", which is starting; send this one again later"), RETRY_AFTER_FULL_SECONDS);
    }
    if (kept instanceof WakeRequestStore.Kept.OverCap over) {
      LOG.warn("event=waker_delivery_refused controller={} path={} status={} reason=\"kept deliveries of the cluster"
          + " at the cap of {} bytes\"", who, path, INSUFFICIENT_STORAGE, over.capBytes());
      return Reply.json(INSUFFICIENT_STORAGE, Map.of("error", "the deliveries kept for parked Jenkins controllers of"
          + " this cluster already hold close to their cap of " + over.capBytes() + " bytes; this one to " + who
          + " was not kept. Send it again later (its controller is starting) or ask the cluster admin to raise the"
          + " cap (" + HibernationSettings.ENV_KEPT_BYTES + ")"), RETRY_AFTER_FULL_SECONDS);
    }
    String name = ((WakeRequestStore.Kept.Stored) kept).name();
    LOG.info("event=waker_delivery_kept controller={} path={} secret={} body_bytes={}", who, path, name, body.length);
    Map<String, Object> answer = new LinkedHashMap<>();
    answer.put("kept", name);
    answer.put("controller", who);
    answer.put("message", "Jenkins " + controller.getMetadata().getName() + " is starting; this delivery is kept"
        + " and sent to it once it is up");
    return Reply.json(202, answer, 0);
  }

  /** Wakes the controller; a visit that cannot be recorded is tried again by the next request. */
  private void visit(Controller controller, String who, String method, String path) {
    try {
      store.visit(controller, clock.instant());
      LOG.info("event=waker_visit controller={} method={} path={}", who, method, path);
    } catch (RuntimeException e) {
      // the page reloads itself, and the next visit tries again
      LOG.warn("event=waker_visit_not_kept controller={} error=\"{}\"", who, e.getMessage());
    }
  }

  /** The sender's headers, without those of the connection, sorted by name (the server keeps no arrival order). */
  private static List<Header> headers(HttpExchange exchange) {
    List<Header> headers = new ArrayList<>();
    new TreeMap<>(exchange.getRequestHeaders()).forEach((name, values) -> {
      if (!CONNECTION_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
        values.forEach(value -> headers.add(Header.newBuilder().setName(name).setValue(value).build()));
      }
    });
    return headers;
  }

  private static byte[] readBounded(HttpExchange exchange) throws IOException {
    return BoundedBody.read(exchange, MAX_DELIVERY_BYTES);
  }

  /** A status, its body and headers. */
  private record Reply(int status, byte[] body, Map<String, String> headers) {
    static Reply text(int status, String text) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Content-Type", "text/plain; charset=utf-8");
      return new Reply(status, text.getBytes(StandardCharsets.UTF_8), headers);
    }

    static Reply json(int status, Map<String, ?> body, int retryAfterSeconds) {
      Map<String, String> headers = new LinkedHashMap<>();
      headers.put("Content-Type", "application/json");
      if (retryAfterSeconds > 0) {
        headers.put("Retry-After", String.valueOf(retryAfterSeconds));
      }
      try {
        return new Reply(status, JSON.writeValueAsBytes(body), headers);
      } catch (IOException e) {
        throw new IllegalStateException("a map of strings always writes as JSON", e);
      }
    }
  }
}

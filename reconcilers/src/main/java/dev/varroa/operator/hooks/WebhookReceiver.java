package dev.varroa.operator.hooks;

import com.sun.net.httpserver.HttpExchange;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Push notifications over HTTP: {@code POST /hooks/git} from Git hosts and {@code POST /hooks/registry}
 * from a distribution registry. An authentic push re-checks, at once, the bundles and catalog sources
 * that follow what moved; the payload is only a hint, as each re-check reads the source itself.
 */
public final class WebhookReceiver implements AutoCloseable {
  /** The receiver's own port, beside the metrics port 8081. */
  public static final int DEFAULT_PORT = 8082;
  public static final String GIT_PATH = "/hooks/git";
  public static final String REGISTRY_PATH = "/hooks/registry";
  /** Larger deliveries are refused unread; a push of a few commits is a few KiB, and the interval still catches a huge one. */
  public static final int MAX_BODY_BYTES = 1024 * 1024;

  /**
   * A registry push is re-checked once more this long after the first re-check: a distribution registry sends its
   * notification when the manifest is stored, and moves the tag a moment later, so the first look can still find the
   * old digest.
   */
  public static final Duration REGISTRY_TAG_SETTLE = Duration.ofSeconds(2);

  private static final Logger LOG = LoggerFactory.getLogger(WebhookReceiver.class);

  private final LimitedHttpServer server;
  private final WebhookSecret secret;
  private final PushTargets targets;
  private final SeenDeliveries seen;
  private final Duration tagSettle;
  private final ScheduledExecutorService later = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "webhooks-recheck");
    thread.setDaemon(true);
    return thread;
  });

  private WebhookReceiver(LimitedHttpServer server, WebhookSecret secret, PushTargets targets, SeenDeliveries seen,
      Duration tagSettle) {
    this.server = server;
    this.tagSettle = tagSettle;
    this.seen = seen;
    this.secret = secret;
    this.targets = targets;
  }

  /**
   * Listens on the port (0 picks a free one) on every interface, as the metrics endpoint does.
   *
   * @param limits the listener's limits ({@link ListenerLimits#DELIVERIES} in the operator)
   * @param clock the clock of the replay window
   */
  public static WebhookReceiver start(int port, WebhookSecret secret, PushTargets targets, ListenerLimits limits,
      Clock clock) throws IOException {
    return start(port, secret, targets, limits, clock, REGISTRY_TAG_SETTLE);
  }

  /** As the public start, with the wait before a registry push's second re-check ({@link #REGISTRY_TAG_SETTLE}). */
  static WebhookReceiver start(int port, WebhookSecret secret, PushTargets targets, ListenerLimits limits,
      Clock clock, Duration tagSettle) throws IOException {
    LimitedHttpServer server = LimitedHttpServer.bind("webhooks", new InetSocketAddress(port), limits);
    WebhookReceiver receiver = new WebhookReceiver(server, secret, targets, new SeenDeliveries(clock), tagSettle);
    server.route(GIT_PATH, exchange -> receiver.handle(exchange, Route.GIT));
    server.route(REGISTRY_PATH, exchange -> receiver.handle(exchange, Route.REGISTRY));
    server.start();
    LOG.info("event=webhooks_listening port={} paths={},{}", receiver.port(), GIT_PATH, REGISTRY_PATH);
    SecretLookup atStart = secret.current();
    if (!atStart.isFound()) {
      LOG.warn("event=webhooks_refusing status=401 reason=\"{}\"", atStart.problem());
    }
    return receiver;
  }

  public int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
    later.shutdownNow();
  }

  private void handle(HttpExchange exchange, Route route) throws IOException {
    try (exchange) {
      Reply reply;
      try {
        reply = answer(exchange, route);
      } catch (RuntimeException e) {
        // A push that could not be applied is answered so the sender shows it; the interval still catches the change.
        LOG.error("event=delivery_failed path={} status=500 error=\"{}\"", route.path, e.toString(), e);
        reply = Reply.error(500, "the push could not be applied; see the operator's log");
      }
      if (reply.status() == 405) {
        exchange.getResponseHeaders().set("Allow", "POST");
      }
      byte[] body = PayloadJson.MAPPER.writeValueAsBytes(reply.body());
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  private Reply answer(HttpExchange exchange, Route route) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String remote = exchange.getRemoteAddress() == null ? "" : exchange.getRemoteAddress().getAddress().getHostAddress();
    if (!route.path.equals(path)) {
      return Reply.error(404, "no hook at " + path + "; the hooks are " + GIT_PATH + " and " + REGISTRY_PATH);
    }
    if (!"POST".equals(exchange.getRequestMethod())) {
      return Reply.error(405, exchange.getRequestMethod() + " is not allowed on " + path + "; deliveries are POST");
    }
    byte[] body = readBounded(exchange);
    if (body == null) {
      LOG.warn("event=delivery_refused path={} status=413 remote={} reason=\"body over {} bytes\"", path, remote,
          MAX_BODY_BYTES);
      exchange.getResponseHeaders().set("Connection", "close");
      return Reply.error(413, "body over " + MAX_BODY_BYTES + " bytes; a push notification is far smaller");
    }
    SecretLookup shared = secret.current();
    if (!shared.isFound()) {
      LOG.warn("event=delivery_refused path={} status=401 remote={} reason=\"{}\"", path, remote, shared.problem());
      // The caller is not authenticated: the details (Secret names) stay in the operator's log.
      return Reply.error(401, "the receiver has no shared secret configured; see the operator's log");
    }
    Verdict verdict = route.read(exchange, body, shared.value());
    if (verdict instanceof Verdict.Refused refused) {
      LOG.warn("event=delivery_refused path={} status=401 remote={} reason=\"{}\"", path, remote, refused.reason());
      return Reply.error(401, refused.reason());
    }
    if (verdict instanceof Verdict.Malformed malformed) {
      LOG.warn("event=delivery_malformed path={} status=400 remote={} reason=\"{}\"", path, remote, malformed.reason());
      return Reply.error(400, malformed.reason());
    }
    if (verdict instanceof Verdict.Ignored ignored) {
      LOG.info("event=delivery_ignored path={} status=202 reason=\"{}\"", path, ignored.reason());
      return new Reply(202, Map.of("ignored", ignored.reason()));
    }
    PushNotice notice = ((Verdict.Accepted) verdict).notice();
    Optional<String> replayed = seen.seenBefore(route.deliveryKeys(exchange, body));
    if (replayed.isPresent()) {
      // 202, not an error: senders such as a registry retry any other answer, and re-sending changes nothing
      LOG.warn("event=delivery_replayed path={} status=202 remote={} key=\"{}\" notice=\"{}\"", path, remote,
          replayed.get(), notice.describe());
      return new Reply(202, Map.of("ignored", "this delivery was already received in the last "
          + SeenDeliveries.WINDOW.toMinutes() + " minutes; nothing re-checked"));
    }
    Rechecks rechecks = recheck(notice);
    if (notice instanceof RegistryPush && !rechecks.isEmpty()) {
      later.schedule(() -> recheckAgain(notice), tagSettle.toMillis(), TimeUnit.MILLISECONDS);
    }
    LOG.info("event=push_received path={} status=202 notice=\"{}\" rechecked_bundles={} rechecked_catalog_sources={}",
        path, notice.describe(), String.join(",", rechecks.bundleNames()), String.join(",", rechecks.catalogSourceNames()));
    // counts only: the caller may be anyone who holds a delivery, and object names stay in the operator's log
    Map<String, Object> rechecked = new LinkedHashMap<>();
    rechecked.put("composedBundles", rechecks.bundleNames().size());
    rechecked.put("catalogSources", rechecks.catalogSourceNames().size());
    if (notice instanceof GitPush git) {
      rechecked.put("pipelines", runPipelines(git));
    }
    return new Reply(202, Map.of("rechecked", rechecked));
  }

  // A Team's pipeline with triggers.push builds on its cell; a parked cell is woken first (docs/pipelines.md).
  private int runPipelines(GitPush push) {
    List<PushMatcher.PushedPipeline> pipelines;
    try {
      pipelines = PushMatcher.pipelines(push, targets.teams());
    } catch (RuntimeException e) {
      LOG.warn("event=push_pipelines_unread notice=\"{}\" error=\"{}\"", push.describe(), e.toString());
      return 0;
    }
    for (PushMatcher.PushedPipeline pipeline : pipelines) {
      String outcome;
      try {
        outcome = targets.run(pipeline.team(), pipeline.pipeline(), push.describe());
      } catch (RuntimeException e) {
        outcome = "failed: " + e;
      }
      LOG.info("event=push_pipeline_run pipeline={} notice=\"{}\" outcome=\"{}\"", pipeline.describe(),
          push.describe(), outcome);
    }
    return pipelines.size();
  }

  private Rechecks recheck(PushNotice notice) {
    List<ComposedBundle> bundles = targets.bundles();
    List<CatalogSource> sources = targets.catalogSources();
    Rechecks rechecks = PushMatcher.match(notice, bundles, sources);
    String why = notice.describe() + "; sources re-checked now";
    bundles.stream().filter(b -> rechecks.bundles().contains(ResourceID.fromResource(b)))
        .forEach(b -> targets.recheck(b, why));
    sources.stream().filter(s -> rechecks.catalogSources().contains(ResourceID.fromResource(s)))
        .forEach(s -> targets.recheck(s, why));
    return rechecks;
  }

  private void recheckAgain(PushNotice notice) {
    try {
      Rechecks again = recheck(notice);
      LOG.info("event=push_rechecked_again notice=\"{}\" rechecked_bundles={} rechecked_catalog_sources={}",
          notice.describe(), String.join(",", again.bundleNames()), String.join(",", again.catalogSourceNames()));
    } catch (RuntimeException e) {
      LOG.warn("event=push_recheck_again_failed notice=\"{}\" error=\"{}\"", notice.describe(), e.toString());
    }
  }

  private static byte[] readBounded(HttpExchange exchange) throws IOException {
    return BoundedBody.read(exchange, MAX_BODY_BYTES);
  }

  /** The two hooks and the reader of each. */
  private enum Route {
    GIT(GIT_PATH) {
      @Override
      Verdict read(HttpExchange exchange, byte[] body, byte[] secret) {
        return GitDeliveryReader.read(exchange.getRequestHeaders(), body, secret);
      }

      @Override
      List<String> deliveryIds(HttpExchange exchange, byte[] body) {
        return GitProvider.of(exchange.getRequestHeaders())
            .map(provider -> exchange.getRequestHeaders().getFirst(provider.deliveryHeader()))
            .filter(id -> !id.isBlank()).map(id -> List.of(id.strip())).orElse(List.of());
      }
    },
    REGISTRY(REGISTRY_PATH) {
      @Override
      Verdict read(HttpExchange exchange, byte[] body, byte[] secret) {
        return RegistryDeliveryReader.read(exchange.getRequestHeaders(), body, secret);
      }

      @Override
      List<String> deliveryIds(HttpExchange exchange, byte[] body) {
        return RegistryDeliveryReader.eventIds(body);
      }
    };

    private final String path;

    Route(String path) {
      this.path = path;
    }

    abstract Verdict read(HttpExchange exchange, byte[] body, byte[] secret);

    /** The ids the sender gives this delivery (a Git host's delivery header, a registry's event ids). */
    abstract List<String> deliveryIds(HttpExchange exchange, byte[] body);

    /** What a replay shares with the original: its ids, and its body, which alone the signature covers. */
    List<String> deliveryKeys(HttpExchange exchange, byte[] body) {
      List<String> keys = new ArrayList<>();
      deliveryIds(exchange, body).forEach(id -> keys.add(name() + " delivery " + id));
      keys.add(name() + " body sha256:" + DeliveryAuthentication.sha256Hex(body));
      return keys;
    }
  }

  /** A status and the JSON body answering it. */
  private record Reply(int status, Map<String, Object> body) {
    static Reply error(int status, String message) {
      return new Reply(status, Map.of("error", message));
    }
  }
}

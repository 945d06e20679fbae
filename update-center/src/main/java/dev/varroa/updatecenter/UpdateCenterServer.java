package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.updatecenter.archive.CorruptArchiveException;
import dev.varroa.updatecenter.archive.PluginArchive;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The update center's HTTP service:
 * <ul>
 *   <li>{@code GET /update-center.json}: the signed document, JSONP-wrapped as Jenkins' own;</li>
 *   <li>{@code GET /update-center.actual.json}: the same document as plain JSON;</li>
 *   <li>{@code GET /plugin-versions.json}: every held version, for jenkins-plugin-cli;</li>
 *   <li>{@code GET /download/plugins/<id>/<version>/<id>.hpi}: a held plugin;</li>
 *   <li>{@code GET /status.json}: what is held, wanted and missing, for the operator;</li>
 *   <li>{@code POST /import}: a plugin archive, with {@code Authorization: Bearer <import-token>};</li>
 *   <li>{@code GET /healthz}.</li>
 * </ul>
 * Documents are rebuilt by a sync every interval, after an import, and on {@link #syncNow()}. At start
 * the service answers from what the storage holds at once; the first fetch from the upstream follows
 * in the background, so a long download never fails the pod's probes.
 */
public final class UpdateCenterServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UpdateCenterServer.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DOWNLOAD_PREFIX = "/download/plugins/";
  /**
   * Jenkins and jenkins-plugin-cli download in parallel, hence the threads; an imported archive may be large and come
   * over a slow link, hence the body times, which still cut off an upload that stops.
   */
  static final ListenerLimits LIMITS = new ListenerLimits(Duration.ofSeconds(10), Duration.ofSeconds(60),
      Duration.ofMinutes(30), 8, 64);

  private final UpdateCenterSettings settings;
  private final PluginSync sync;
  private final AtomicReference<Holdings> holdings = new AtomicReference<>();
  private final ReentrantLock syncing = new ReentrantLock();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread thread = new Thread(r, "update-center-sync");
    thread.setDaemon(true);
    return thread;
  });
  private LimitedHttpServer http;

  public UpdateCenterServer(UpdateCenterSettings settings) {
    this.settings = settings;
    PluginStore store = new PluginStore(settings.storage());
    Optional<UpstreamSite> upstream = settings.upstream().map(u -> new UpstreamSite(u, settings.upstreamPluginVersions()));
    this.sync = new PluginSync(store, settings.wantedFile(), upstream, settings.siteId(), settings.baseUrl(),
        new SigningFolder(settings.signingFolder()));
  }

  /** Reads the storage, binds the port, and schedules the syncs (the first at once). Returns the bound port. */
  public int start() throws IOException {
    Files.createDirectories(settings.storage());
    sync.store().clearIncoming();
    syncing.lock();
    try {
      holdings.set(sync.run(false));
    } finally {
      syncing.unlock();
    }
    http = LimitedHttpServer.bind("update-center-http", new InetSocketAddress(settings.port()), LIMITS);
    http.route("/", this::handle);
    http.start();
    long every = settings.syncInterval().toMillis();
    scheduler.scheduleWithFixedDelay(this::scheduledSync, 0, every, TimeUnit.MILLISECONDS);
    LOG.info("event=update_center_started port={} storage={} base_url={} upstream={} held={} missing={}", port(),
        settings.storage(), settings.baseUrl(), settings.upstream().map(Object::toString).orElse("none"),
        holdings.get().held().size(), holdings.get().missing().size());
    return port();
  }

  public int port() {
    return http.port();
  }

  /** What is served now. */
  public Holdings holdings() {
    return holdings.get();
  }

  /** Reads the wanted list and the storage again, fetches what is missing, and serves the result. */
  public Holdings syncNow() throws IOException {
    syncing.lock();
    try {
      Holdings next = sync.run();
      Holdings previous = holdings.getAndSet(next);
      if (previous == null || !previous.held().keySet().equals(next.held().keySet())
          || !previous.missing().equals(next.missing())) {
        LOG.info("event=holdings_changed held={} wanted={} missing={}", next.held().size(), next.wanted().size(),
            next.missing().size());
      }
      return next;
    } finally {
      syncing.unlock();
    }
  }

  private void scheduledSync() {
    try {
      syncNow();
    } catch (IOException | RuntimeException e) {
      LOG.warn("event=sync_failed reason=\"{}\" effect=\"the last documents stay served\"", e.getMessage());
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      if (method.equals("POST") && path.equals("/import")) {
        importArchive(exchange);
        return;
      }
      if (!method.equals("GET") && !method.equals("HEAD")) {
        send(exchange, 405, "text/plain", "only GET, HEAD and POST /import\n".getBytes(StandardCharsets.UTF_8));
        return;
      }
      Holdings now = holdings.get();
      switch (path) {
        case "/", "/healthz" -> send(exchange, 200, "text/plain", "ok\n".getBytes(StandardCharsets.UTF_8));
        case "/update-center.json" -> send(exchange, 200, "application/javascript", now.updateCenterJsonp());
        case "/update-center.actual.json" -> send(exchange, 200, "application/json", now.updateCenterJson());
        case "/plugin-versions.json" -> send(exchange, 200, "application/json", now.pluginVersionsJson());
        case "/status.json" -> send(exchange, 200, "application/json", now.statusJson());
        default -> {
          if (path.startsWith(DOWNLOAD_PREFIX)) {
            download(exchange, path.substring(DOWNLOAD_PREFIX.length()), now);
          } else {
            send(exchange, 404, "text/plain", ("no " + path + " here\n").getBytes(StandardCharsets.UTF_8));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("event=request_failed path={} reason=\"{}\"", exchange.getRequestURI().getPath(), e.getMessage());
    }
  }

  private void download(HttpExchange exchange, String rest, Holdings now) throws IOException {
    String[] parts = rest.split("/");
    Optional<HeldPlugin> plugin = Optional.empty();
    if (parts.length == 3) {
      try {
        PluginCoordinates coordinates = new PluginCoordinates(parts[0], parts[1]);
        if (parts[2].equals(coordinates.fileName())) {
          plugin = Optional.ofNullable(now.held().get(coordinates));
        }
      } catch (IllegalArgumentException e) {
        plugin = Optional.empty();
      }
    }
    if (plugin.isEmpty() || !Files.isRegularFile(plugin.get().file())) {
      send(exchange, 404, "text/plain", ("this update center does not hold " + rest + "\n")
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    Path file = plugin.get().file();
    exchange.getResponseHeaders().set("Content-Type", "application/java-archive");
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(200, head ? -1 : Files.size(file));
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        Files.copy(file, out);
      }
    }
  }

  private void importArchive(HttpExchange exchange) throws IOException {
    Optional<String> token = importToken();
    if (token.isEmpty()) {
      send(exchange, 403, "text/plain", ("import over HTTP is off: " + settings.importTokenFile() + " does not exist;"
          + " fix: mount the UpdateCenter's signing Secret with its import-token key\n").getBytes(StandardCharsets.UTF_8));
      return;
    }
    String header = exchange.getRequestHeaders().getFirst("Authorization");
    byte[] presented = header != null && header.startsWith("Bearer ")
        ? header.substring("Bearer ".length()).strip().getBytes(StandardCharsets.UTF_8) : new byte[0];
    if (!MessageDigest.isEqual(presented, token.get().getBytes(StandardCharsets.UTF_8))) {
      send(exchange, 401, "text/plain", "a valid Authorization: Bearer <import-token> is required\n"
          .getBytes(StandardCharsets.UTF_8));
      return;
    }
    List<HeldPlugin> imported;
    try (InputStream body = exchange.getRequestBody()) {
      imported = PluginArchive.importInto(body, "the uploaded archive", sync.store());
    } catch (CorruptArchiveException e) {
      send(exchange, 400, "text/plain", (e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8));
      return;
    }
    syncNow();
    ObjectNode answer = JSON.createObjectNode();
    ArrayNode list = answer.putArray("imported");
    imported.forEach(p -> list.add(p.coordinates().toString()));
    LOG.info("event=archive_imported plugins={}", imported.size());
    send(exchange, 200, "application/json", JSON.writeValueAsBytes(answer));
  }

  private Optional<String> importToken() throws IOException {
    Path file = settings.importTokenFile();
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    String token = Files.readString(file, StandardCharsets.UTF_8).strip();
    return token.isEmpty() ? Optional.empty() : Optional.of(token);
  }

  private static void send(HttpExchange exchange, int code, String type, byte[] body) throws IOException {
    exchange.getResponseHeaders().set("Content-Type", type + "; charset=utf-8");
    boolean head = exchange.getRequestMethod().equals("HEAD");
    exchange.sendResponseHeaders(code, head ? -1 : body.length);
    if (!head) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    if (http != null) {
      http.close();
    }
  }
}

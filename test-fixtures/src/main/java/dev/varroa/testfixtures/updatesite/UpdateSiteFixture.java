package dev.varroa.testfixtures.updatesite;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A connected update site on loopback, laid out as the Jenkins project's (update-center2's output):
 * {@code /update-center.json} (JSONP-wrapped, the newest version of each plugin), {@code
 * /update-center.actual.json}, {@code /plugin-versions.json} (every version) and {@code
 * /download/plugins/<id>/<version>/<id>.hpi}. It can serve bytes that do not match the published
 * SHA-256, to play a damaged mirror.
 */
public final class UpdateSiteFixture implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final Map<String, FixturePlugin> plugins = new ConcurrentHashMap<>();
  private final Set<String> corrupted = ConcurrentHashMap.newKeySet();
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private UpdateSiteFixture(HttpServer server) {
    this.server = server;
  }

  /** Starts on a free loopback port serving the plugins. */
  public static UpdateSiteFixture start(FixturePlugin... plugins) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      UpdateSiteFixture site = new UpdateSiteFixture(server);
      for (FixturePlugin plugin : plugins) {
        site.add(plugin);
      }
      server.createContext("/", site::handle);
      server.start();
      return site;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the update site fixture", e);
    }
  }

  public void add(FixturePlugin plugin) {
    plugins.put(plugin.coordinates(), plugin);
  }

  /** From now on the download of this plugin serves other bytes than its published SHA-256 says. */
  public void corrupt(FixturePlugin plugin) {
    corrupted.add(plugin.coordinates());
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The JSONP update-center.json, what an UpdateCenter's upstream.url names. */
  public URI updateCenterUrl() {
    return URI.create(baseUrl() + "/update-center.json");
  }

  /** Paths requested so far, in order. */
  public List<String> requests() {
    return Collections.unmodifiableList(new ArrayList<>(requests));
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      requests.add(path);
      switch (path) {
        case "/update-center.json" -> send(exchange, 200, ("updateCenter.post(\n" + updateCenter() + "\n);")
            .getBytes(StandardCharsets.UTF_8));
        case "/update-center.actual.json" -> send(exchange, 200, updateCenter().getBytes(StandardCharsets.UTF_8));
        case "/plugin-versions.json" -> send(exchange, 200, pluginVersions().getBytes(StandardCharsets.UTF_8));
        default -> download(exchange, path);
      }
    }
  }

  private void download(HttpExchange exchange, String path) throws IOException {
    String prefix = "/download/plugins/";
    String[] parts = path.startsWith(prefix) ? path.substring(prefix.length()).split("/") : new String[0];
    FixturePlugin plugin = parts.length == 3 ? plugins.get(parts[0] + ":" + parts[1]) : null;
    if (plugin == null || !parts[2].equals(plugin.id() + ".hpi")) {
      send(exchange, 404, ("not found: " + path).getBytes(StandardCharsets.UTF_8));
      return;
    }
    byte[] bytes = plugin.bytes();
    if (corrupted.contains(plugin.coordinates())) {
      bytes[bytes.length / 2] ^= 0x5a;
    }
    send(exchange, 200, bytes);
  }

  private String updateCenter() {
    ObjectNode root = JSON.createObjectNode();
    root.put("connectionCheckUrl", "https://www.google.com/");
    root.put("id", "default");
    root.put("updateCenterVersion", "1");
    ObjectNode entries = root.putObject("plugins");
    Map<String, FixturePlugin> newest = new java.util.TreeMap<>();
    plugins.values().forEach(p -> newest.merge(p.id(), p, (a, b) -> compare(a.version(), b.version()) >= 0 ? a : b));
    newest.forEach((id, plugin) -> entries.set(id, entry(plugin)));
    return root.toString();
  }

  private String pluginVersions() {
    ObjectNode root = JSON.createObjectNode();
    root.put("updateCenterVersion", "1");
    ObjectNode entries = root.putObject("plugins");
    plugins.values().stream().sorted(java.util.Comparator.comparing(FixturePlugin::coordinates))
        .forEach(p -> (entries.has(p.id()) ? (ObjectNode) entries.get(p.id()) : entries.putObject(p.id()))
            .set(p.version(), entry(p)));
    return root.toString();
  }

  private ObjectNode entry(FixturePlugin plugin) {
    ObjectNode entry = JSON.createObjectNode();
    entry.put("name", plugin.id());
    entry.put("version", plugin.version());
    entry.put("title", plugin.title());
    entry.put("requiredCore", plugin.requiredCore());
    entry.put("url", baseUrl() + "/download/plugins/" + plugin.id() + "/" + plugin.version() + "/" + plugin.id() + ".hpi");
    entry.put("sha1", plugin.sha1Base64());
    entry.put("sha256", plugin.sha256Base64());
    ArrayNode dependencies = entry.putArray("dependencies");
    for (String dependency : plugin.dependencies()) {
      String[] parts = dependency.split(";")[0].split(":");
      dependencies.addObject().put("name", parts[0]).put("version", parts[1])
          .put("optional", dependency.contains("resolution:=optional"));
    }
    return entry;
  }

  private static int compare(String a, String b) {
    String[] left = a.split("\\.");
    String[] right = b.split("\\.");
    for (int i = 0; i < Math.min(left.length, right.length); i++) {
      int order = left[i].matches("\\d+") && right[i].matches("\\d+")
          ? Long.compare(Long.parseLong(left[i]), Long.parseLong(right[i])) : left[i].compareTo(right[i]);
      if (order != 0) {
        return order;
      }
    }
    return Integer.compare(left.length, right.length);
  }

  private static void send(HttpExchange exchange, int code, byte[] body) throws IOException {
    exchange.sendResponseHeaders(code, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

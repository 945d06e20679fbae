package dev.varroa.bundle.source;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP proxy in front of a fixture that records every request line, so tests can count
 * ls-remotes and fetches by what crossed the wire (each smart-HTTP connection starts with one
 * GET …/info/refs), and can demand an Authorization header the fixture itself does not check.
 */
final class CountingHttpProxy implements AutoCloseable {
  private static final Set<String> HOP_BY_HOP =
      Set.of("connection", "content-length", "expect", "host", "upgrade", "transfer-encoding", "keep-alive");

  private final HttpServer server;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI target;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private volatile String requiredAuthorization;

  private CountingHttpProxy(URI target) throws IOException {
    this.target = target;
    this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::forward);
    server.start();
  }

  /** Proxies to the scheme, host and port of {@code anyTargetUrl}. */
  static CountingHttpProxy inFrontOf(String anyTargetUrl) throws IOException {
    URI uri = URI.create(anyTargetUrl);
    return new CountingHttpProxy(URI.create(uri.getScheme() + "://" + uri.getAuthority()));
  }

  /** The same URL, through this proxy. */
  String url(String targetUrl) {
    return targetUrl.replace(target.getAuthority(), "127.0.0.1:" + server.getAddress().getPort());
  }

  /** How many connections a Git client opened since the last reset (ls-remote: one; fetch: one). */
  long gitConnections() {
    return requests.stream().filter(r -> r.startsWith("GET ") && r.contains("/info/refs")).count();
  }

  /** From now on, answers 401 unless a request carries exactly this Authorization header. */
  CountingHttpProxy requireAuthorization(String headerValue) {
    this.requiredAuthorization = headerValue;
    return this;
  }

  List<String> requests() {
    return List.copyOf(requests);
  }

  void reset() {
    requests.clear();
  }

  private void forward(HttpExchange exchange) throws IOException {
    requests.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
    try (exchange; InputStream body = exchange.getRequestBody()) {
      String required = requiredAuthorization;
      if (required != null && !required.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
        exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"varroa-test\"");
        exchange.sendResponseHeaders(401, -1);
        return;
      }
      HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
          .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body.readAllBytes()));
      exchange.getRequestHeaders().forEach((name, values) -> {
        if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT))) {
          values.forEach(value -> request.header(name, value));
        }
      });
      HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      response.headers().map().forEach((name, values) -> {
        if (!HOP_BY_HOP.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
          exchange.getResponseHeaders().put(name, values);
        }
      });
      byte[] bytes = response.body();
      exchange.sendResponseHeaders(response.statusCode(), bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while proxying " + exchange.getRequestURI(), e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

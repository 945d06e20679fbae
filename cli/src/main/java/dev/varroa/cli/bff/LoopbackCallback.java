package dev.varroa.cli.bff;

import com.nimbusds.oauth2.sdk.util.URLUtils;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The login's redirect target (RFC 8252 loopback redirect): a listener on 127.0.0.1 that takes the one
 * {@code /callback} carrying this login's state and hands its query to the waiting command.
 */
public final class LoopbackCallback implements AutoCloseable {

  public static final String PATH = "/callback";

  private final HttpServer server;
  private final String state;
  private final CompletableFuture<URI> answer = new CompletableFuture<>();

  private LoopbackCallback(HttpServer server, String state) {
    this.server = server;
    this.state = state;
  }

  /** @param port 0 for any free port */
  public static LoopbackCallback listen(int port, String state) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    } catch (IOException e) {
      throw BffFailure.local("cannot listen on 127.0.0.1:" + port + " for the login's redirect: " + e.getMessage()
          + "; fix: free the port or give another with --listen-port (the provider must accept"
          + " http://localhost:PORT/callback)");
    }
    LoopbackCallback callback = new LoopbackCallback(server, state);
    server.createContext(PATH, callback::handle);
    server.start();
    return callback;
  }

  /** The redirect URI to register and to send: localhost, as the provider's client lists it. */
  public URI redirectUri() {
    return URI.create("http://localhost:" + server.getAddress().getPort() + PATH);
  }

  /** The callback as the browser sent it (its query: code and state, or error), against {@link #redirectUri()}. */
  public URI await(Duration wait) {
    try {
      return answer.get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw BffFailure.local("no login came back to " + redirectUri() + " within " + wait.toMinutes()
          + " minutes; run varroactl login again");
    } catch (ExecutionException e) {
      throw BffFailure.local("the login's redirect failed: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BffFailure.local("interrupted while waiting for the login");
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> query = query(exchange.getRequestURI());
    if (!"GET".equals(exchange.getRequestMethod()) || !state.equals(query.get("state"))) {
      // someone else's request (a stale tab, a port scan): not this login's answer
      reply(exchange, 400, "This is not the answer to the varroactl login that is waiting.");
      return;
    }
    boolean ok = query.containsKey("code") && !query.containsKey("error");
    reply(exchange, ok ? 200 : 400, ok ? "varroactl is logged in. You can close this window."
        : "The login failed: " + query.getOrDefault("error", "no code") + ". See varroactl's output.");
    answer.complete(redirectUri().resolve(exchange.getRequestURI().getRawPath() + "?"
        + exchange.getRequestURI().getRawQuery()));
  }

  private static void reply(HttpExchange exchange, int status, String text) throws IOException {
    byte[] body = ("<!doctype html><title>varroactl login</title><p>" + text.replace("<", "&lt;") + "</p>\n")
        .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static Map<String, String> query(URI uri) {
    Map<String, String> values = new LinkedHashMap<>();
    URLUtils.parseParameters(uri.getRawQuery()).forEach((key, all) -> values.put(key, all.isEmpty() ? "" : all.get(0)));
    return values;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

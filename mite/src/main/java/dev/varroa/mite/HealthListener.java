package dev.varroa.mite;

import com.sun.net.httpserver.HttpExchange;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelet's view of the mite on 0.0.0.0:9096: {@code /readyz} (the startup probe that holds
 * Jenkins back until the first desired state is applied) and {@code /healthz}. Nothing else: the drain
 * lives on the loopback listener, behind its token, so no other pod can put Jenkins in quiet-down.
 */
final class HealthListener implements AutoCloseable {

  static final String READY_PATH = "/readyz";
  static final String HEALTH_PATH = "/healthz";
  /** Probes answer at once; a client that stops sending holds one of these threads for the header time at most. */
  static final ListenerLimits LIMITS = ListenerLimits.PROBES;

  private static final Logger LOG = LoggerFactory.getLogger(HealthListener.class);

  private final LimitedHttpServer server;

  HealthListener(int port, BooleanSupplier ready) throws IOException {
    server = LimitedHttpServer.bind("mite-health", new InetSocketAddress("0.0.0.0", port), LIMITS);
    server.route("/", exchange -> {
      try (exchange) {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        boolean read = method.equals("GET") || method.equals("HEAD");
        switch (path) {
          case READY_PATH -> {
            if (!read) {
              answer(exchange, 405, "method not allowed\n");
            } else if (ready.getAsBoolean()) {
              answer(exchange, 200, "ready\n");
            } else {
              answer(exchange, 503, "waiting for the first desired state\n");
            }
          }
          case HEALTH_PATH -> answer(exchange, read ? 200 : 405, read ? "ok\n" : "method not allowed\n");
          default -> answer(exchange, 404, "not found\n");
        }
      } catch (IOException | RuntimeException e) {
        LOG.warn("event=health_request_failed error={}", e.getClass().getSimpleName());
      }
    });
    server.start();
  }

  int port() {
    return server.port();
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type",
        body.startsWith("{") ? "application/json" : "text/plain; charset=utf-8");
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}

package dev.varroa.recorder;

import com.sun.net.httpserver.HttpExchange;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The kubelet's view of the recorder: {@code /healthz} answers while the process runs, {@code /readyz} only
 * while it is connected to NATS and PostgreSQL (else 503 naming what is missing).
 */
final class HealthEndpoint implements AutoCloseable {

  private final LimitedHttpServer server;

  /** @param notReady empty when ready, else what the recorder waits for */
  HealthEndpoint(int port, Supplier<Optional<String>> notReady) throws IOException {
    server = LimitedHttpServer.bind("recorder-health", new InetSocketAddress(port), ListenerLimits.PROBES);
    server.route("/", exchange -> {
      try (exchange) {
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
          answer(exchange, 405, "method not allowed\n");
          return;
        }
        switch (exchange.getRequestURI().getPath()) {
          case "/healthz" -> answer(exchange, 200, "ok\n");
          case "/readyz" -> {
            Optional<String> missing = notReady.get();
            answer(exchange, missing.isEmpty() ? 200 : 503, missing.map(m -> m + "\n").orElse("ready\n"));
          }
          default -> answer(exchange, 404, "not found\n");
        }
      }
    });
    server.start();
  }

  int port() {
    return server.port();
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
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

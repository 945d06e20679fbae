package dev.varroa.operator;

import com.sun.net.httpserver.HttpExchange;
import dev.varroa.protocol.http.LimitedHttpServer;
import dev.varroa.protocol.http.ListenerLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * /healthz and /readyz while the operator waits for what it needs before it can run (NATS, on a first install
 * started only after the operator has made its Secrets): alive, not ready. Closed before the operator's own
 * endpoint takes the port.
 */
final class WaitingHealthEndpoint implements AutoCloseable {
  private final LimitedHttpServer server;

  private WaitingHealthEndpoint(LimitedHttpServer server) {
    this.server = server;
  }

  static WaitingHealthEndpoint serve(int port, String waitingFor) throws IOException {
    LimitedHttpServer server = LimitedHttpServer.bind("operator-waiting", new InetSocketAddress(port),
        ListenerLimits.PROBES);
    server.route("/healthz", exchange -> respond(exchange, 200, "ok\n"));
    server.route("/readyz", exchange -> respond(exchange, 503, "waiting for " + waitingFor + "\n"));
    server.start();
    return new WaitingHealthEndpoint(server);
  }

  int port() {
    return server.port();
  }

  @Override
  public void close() {
    server.close();
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}

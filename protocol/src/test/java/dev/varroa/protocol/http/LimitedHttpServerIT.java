package dev.varroa.protocol.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import dev.varroa.testfixtures.http.StalledClients;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class LimitedHttpServerIT {
  private static final Duration LIMIT = Duration.ofSeconds(1);
  private static final ListenerLimits SHORT = new ListenerLimits(LIMIT, LIMIT, Duration.ofSeconds(3), 4, 4);

  private LimitedHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void cutsOffClientsThatStopInTheHeadersAndKeepsAnsweringOthers() throws IOException {
    start(SHORT);
    try (StalledClients stalled = StalledClients.open(server.port(), 3, StalledClients.HALF_HEADERS)) {
      assertThat(StalledClients.statusOf(url("/ping"), LIMIT.dividedBy(2))).isEqualTo(200);
      assertThat(stalled.closedByServer()).as("not cut before the limit").isZero();
      await().atMost(LIMIT.plusSeconds(2)).until(stalled::allClosedByServer);
    }
  }

  @Test
  void cutsOffClientThatStopsInTheBodyAndFreesItsThread() throws IOException {
    start(SHORT.withThreads(1));
    String halfBody = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"partial\":";
    try (StalledClients stalled = StalledClients.open(server.port(), 1, halfBody)) {
      await().atMost(LIMIT.plusSeconds(2)).until(stalled::allClosedByServer);
    }
    assertThat(StalledClients.statusOf(url("/ping"), LIMIT)).isEqualTo(200);
  }

  @Test
  void cutsOffClientThatTricklesItsBodyPastTheBodyTime() throws IOException {
    start(new ListenerLimits(LIMIT, Duration.ofSeconds(5), Duration.ofSeconds(1), 1, 0));
    String head = "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n";
    try (StalledClients trickling = StalledClients.open(server.port(), 1, head)) {
      // a byte every 200 ms is within the idle time, never within the body time
      await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(200))
          .until(() -> {
            trickling.sendMore("x");
            return trickling.allClosedByServer();
          });
    }
  }

  @Test
  void closesConnectionsBeyondItsThreadsAndQueueAndServesAgainOnceCutOff() throws IOException {
    start(new ListenerLimits(LIMIT, LIMIT, LIMIT, 1, 0));
    try (StalledClients stalled = StalledClients.open(server.port(), 1, StalledClients.HALF_HEADERS)) {
      await().atMost(Duration.ofSeconds(2)).untilAsserted(() ->
          assertThatThrownBy(() -> StalledClients.statusOf(url("/ping"), LIMIT)).isInstanceOf(IOException.class));
      await().atMost(LIMIT.plusSeconds(2)).until(stalled::allClosedByServer);
    }
    await().atMost(Duration.ofSeconds(2)).until(() -> StalledClients.statusOf(url("/ping"), LIMIT) == 200);
  }

  @Test
  void leavesAHandlerThatWorksLongerThanTheLimitsAlone() throws IOException {
    start(SHORT);
    assertThat(StalledClients.statusOf(url("/slow"), Duration.ofSeconds(5))).isEqualTo(200);
  }

  @Test
  void refusesLimitsThatCannotWork() {
    assertThatThrownBy(() -> SHORT.withThreads(0)).hasMessageContaining("threads is 0; fix: at least 1");
    assertThatThrownBy(() -> SHORT.withRequestHeaderTime(Duration.ZERO))
        .hasMessageContaining("requestHeaderTime is PT0S; fix: a positive duration");
  }

  private void start(ListenerLimits limits) throws IOException {
    server = LimitedHttpServer.bind("test", new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), limits);
    server.route("/ping", exchange -> answer(exchange, "pong"));
    server.route("/echo", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        answer(exchange, new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    });
    server.route("/slow", exchange -> {
      try {
        // work (not a read from the client) that outlasts every limit: never cut off
        Thread.sleep(LIMIT.multipliedBy(2).toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted", e);
      }
      answer(exchange, "done");
    });
    server.start();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.port() + path;
  }

  private static void answer(HttpExchange exchange, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}

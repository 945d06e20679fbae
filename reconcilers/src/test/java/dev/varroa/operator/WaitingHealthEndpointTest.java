package dev.varroa.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.testfixtures.http.StalledClients;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WaitingHealthEndpointTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aliveButNotReadyWhileWaitingAndThePortIsFreeAfter() throws Exception {
    int port;
    try (WaitingHealthEndpoint waiting = WaitingHealthEndpoint.serve(0, "NATS")) {
      port = waiting.port();
      assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
      HttpResponse<String> ready = get(port, "/readyz");
      assertThat(ready.statusCode()).isEqualTo(503);
      assertThat(ready.body()).contains("waiting for NATS");
    }
    // the operator's own endpoint binds the same port next
    try (WaitingHealthEndpoint again = WaitingHealthEndpoint.serve(port, "NATS")) {
      assertThat(again.port()).isEqualTo(port);
    }
  }

  @Test
  void livenessAnswersWhileClientsHoldHalfSentRequestsAndTheyAreCutOff() throws Exception {
    ListenerLimits limits = ListenerLimits.PROBES;
    try (WaitingHealthEndpoint waiting = WaitingHealthEndpoint.serve(0, "NATS");
        StalledClients stalled = StalledClients.open(waiting.port(), limits.threads() - 1,
            StalledClients.HALF_HEADERS)) {
      assertThat(StalledClients.statusOf("http://127.0.0.1:" + waiting.port() + "/healthz", Duration.ofSeconds(1)))
          .isEqualTo(200);
      await().atMost(limits.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
  }
}

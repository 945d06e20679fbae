package dev.varroa.operator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
}

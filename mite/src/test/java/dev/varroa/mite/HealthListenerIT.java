package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.testfixtures.http.StalledClients;
import java.time.Duration;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The kubelet's probes; the drain moved to the loopback listener (LoopbackListenerIT). */
class HealthListenerIT {

  private final HttpClient http = HttpClient.newHttpClient();
  private HealthListener listener;

  @AfterEach
  void tearDown() {
    if (listener != null) {
      listener.close();
    }
  }

  private HttpResponse<String> call(String method, String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + path))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void answersReadyOnlyOnceReady() throws Exception {
    AtomicBoolean ready = new AtomicBoolean();
    listener = new HealthListener(0, ready::get);

    assertThat(call("GET", "/readyz").statusCode()).isEqualTo(503);
    assertThat(call("GET", "/healthz").statusCode()).isEqualTo(200);
    ready.set(true);
    assertThat(call("GET", "/readyz").statusCode()).isEqualTo(200);
    assertThat(call("POST", "/readyz").statusCode()).isEqualTo(405);
    assertThat(call("GET", "/nope").statusCode()).isEqualTo(404);
  }

  @Test
  void servesNoDrainAnyMore() throws Exception {
    listener = new HealthListener(0, () -> true);

    assertThat(call("POST", "/drain").statusCode()).isEqualTo(404);
    assertThat(call("GET", "/drain").statusCode()).isEqualTo(404);
  }

  @Test
  void probesAnswerWhileClientsHoldHalfSentRequestsAndTheyAreCutOff() throws Exception {
    listener = new HealthListener(0, () -> true);

    try (StalledClients stalled = StalledClients.open(listener.port(), HealthListener.LIMITS.threads() - 1,
        StalledClients.HALF_HEADERS)) {
      assertThat(StalledClients.statusOf("http://127.0.0.1:" + listener.port() + "/readyz", Duration.ofSeconds(1)))
          .isEqualTo(200);
      await().atMost(HealthListener.LIMITS.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
  }

}

package dev.varroa.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.testfixtures.http.StalledClients;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The recorder's probe port against clients that stop part-way through a request. */
class HealthEndpointIT {

  @Test
  void probesAnswerWhileClientsHoldHalfSentRequestsAndTheyAreCutOff() throws Exception {
    ListenerLimits limits = ListenerLimits.PROBES;
    try (HealthEndpoint health = new HealthEndpoint(0, () -> Optional.of("waiting for PostgreSQL"));
        StalledClients stalled = StalledClients.open(health.port(), limits.threads() - 1,
            StalledClients.HALF_HEADERS)) {
      String base = "http://127.0.0.1:" + health.port();
      assertThat(StalledClients.statusOf(base + "/healthz", Duration.ofSeconds(1))).isEqualTo(200);
      assertThat(StalledClients.statusOf(base + "/readyz", Duration.ofSeconds(1))).isEqualTo(503);
      await().atMost(limits.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
  }
}

package dev.varroa.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.protocol.http.ListenerLimits;
import dev.varroa.testfixtures.http.StalledClients;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operator's health port (/healthz, /readyz, /metrics) against clients that stop part-way through a request. */
@WithKubeApiServer
class OperatorHealthPortIT {
  private static final ListenerLimits LIMITS = ListenerLimits.PROBES;

  @Test
  void livenessAnswersWhileClientsHoldHalfSentRequestsAndTheyAreCutOff(KubeApiServer kube, @TempDir Path cache)
      throws Exception {
    try (VarroaOperator operator = new VarroaOperator(kube.client(), OperatorSettings.defaults(cache), null)) {
      int port = operator.serveHttp(0);

      try (StalledClients stalled = StalledClients.open(port, LIMITS.threads() - 1, StalledClients.HALF_HEADERS)) {
        assertThat(StalledClients.statusOf("http://127.0.0.1:" + port + "/healthz", Duration.ofSeconds(1)))
            .isEqualTo(200);
        await().atMost(LIMITS.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
      }
      assertThat(StalledClients.statusOf("http://127.0.0.1:" + port + "/healthz", Duration.ofSeconds(1)))
          .isEqualTo(200);
    }
  }
}

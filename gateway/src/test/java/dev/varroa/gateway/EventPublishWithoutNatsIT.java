package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.builds.v1.ClaimRequest;
import dev.varroa.protocol.mite.v1.ClaimAnswer;
import dev.varroa.protocol.mite.v1.ClaimAsk;
import dev.varroa.protocol.mite.v1.MiteMessage;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.grpc.Status;
import io.nats.client.Connection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NATS stops under a connected mite: a claim is answered UNAVAILABLE at once, and a batch waits out the
 * publish wait, then ends the stream.
 */
class EventPublishWithoutNatsIT {

  private static final Duration SHORT_WAIT = Duration.ofMillis(1500);

  @TempDir
  Path directory;

  @Test
  void endsTheStreamUnavailableWhenNatsStaysAwayForThePublishWait() throws Exception {
    NatsServerProcess nats = NatsServerProcess.start();
    CertificateAuthority ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"),
        directory.resolve("ca-key.pem"));
    Gateway gateway = null;
    try (Connection operator = nats.value().connect()) {
      gateway = Gateway.start(GatewaySettings.of("gateway-alone", nats.value().url(), directory.resolve("ca.pem"),
              directory.resolve("ca-key.pem"))
          .withListen("127.0.0.1", 0)
          .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
          .withEventPublishWait(SHORT_WAIT));
      TestMite mite = TestMite.enroll(gateway, ca, new TokenIssuer(operator), RegistrationIT.newController());
      try (MiteStream stream = mite.connect(gateway, ca)) {
        stream.hello();

        nats.close();
        Gateway alone = gateway;
        await().atMost(Duration.ofSeconds(10)).until(() -> !alone.natsConnected());
        stream.send(MiteMessage.newBuilder().setClaim(ClaimAsk.newBuilder().setRequestId("req-offline")
            .setClaim(ClaimRequest.newBuilder().setRunId("run-offline").setJob("team/app/main"))).build());
        stream.send(BuildEvents.batch(BuildEvents.run("run-" + UUID.randomUUID(), 1, 1)));
        ClaimAnswer answer = stream.next(Duration.ofSeconds(10)).getClaimAnswer();
        Status status = stream.closed().get(SHORT_WAIT.toMillis() + 10_000, TimeUnit.MILLISECONDS);

        assertThat(answer.getRequestId()).isEqualTo("req-offline");
        assertThat(answer.getDecision().getCode()).isEqualTo("UNAVAILABLE");
        assertThat(answer.getDecision().getReason()).contains("no NATS connection");
        assertThat(status.getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(status.getDescription()).contains("event publish waited 1.5 s").contains("NATS is not connected");
        assertThat(stream.nothingReceived()).isTrue();
      }
    } finally {
      if (gateway != null) {
        gateway.crash();
      }
      nats.close();
    }
  }
}

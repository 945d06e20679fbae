package dev.varroa.protocol.bus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.testfixtures.nats.NatsServerProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.nats.client.Connection;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A component that starts before NATS answers (a first install starts them side by side) waits for it, instead of
 * exiting for the kubelet to restart it: a real nats-server started on the port the client was given after it began.
 */
class BusConnectionStartIT {

  @Test
  void aStartWaitsForNatsToAnswer() throws Exception {
    int port = LoopbackPort.pickFree();
    CompletableFuture<BusConnection> opening = CompletableFuture.supplyAsync(() -> {
      try {
        return BusConnection.open("start-test", "nats://127.0.0.1:" + port, BusCredentialFiles.none());
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    // the client is retrying against a closed port before the server exists
    await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> !opening.isDone());

    try (NatsServerProcess nats = NatsServerProcess.startOn(port)) {
      BusConnection bus = opening.get(BusConnection.START_WAIT.toSeconds(), TimeUnit.SECONDS);
      try {
        assertThat(bus.connection().getStatus()).isEqualTo(Connection.Status.CONNECTED);
      } finally {
        bus.close();
      }
    }
  }
}

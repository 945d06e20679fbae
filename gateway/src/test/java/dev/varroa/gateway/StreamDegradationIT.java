package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.MiteRoute;
import io.nats.client.Connection;
import io.nats.client.api.KeyValueEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MiteStreamDegraded: the gateway holds the stream but the bus refuses it something. */
class StreamDegradationIT {

  private static final String USER = "varroa-gateway";
  private static final String PASSWORD = "gateway-password";

  @TempDir
  Path directory;

  @Test
  void marksHeldRoutesDegradedWhenNatsDeniesTheCommandSubscription() throws Exception {
    try (PasswordProtectedNatsServer nats = PasswordProtectedNatsServer.start(USER, PASSWORD,
        List.of("varroa.gateway.*.*.commands"))) {
      CertificateAuthority ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"),
          directory.resolve("ca-key.pem"));
      Path userFile = Files.writeString(directory.resolve("user"), USER);
      Path passwordFile = Files.writeString(directory.resolve("password"), PASSWORD);
      try (Gateway gateway = Gateway.start(GatewaySettings.of("gateway-denied", nats.url(),
              directory.resolve("ca.pem"), directory.resolve("ca-key.pem"))
          .withListen("127.0.0.1", 0)
          .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
          .withNatsCredentialFiles(userFile, passwordFile));
          Connection operator = nats.connect(PASSWORD)) {
        TestMite mite = TestMite.enroll(gateway, ca, new TokenIssuer(operator), RegistrationIT.newController());
        try (MiteStream stream = mite.connect(gateway, ca)) {
          stream.hello();

          MiteRoute route = await().atMost(Duration.ofSeconds(10)).until(() -> {
            KeyValueEntry entry = operator.keyValue(BusNames.MITE_ROUTES_BUCKET).get(mite.identity().routeKey());
            return entry == null ? null : MiteRoute.parseFrom(entry.getValue());
          }, candidate -> candidate != null && candidate.getStreamDegraded());

          assertThat(route.getDegradedReason()).contains("Permissions Violation").contains("commands");
          assertThat(stream.closed()).isNotDone();
        }
      }
    }
  }
}

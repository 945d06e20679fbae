package dev.varroa.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.RefusalReason;
import io.grpc.Status;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway reads the NATS user and password from files at every (re)connect, so a rotated
 * password needs no restart, whichever of the server and the file changes first.
 */
class NatsCredentialRotationIT {

  private static final String USER = "varroa-gateway";
  private static final String FIRST_PASSWORD = "first-password";
  private static final String SECOND_PASSWORD = "second-password";
  private static final Duration RECOVERY = Duration.ofSeconds(60);

  @TempDir
  Path directory;

  private PasswordProtectedNatsServer nats;
  private CertificateAuthority ca;
  private Path passwordFile;
  private Gateway gateway;

  @BeforeEach
  void startGatewayWithPasswordFiles() throws Exception {
    nats = PasswordProtectedNatsServer.start(USER, FIRST_PASSWORD);
    ca = CertificateAuthority.createFiles(directory.resolve("ca.pem"), directory.resolve("ca-key.pem"));
    Path userFile = Files.writeString(directory.resolve("nats-user"), USER + "\n");
    passwordFile = Files.writeString(directory.resolve("nats-password"), FIRST_PASSWORD + "\n");
    gateway = Gateway.start(GatewaySettings.of("gateway-rotating", nats.url(), directory.resolve("ca.pem"),
            directory.resolve("ca-key.pem"))
        .withListen("127.0.0.1", 0)
        .withTlsNames(List.of("localhost"), List.of("127.0.0.1"))
        .withNatsCredentialFiles(userFile, passwordFile));
  }

  @AfterEach
  void stop() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    if (nats != null) {
      nats.close();
    }
  }

  @Test
  void reconnectsWithThePasswordFileRotatedAfterTheServerDroppedIt() throws Exception {
    try (Connection before = nats.connect(FIRST_PASSWORD)) {
      TestMite mite = TestMite.enroll(gateway, ca, new TokenIssuer(before), RegistrationIT.newController());
      try (MiteStream stream = mite.connect(gateway, ca)) {
        stream.hello();
        assertThat(command(before, mite.identity()).getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);

        nats.changePassword(SECOND_PASSWORD);
        try (Connection after = connectWhenAccepted(SECOND_PASSWORD)) {
          // The server dropped the gateway, and jnats gave up after the same auth error twice in a row:
          // only a new connection (made by the gateway, not jnats) can recover now.
          await().atMost(RECOVERY).until(() -> noResponders(after)
              && nats.authenticationErrors("varroa-gateway-gateway-rotating") >= 2);

          Files.writeString(passwordFile, SECOND_PASSWORD + "\n");

          await().atMost(RECOVERY).ignoreExceptions().until(() ->
              command(after, mite.identity()).getOutcome() == CommandResult.Outcome.SUCCEEDED);
          TestMite newcomer = TestMite.enroll(gateway, ca, new TokenIssuer(after), RegistrationIT.newController());
          assertThat(newcomer.chainPem()).isNotEmpty();
        }
      }
    }
  }

  @Test
  void usesThePasswordFileRotatedBeforeTheServerReloads() throws Exception {
    try (Connection before = nats.connect(FIRST_PASSWORD)) {
      TestMite mite = TestMite.enroll(gateway, ca, new TokenIssuer(before), RegistrationIT.newController());
      try (MiteStream stream = mite.connect(gateway, ca)) {
        stream.hello();

        Files.writeString(passwordFile, SECOND_PASSWORD + "\n");
        assertThat(command(before, mite.identity()).getOutcome()).isEqualTo(CommandResult.Outcome.SUCCEEDED);
        nats.changePassword(SECOND_PASSWORD);

        try (Connection after = connectWhenAccepted(SECOND_PASSWORD)) {
          await().atMost(RECOVERY).ignoreExceptions().until(() ->
              command(after, mite.identity()).getOutcome() == CommandResult.Outcome.SUCCEEDED);
          assertThat(stream.commands()).hasSizeGreaterThanOrEqualTo(2);
        }
      }
    }
  }

  @Test
  void refusesRegistrationWhileTheRegistryIsUnreachable() throws Exception {
    ControllerIdentity controller = RegistrationIT.newController();
    String token;
    try (Connection operator = nats.connect(FIRST_PASSWORD)) {
      token = new TokenIssuer(operator).issue(controller);
    }

    nats.stop();

    RegistrationIT.assertRefused(() -> RegistrationIT.register(gateway, ca,
            RegistrationIT.request(token, controller.toRef(), MiteKeys.generate().csrDer())),
        Status.Code.UNAVAILABLE, RefusalReason.REGISTRY_UNAVAILABLE, token);
  }

  private Connection connectWhenAccepted(String password) {
    await().atMost(RECOVERY).until(() -> nats.acceptsPassword(password));
    return await().atMost(RECOVERY).ignoreExceptions().until(() -> nats.connect(password), c -> c != null);
  }

  private static boolean noResponders(Connection operator) throws InterruptedException {
    CompletableFuture<Message> reply = operator.request(
        BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, "gateway-rotating"), new byte[0]);
    try {
      reply.get(5, TimeUnit.SECONDS);
      return false;
    } catch (ExecutionException | java.util.concurrent.CancellationException noResponders) {
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  private static CommandResult command(Connection operator, ControllerIdentity controller) throws Exception {
    Command command = MiteChannelIT.oneShot("cmd-" + UUID.randomUUID());
    Message reply = operator.request(BusNames.gatewayCommands(GatewaySettings.DEFAULT_CLUSTER_NAME, "gateway-rotating"),
        GatewayCommand.newBuilder()
        .setController(controller.toRef())
        .setCommand(command)
        .build()
        .toByteArray(), Duration.ofSeconds(10));
    if (reply == null || reply.isStatusMessage()) {
      throw new IllegalStateException("no answer from the gateway yet");
    }
    return CommandResult.parseFrom(reply.getData());
  }
}

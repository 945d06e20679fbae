package dev.varroa.mite;

import dev.varroa.gateway.GatewaySettings;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.TokenDigest;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import io.nats.client.Connection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * What the operator does before it creates the pod: a single-use token bound to one controller, on the bus and in the
 * pod, and the Controller's record as live.
 */
final class BootstrapTokens {

  private BootstrapTokens() {
  }

  static String write(Connection nats, ControllerIdentity controller, Path file) throws Exception {
    byte[] random = new byte[32];
    new SecureRandom().nextBytes(random);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    nats.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET).put(TokenDigest.of(token), BootstrapTokenRecord.newBuilder()
        .setController(controller.toRef())
        .setExpiresAtEpochMillis(Instant.now().plus(Duration.ofMinutes(15)).toEpochMilli())
        .build().toByteArray());
    recordLive(nats, controller);
    Files.createDirectories(file.getParent());
    Files.writeString(file, token + "\n", StandardCharsets.US_ASCII);
    return token;
  }

  /** The operator records the Controller as live while it exists: the gateway opens streams only for those. */
  static void recordLive(Connection nats, ControllerIdentity controller) throws Exception {
    BusTopology.ensure(nats);
    nats.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET).put(
        BusNames.liveControllerKey(GatewaySettings.DEFAULT_CLUSTER_NAME, controller),
        controller.uid().getBytes(StandardCharsets.UTF_8));
  }
}

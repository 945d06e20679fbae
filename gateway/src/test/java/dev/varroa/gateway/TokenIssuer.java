package dev.varroa.gateway;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.TokenDigest;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import dev.varroa.protocol.mite.v1.ControllerRef;
import io.nats.client.Connection;
import io.nats.client.api.KeyValueEntry;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

/**
 * Plays the operator's part of registration: writes bootstrap token records and reads them back, and records
 * Controllers as live (the operator's LiveControllers) so that their mites' streams open.
 */
public final class TokenIssuer {

  static final Duration BOOTSTRAP_TOKEN_LIFETIME = Duration.ofMinutes(15);
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Connection operator;

  public TokenIssuer(Connection operator) {
    this.operator = operator;
  }

  String issue(ControllerIdentity controller) throws Exception {
    return issue(controller.toRef(), Instant.now().plus(BOOTSTRAP_TOKEN_LIFETIME));
  }

  String issue(ControllerRef controller, Instant expiresAt) throws Exception {
    byte[] secret = new byte[32];
    RANDOM.nextBytes(secret);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    operator.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET).put(TokenDigest.of(token), BootstrapTokenRecord.newBuilder()
        .setController(controller)
        .setExpiresAtEpochMillis(expiresAt.toEpochMilli())
        .build()
        .toByteArray());
    return token;
  }

  /** What the operator writes while the Controller exists: its UID under cluster.namespace.name. */
  void recordLive(String cluster, ControllerIdentity controller) throws Exception {
    BusTopology.ensure(operator);
    operator.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET).put(BusNames.liveControllerKey(cluster, controller),
        controller.uid().getBytes(StandardCharsets.UTF_8));
  }

  /** What the operator does when the Controller is deleted. */
  void forgetLive(String cluster, ControllerIdentity controller) throws Exception {
    operator.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET).delete(BusNames.liveControllerKey(cluster, controller));
  }

  BootstrapTokenRecord record(String token) throws Exception {
    KeyValueEntry entry = operator.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET).get(TokenDigest.of(token));
    return BootstrapTokenRecord.parseFrom(entry.getValue());
  }
}

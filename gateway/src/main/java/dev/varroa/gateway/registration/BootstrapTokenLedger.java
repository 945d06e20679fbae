package dev.varroa.gateway.registration;

import static dev.varroa.protocol.mite.v1.RefusalReason.REGISTRY_UNAVAILABLE;
import static dev.varroa.protocol.mite.v1.RefusalReason.TOKEN_ALREADY_USED;
import static dev.varroa.protocol.mite.v1.RefusalReason.TOKEN_EXPIRED;
import static dev.varroa.protocol.mite.v1.RefusalReason.TOKEN_OTHER_CONTROLLER;
import static dev.varroa.protocol.mite.v1.RefusalReason.TOKEN_UNKNOWN;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.TokenDigest;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import dev.varroa.protocol.mite.v1.ControllerRef;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import io.nats.client.api.KeyValueOperation;
import java.io.IOException;
import java.time.Instant;

/**
 * The bootstrap token records the operator writes (key: the token's SHA-256). Redeeming one marks it
 * used with a compare-and-set on the entry's revision, so a token works once across every gateway.
 */
final class BootstrapTokenLedger {

  /** JetStream's "wrong last sequence": another writer changed the entry since we read it. */
  static final int WRONG_LAST_SEQUENCE = 10071;

  private final BusConnection bus;
  private final String gatewayId;

  BootstrapTokenLedger(BusConnection bus, String gatewayId) {
    this.bus = bus;
    this.gatewayId = gatewayId;
  }

  /** Marks the token used and returns the controller it is bound to, or refuses; never leaves doubt in the mite's favour. */
  ControllerIdentity redeem(String token, ControllerRef claimed, Instant now) throws RegistrationRefusedException {
    if (token.isEmpty()) {
      throw new RegistrationRefusedException(TOKEN_UNKNOWN, "the request carries no bootstrap token: mount the token "
          + "the operator generated for this controller");
    }
    String key = TokenDigest.of(token);
    KeyValue tokens = tokenBucket();
    KeyValueEntry entry;
    try {
      entry = tokens.get(key);
    } catch (IOException | JetStreamApiException e) {
      throw unavailable("reading", e);
    }
    if (entry == null || entry.getOperation() != KeyValueOperation.PUT || entry.getValue() == null) {
      throw new RegistrationRefusedException(TOKEN_UNKNOWN, "no bootstrap token with this value is on record (never "
          + "issued, or its record aged out): the operator issues a new token when it recreates the pod");
    }
    BootstrapTokenRecord record;
    try {
      record = BootstrapTokenRecord.parseFrom(entry.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new RegistrationRefusedException(TOKEN_UNKNOWN, "the record of this bootstrap token is unreadable: "
          + "the operator issues a new token when it recreates the pod");
    }
    if (record.getUsed()) {
      throw new RegistrationRefusedException(TOKEN_ALREADY_USED, "this bootstrap token was used at "
          + Instant.ofEpochMilli(record.getUsedAtEpochMillis()) + " by gateway " + record.getUsedByGateway()
          + " and works once: the operator issues a new token when it recreates the pod");
    }
    if (record.getExpiresAtEpochMillis() <= now.toEpochMilli()) {
      throw new RegistrationRefusedException(TOKEN_EXPIRED, "this bootstrap token expired at "
          + Instant.ofEpochMilli(record.getExpiresAtEpochMillis()) + " (tokens live 15 minutes): the operator issues "
          + "a new token when it recreates the pod");
    }
    ControllerIdentity bound = boundController(record.getController(), claimed);
    markUsed(tokens, key, entry.getRevision(), record, now);
    return bound;
  }

  private static ControllerIdentity boundController(ControllerRef bound, ControllerRef claimed)
      throws RegistrationRefusedException {
    boolean same = bound.getNamespace().equals(claimed.getNamespace()) && bound.getName().equals(claimed.getName())
        && bound.getUid().equals(claimed.getUid());
    if (!same) {
      throw new RegistrationRefusedException(TOKEN_OTHER_CONTROLLER, "this bootstrap token is bound to controller "
          + describe(bound) + " but the request names " + describe(claimed) + ": mount the token generated for the "
          + "controller this pod serves");
    }
    try {
      return ControllerIdentity.of(bound);
    } catch (IllegalArgumentException e) {
      throw new RegistrationRefusedException(TOKEN_OTHER_CONTROLLER, "the token's controller is incomplete ("
          + e.getMessage() + "): the operator issues a new token when it recreates the pod");
    }
  }

  private void markUsed(KeyValue tokens, String key, long revision, BootstrapTokenRecord record, Instant now)
      throws RegistrationRefusedException {
    BootstrapTokenRecord used = record.toBuilder()
        .setUsed(true)
        .setUsedAtEpochMillis(now.toEpochMilli())
        .setUsedByGateway(gatewayId)
        .build();
    try {
      tokens.update(key, used.toByteArray(), revision);
    } catch (JetStreamApiException e) {
      if (e.getApiErrorCode() == WRONG_LAST_SEQUENCE) {
        throw new RegistrationRefusedException(TOKEN_ALREADY_USED, "another registration used this bootstrap token at "
            + "the same moment and tokens work once: the operator issues a new token when it recreates the pod");
      }
      throw unavailable("marking used", e);
    } catch (IOException e) {
      throw unavailable("marking used", e);
    }
  }

  private KeyValue tokenBucket() throws RegistrationRefusedException {
    if (!bus.isConnected()) {
      throw new RegistrationRefusedException(REGISTRY_UNAVAILABLE, "the gateway is not connected to NATS and cannot "
          + "check the token: check NATS availability; the mite retries with backoff");
    }
    try {
      return bus.keyValue(BusNames.BOOTSTRAP_TOKENS_BUCKET);
    } catch (IOException | RuntimeException e) {
      throw unavailable("opening", e);
    }
  }

  private static RegistrationRefusedException unavailable(String step, Exception e) {
    // Fail closed: when the registry does not answer clearly, nothing is issued and the mite retries.
    return new RegistrationRefusedException(REGISTRY_UNAVAILABLE, "the token registry did not answer while "
        + step + " the token record (" + e.getClass().getSimpleName() + "): check NATS availability; the mite "
        + "retries with backoff");
  }

  private static String describe(ControllerRef ref) {
    return ref.getNamespace() + "/" + ref.getName() + " (uid " + ref.getUid() + ")";
  }
}

package dev.varroa.operator.channel;

import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.TokenDigest;
import dev.varroa.protocol.bus.v1.BootstrapTokenRecord;
import io.nats.client.JetStreamApiException;
import io.nats.client.KeyValue;
import io.nats.client.api.KeyValueEntry;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Mints the single-use bootstrap token a new mite registers with. The bus keeps only the token's
 * digest with its binding and expiry; the gateway that accepts it marks it used with compare-and-set.
 */
public final class BootstrapTokenIssuer {
  /** "The bootstrap token is bound to one controller, expires after 15 minutes, and works once." */
  public static final Duration BOOTSTRAP_TOKEN_LIFETIME = Duration.ofMinutes(15);
  private static final int TOKEN_BYTES = 32;

  private final KeyValue tokens;
  private final SecureRandom random = new SecureRandom();

  public BootstrapTokenIssuer(KeyValue tokens) {
    this.tokens = tokens;
  }

  /** A minted token: the value goes only into the Secret the mite mounts. */
  public record Minted(String token, String digest, Instant expiresAt) {
    @Override
    public String toString() {
      return "Minted[digest=" + digest + ", expiresAt=" + expiresAt + "]";
    }
  }

  public Minted mint(ControllerIdentity controller, Instant now) throws IOException, JetStreamApiException {
    byte[] bytes = new byte[TOKEN_BYTES];
    random.nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    String digest = TokenDigest.of(token);
    Instant expires = now.plus(BOOTSTRAP_TOKEN_LIFETIME);
    tokens.create(digest, BootstrapTokenRecord.newBuilder()
        .setController(controller.toRef())
        .setExpiresAtEpochMillis(expires.toEpochMilli())
        .build().toByteArray());
    return new Minted(token, digest, expires);
  }

  /** The record of a token by its digest; empty once it aged out of the bucket. */
  public Optional<BootstrapTokenRecord> record(String digest) throws IOException, JetStreamApiException {
    KeyValueEntry entry = tokens.get(digest);
    if (entry == null || entry.getValue() == null) {
      return Optional.empty();
    }
    return Optional.of(BootstrapTokenRecord.parseFrom(entry.getValue()));
  }
}

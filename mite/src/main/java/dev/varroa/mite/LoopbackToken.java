package dev.varroa.mite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The bearer token the Jenkins plugin presents to the mite's loopback listener. A new one at every
 * mite start, written before the listener opens so no request can come before the token exists.
 */
final class LoopbackToken {

  /** Seed 000: /var/run/varroa/loopback-token, on the varroa-loopback volume shared with Jenkins. */
  static final String FILE_NAME = "loopback-token";
  static final int TOKEN_BYTES = 32;

  private final String value;

  private LoopbackToken(String value) {
    this.value = value;
  }

  static LoopbackToken writeNew(Path loopbackDir) throws IOException {
    byte[] random = new byte[TOKEN_BYTES];
    new SecureRandom().nextBytes(random);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    AtomicFiles.write(loopbackDir.resolve(FILE_NAME), token.getBytes(StandardCharsets.US_ASCII),
        AtomicFiles.OWNER_READ_WRITE);
    return new LoopbackToken(token);
  }

  /** Constant-time comparison for the loopback listener. */
  boolean matches(String presented) {
    return presented != null && MessageDigest.isEqual(
        value.getBytes(StandardCharsets.US_ASCII), presented.getBytes(StandardCharsets.US_ASCII));
  }

  @Override
  public String toString() {
    return "LoopbackToken[redacted]";
  }
}

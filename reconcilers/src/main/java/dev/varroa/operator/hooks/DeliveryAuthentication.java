package dev.varroa.operator.hooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Checks a delivery's signature or token against the shared secret, in constant time. */
final class DeliveryAuthentication {
  private static final String HMAC_SHA256 = "HmacSHA256";

  private DeliveryAuthentication() {}

  /** The lowercase hex HMAC-SHA256 of the body under the secret, as the providers sign. */
  static String hmacSha256Hex(byte[] secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance(HMAC_SHA256);
      mac.init(new SecretKeySpec(secret, HMAC_SHA256));
      return HexFormat.of().formatHex(mac.doFinal(body));
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException("every JDK has " + HMAC_SHA256 + " and takes a non-empty key", e);
    }
  }

  /** Whether the presented hex (any case) is the body's HMAC; null or malformed is simply false. */
  static boolean signatureMatches(byte[] secret, byte[] body, String presentedHex) {
    if (presentedHex == null) {
      return false;
    }
    byte[] expected = hmacSha256Hex(secret, body).getBytes(StandardCharsets.US_ASCII);
    byte[] presented = presentedHex.strip().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
    return MessageDigest.isEqual(expected, presented);
  }

  /** Whether a token sent as is equals the secret; both are hashed first so neither length nor content leaks. */
  static boolean tokenMatches(byte[] secret, String presented) {
    if (presented == null) {
      return false;
    }
    return MessageDigest.isEqual(sha256(secret), sha256(presented.getBytes(StandardCharsets.UTF_8)));
  }

  /** The lowercase hex SHA-256 of the bytes, to remember a body by. */
  static String sha256Hex(byte[] bytes) {
    return HexFormat.of().formatHex(sha256(bytes));
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}

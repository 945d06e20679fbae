package dev.varroa.bundle.source;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 in the {@code sha256:<64 hex>} form OCI and Flux write digests in. */
final class Sha256 {
  private Sha256() {}

  static String digest(byte[] content) {
    return "sha256:" + HexFormat.of().formatHex(newDigest().digest(content));
  }

  static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime provides SHA-256", e);
    }
  }
}

package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The SHA-1 and SHA-256 of a file, computed in one read. Update sites publish both base64-encoded
 * (what Jenkins and jenkins-plugin-cli compare); archives and sha256sum use hex.
 */
public record FileDigests(long size, byte[] sha1, byte[] sha256) {
  private static final int BUFFER = 64 * 1024;

  public static FileDigests of(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return of(in);
    }
  }

  public static FileDigests of(InputStream in) throws IOException {
    MessageDigest sha1 = digest("SHA-1");
    MessageDigest sha256 = digest("SHA-256");
    byte[] buffer = new byte[BUFFER];
    long size = 0;
    for (int read; (read = in.read(buffer)) >= 0; ) {
      sha1.update(buffer, 0, read);
      sha256.update(buffer, 0, read);
      size += read;
    }
    return new FileDigests(size, sha1.digest(), sha256.digest());
  }

  public String sha1Base64() {
    return Base64.getEncoder().encodeToString(sha1);
  }

  public String sha256Base64() {
    return Base64.getEncoder().encodeToString(sha256);
  }

  public String sha256Hex() {
    return HexFormat.of().formatHex(sha256);
  }

  static MessageDigest digest(String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK lacks " + algorithm, e);
    }
  }
}

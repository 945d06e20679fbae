package dev.varroa.bundle.render;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The render's content digest (BUNDLES.md §5): SHA-256 over jcasc.yaml, {@code \n---\n}, plugins.txt. */
final class BundleDigest {
  static final byte[] SEPARATOR = "\n---\n".getBytes(StandardCharsets.US_ASCII);

  private BundleDigest() {}

  static String of(byte[] jcascYaml, byte[] pluginsTxt) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(jcascYaml);
      sha.update(SEPARATOR);
      sha.update(pluginsTxt);
      return "sha256:" + HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

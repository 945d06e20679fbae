package dev.varroa.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The built-in varroa-starter bundle that ships inside the operator: what a Controller without
 * spec.composedBundleRef renders. Its revision is the SHA-256 of its files, so a new release shows.
 */
public final class StarterBundle {
  public static final String NAME = "varroa-starter";
  private static final String ROOT = "/dev/varroa/bundle/starter/";
  private static final List<String> FILES = List.of(
      "bundle.yaml", "plugins.yaml", "jcasc/00-controller.yaml",
      "jcasc/20-security.yaml");

  private StarterBundle() {}

  /** The starter as the single input of a render. */
  public static ResolvedInput input() {
    Map<String, byte[]> files = new LinkedHashMap<>();
    for (String file : FILES) {
      try (InputStream in = StarterBundle.class.getResourceAsStream(ROOT + file)) {
        if (in == null) {
          throw new IllegalStateException("the operator jar lacks " + ROOT + file);
        }
        files.put(file, in.readAllBytes());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the built-in " + NAME + " bundle", e);
      }
    }
    BundleFiles bundle = BundleFiles.of(files);
    InputRef ref = new InputRef(0, "builtin", null, NAME, Map.of(), "");
    return new ResolvedInput(ref, NAME + "@sha256:" + digest(bundle), bundle);
  }

  private static String digest(BundleFiles files) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      files.files().forEach((path, bytes) -> {
        sha.update(path.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        sha.update((byte) 0);
        sha.update(bytes);
        sha.update((byte) 0);
      });
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

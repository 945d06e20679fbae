package dev.varroa.operator.render;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The digest of a desired object, kept on the applied object: equal digests mean there is nothing to send. Map keys
 * are sorted first, so two operator JVMs (a new leader) give equal digests even where a map's order is not fixed.
 */
public final class AppliedHash {
  /** The annotation that carries it. */
  public static final String ANNOTATION = "varroa.dev/applied-hash";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private AppliedHash() {
  }

  public static String of(HasMetadata desired) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(RestartHash.canonical(JSON.convertValue(desired, JsonNode.class)).getBytes(StandardCharsets.UTF_8)))
          .substring(0, 32);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

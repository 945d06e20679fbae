package dev.varroa.operator.render.naming;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** The labels on every object the operator owns for a Controller, and the pod selector made of them. */
public final class ControllerLabels {
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String NAME = "app.kubernetes.io/name";
  public static final String INSTANCE = "app.kubernetes.io/instance";
  public static final String CONTROLLER = "varroa.dev/controller";

  public static final String MANAGED_BY_VALUE = "varroa";
  public static final String NAME_VALUE = "jenkins";

  /** Kubernetes' limit on a label value. */
  static final int MAX_LABEL_VALUE = 63;
  private static final int HASH_CHARS = 10;

  private ControllerLabels() {}

  /** managed-by, name, instance and controller, sorted so renders are byte-stable. */
  public static SortedMap<String, String> of(String controllerName) {
    SortedMap<String, String> labels = new TreeMap<>(selector(controllerName));
    labels.put(MANAGED_BY, MANAGED_BY_VALUE);
    return labels;
  }

  /** What the StatefulSet and the Service select pods by; immutable on a StatefulSet, so it never grows. */
  public static SortedMap<String, String> selector(String controllerName) {
    String value = value(controllerName);
    return new TreeMap<>(Map.of(NAME, NAME_VALUE, INSTANCE, value, CONTROLLER, value));
  }

  /**
   * A Controller name as a label value: itself up to 63 characters, else a prefix and a hash of
   * the whole name, so two long names sharing a prefix keep distinct selectors.
   */
  public static String value(String name) {
    if (name.length() <= MAX_LABEL_VALUE) {
      return name;
    }
    String prefix = name.substring(0, MAX_LABEL_VALUE - HASH_CHARS - 1).replaceAll("[^a-zA-Z0-9]+$", "");
    return prefix + "-" + sha256(name).substring(0, HASH_CHARS);
  }

  public static String sha256(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}

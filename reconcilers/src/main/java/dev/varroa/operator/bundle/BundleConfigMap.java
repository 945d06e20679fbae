package dev.varroa.operator.bundle;

import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.bundle.render.RenderedBundle;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ConfigMap where a ComposedBundle's render in force is stored for Controllers: jcasc.yaml, plugins.txt and
 * bundle.lock.json; owned by the bundle (the applier writes the reference). It never holds a secret value: JCasC refers to secrets as ${NAME}.
 */
public final class BundleConfigMap {
  public static final String DIGEST_ANNOTATION = "varroa.dev/bundle-digest";
  /** Names the ComposedBundle whose render the ConfigMap holds, so Controllers using it are told of a new one. */
  public static final String BUNDLE_LABEL = "varroa.dev/composed-bundle";
  private static final String PREFIX = "varroa-bundle-";

  private BundleConfigMap() {}

  public static String name(String bundleName) {
    return PREFIX + bundleName;
  }

  static ConfigMap render(ComposedBundle bundle, RenderedBundle rendered) {
    Map<String, String> data = new LinkedHashMap<>();
    rendered.files().forEach((file, bytes) -> data.put(file, new String(bytes, StandardCharsets.UTF_8)));
    return new ConfigMapBuilder()
        .withNewMetadata()
        .withName(name(bundle.getMetadata().getName()))
        .withNamespace(bundle.getMetadata().getNamespace())
        .addToLabels("app.kubernetes.io/managed-by", "varroa")
        .addToLabels(BUNDLE_LABEL, bundle.getMetadata().getName())
        .addToAnnotations(DIGEST_ANNOTATION, rendered.digest())
        .endMetadata()
        .withData(data)
        .build();
  }

  /** Reads a stored render back, digest-checked; empty when the ConfigMap is absent or not a render. */
  public static java.util.Optional<RenderedBundle> read(ConfigMap configMap) {
    if (configMap == null || configMap.getData() == null) {
      return java.util.Optional.empty();
    }
    Map<String, String> data = configMap.getData();
    try {
      return java.util.Optional.of(RenderedBundle.read(bytes(data, RenderedBundle.JCASC_FILE),
          bytes(data, RenderedBundle.PLUGINS_FILE), bytes(data, RenderedBundle.LOCK_FILE)));
    } catch (dev.varroa.bundle.BundleException | RuntimeException e) {
      return java.util.Optional.empty();
    }
  }

  private static byte[] bytes(Map<String, String> data, String key) {
    String value = data.get(key);
    return value == null ? new byte[0] : value.getBytes(StandardCharsets.UTF_8);
  }
}

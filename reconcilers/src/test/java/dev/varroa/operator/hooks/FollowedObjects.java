package dev.varroa.operator.hooks;

import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/** ComposedBundles and CatalogSources as the operator's cache holds them, written as their YAML. */
final class FollowedObjects {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private FollowedObjects() {}

  /** A bundle in namespace ci with one input, given as the YAML of that input (e.g. {@code git: {...}}). */
  static ComposedBundle bundle(String name, String input) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: ci}
        spec:
          versionProfileRef: {name: lts}
          inputs:
            - %s
        """.formatted(name, input), ComposedBundle.class);
  }

  static ComposedBundle gitBundle(String name, String url, String ref) {
    return bundle(name, "git: {url: \"" + url + "\", ref: {" + ref + "}}");
  }

  static ComposedBundle ociBundle(String name, String url, String ref) {
    return bundle(name, "oci: {url: \"" + url + "\", ref: {" + ref + "}}");
  }

  /** A catalog source in namespace ci, given as the YAML of its location (e.g. {@code git: {...}}). */
  static CatalogSource catalogSource(String name, String location) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CatalogSource
        metadata: {name: %s, namespace: ci}
        spec:
          %s
        """.formatted(name, location), CatalogSource.class);
  }
}

package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.bundle.InputRef;
import java.util.LinkedHashMap;
import java.util.Map;

/** Names a spec input the way errors and the lock do. */
public final class InputRefs {
  private InputRefs() {}

  public static InputRef of(int index, BundleInput input) {
    if (input.git != null) {
      Map<String, String> ref = new LinkedHashMap<>();
      if (input.git.ref != null) {
        putIfSet(ref, "branch", input.git.ref.branch);
        putIfSet(ref, "tag", input.git.ref.tag);
        putIfSet(ref, "semver", input.git.ref.semver);
        putIfSet(ref, "commit", input.git.ref.commit);
      }
      return new InputRef(index, "git", input.git.url, null, ref, input.git.path);
    }
    if (input.oci != null) {
      Map<String, String> ref = new LinkedHashMap<>();
      if (input.oci.ref != null) {
        putIfSet(ref, "tag", input.oci.ref.tag);
        putIfSet(ref, "semver", input.oci.ref.semver);
        putIfSet(ref, "digest", input.oci.ref.digest);
      }
      return new InputRef(index, "oci", input.oci.url, null, ref, input.oci.path);
    }
    if (input.catalogItem != null) {
      return new InputRef(index, "catalogItem", null, input.catalogItem.name, Map.of(), "");
    }
    if (input.fluxSource != null) {
      return new InputRef(index, "fluxSource", null, input.fluxSource.kind + "/" + input.fluxSource.name, Map.of(),
          input.fluxSource.path);
    }
    throw new IllegalArgumentException("spec.inputs[" + index + "] sets none of git, oci, catalogItem, fluxSource");
  }

  private static void putIfSet(Map<String, String> ref, String key, String value) {
    if (value != null) {
      ref.put(key, value);
    }
  }
}

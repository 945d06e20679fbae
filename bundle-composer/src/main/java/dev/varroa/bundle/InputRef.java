package dev.varroa.bundle;

import java.util.Map;

/**
 * Where one ComposedBundle input comes from, as errors and the lock name it: its position in
 * spec.inputs (from 0, as the API server names it), its kind, URL or object name, ref and folder.
 *
 * @param index position in spec.inputs, from 0
 * @param kind git, oci, catalogItem or fluxSource
 * @param url the repository or artifact URL (git, oci); null for catalogItem and fluxSource
 * @param name the object name (catalogItem, fluxSource); null for git and oci
 * @param ref the ref as written in the spec, e.g. {branch: main}; empty where the kind has none
 * @param path the folder inside the source; "" for the root
 */
public record InputRef(int index, String kind, String url, String name, Map<String, String> ref, String path) {
  public InputRef {
    ref = ref == null ? Map.of() : Map.copyOf(ref);
    path = path == null ? "" : path;
  }

  /** How messages name the input: {@code spec.inputs[1] (git https://host/repo.git, branch main, path teams/a)}. */
  public String describe() {
    StringBuilder s = new StringBuilder("spec.inputs[").append(index).append("] (").append(kind).append(' ')
        .append(url != null ? url : name);
    ref.forEach((k, v) -> s.append(", ").append(k).append(' ').append(v));
    if (!path.isEmpty()) {
      s.append(", path ").append(path);
    }
    return s.append(')').toString();
  }
}

package dev.varroa.bundle.render;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bundle.lock.json} as a value (BUNDLES.md §5). {@link LockWriter} writes it field by field
 * in this order; {@link LockReader} reads it back.
 *
 * @param digest {@code sha256:} + hex over jcasc.yaml, {@code \n---\n}, plugins.txt
 * @param jenkinsVersion the profile's Jenkins version
 * @param inputs the inputs in spec order
 * @param plugins the plugin set sorted by id
 * @param variables names defined by variables.yaml files, sorted
 * @param secrets names of declared secrets, sorted (never values)
 * @param overrides the overrides in the order the merge met them
 */
public record BundleLock(String digest, String jenkinsVersion, List<Input> inputs, List<PluginLock> plugins,
    List<String> variables, List<String> secrets, List<Override> overrides) {
  public BundleLock {
    inputs = List.copyOf(inputs);
    plugins = List.copyOf(plugins);
    variables = List.copyOf(variables);
    secrets = List.copyOf(secrets);
    overrides = List.copyOf(overrides);
  }

  /**
   * One input as rendered.
   *
   * @param url set for git and oci inputs, else null
   * @param name set for catalogItem, fluxSource (and the built-in starter), else null
   * @param ref the ref as written in the spec, keys sorted; empty where the kind has none
   */
  public record Input(int index, String kind, String url, String name, Map<String, String> ref, String path,
      String revision) {
    public Input {
      ref = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(ref == null ? Map.of() : ref));
    }
  }

  /**
   * A value a later fragment replaced or removed.
   *
   * @param path the dotted path, list elements as {@code [identity]} or {@code [index]}
   * @param winner the later input's index ("0", "1", …) or "profile"
   * @param overridden the earlier input's index or "profile"
   */
  public record Override(String path, String winner, String overridden) {}
}

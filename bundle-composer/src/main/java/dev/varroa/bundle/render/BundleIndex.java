package dev.varroa.bundle.render;

import dev.varroa.bundle.render.YamlValue.Mapping;
import dev.varroa.bundle.render.YamlValue.Scalar;
import dev.varroa.bundle.render.YamlValue.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A bundle directory's optional {@code bundle.yaml}:
 *
 * <pre>
 * description: Team A's Jenkins        # free text
 * jcasc: [jcasc/base.yaml, security/]  # JCasC files (or folders: their *.yaml, *.yml) in this order;
 *                                      #   replaces the default jcasc/*.yaml listing
 * plugins: plugins.yaml                # one file or a list, read in order; default plugins.yaml
 * variables: variables.yaml            # one file or a list, read in order; default variables.yaml
 * </pre>
 *
 * {@code apiVersion}, {@code id}, {@code name} and {@code version} are accepted and ignored (so a
 * CloudBees-style bundle.yaml reads); any other key is invalid, so a typo does not go unnoticed.
 * A key that is absent or null keeps its default.
 *
 * @param jcasc the listed JCasC entries, or empty when the default applies
 * @param plugins the listed plugin files, or empty when the default applies
 * @param variables the listed variable files, or empty when the default applies
 */
record BundleIndex(Optional<String> description, Optional<List<String>> jcasc, Optional<List<String>> plugins,
    Optional<List<String>> variables) {
  static final BundleIndex DEFAULT = new BundleIndex(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
  private static final Set<String> IGNORED_KEYS = Set.of("apiVersion", "id", "name", "version");

  static BundleIndex read(Optional<YamlValue> document, Source source, String file, Problems problems) {
    if (document.isEmpty()) {
      return DEFAULT;
    }
    if (!(document.get() instanceof Mapping index)) {
      problems.invalid(source.label(), file, null, "bundle.yaml is a " + JcascMerger.shape(document.get())
          + ", expected a mapping", "write `description:`, `jcasc:`, `plugins:` and `variables:` keys");
      return DEFAULT;
    }
    Optional<String> description = Optional.empty();
    Optional<List<String>> jcasc = Optional.empty();
    Optional<List<String>> plugins = Optional.empty();
    Optional<List<String>> variables = Optional.empty();
    for (YamlValue.Entry entry : index.entries()) {
      String key = entry.key().text();
      switch (key) {
        case "description" -> description = entry.value() instanceof Scalar s && !s.isNull()
            ? Optional.of(s.text()) : Optional.empty();
        case "jcasc" -> jcasc = paths(entry, source, file, problems);
        case "plugins" -> plugins = paths(entry, source, file, problems);
        case "variables" -> variables = paths(entry, source, file, problems);
        default -> {
          if (!IGNORED_KEYS.contains(key)) {
            problems.invalid(source.label(), file, key, "line " + entry.key().line() + ": unknown key '" + key + "'",
                "use description, jcasc, plugins or variables (or remove the key)");
          }
        }
      }
    }
    return new BundleIndex(description, jcasc, plugins, variables);
  }

  private static Optional<List<String>> paths(YamlValue.Entry entry, Source source, String file, Problems problems) {
    YamlValue value = entry.value();
    if (value instanceof Scalar s && s.isNull()) {
      return Optional.empty();
    }
    List<YamlValue> items = value instanceof Sequence seq ? seq.items() : List.of(value);
    List<String> paths = new ArrayList<>();
    for (YamlValue item : items) {
      if (item instanceof Scalar s && s.isString()) {
        paths.add(s.text());
      } else {
        problems.invalid(source.label(), file, entry.key().text(), "line " + item.line()
            + ": expected a file path or a list of them", "write paths relative to the bundle directory, e.g. jcasc/base.yaml");
      }
    }
    return Optional.of(List.copyOf(paths));
  }
}

package dev.varroa.bundle.render;

import dev.varroa.bundle.render.YamlValue.Mapping;
import dev.varroa.bundle.render.YamlValue.Scalar;
import dev.varroa.bundle.render.YamlValue.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads {@code plugins.yaml}: {@code plugins: [{id: git, version: "5.7.0"}, {id: workflow-aggregator}]}. */
final class PluginsFile {
  static final Pattern PLUGIN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  /** Versions that would make the plugin manager pick one at install time: rendering never does. */
  private static final Set<String> FLOATING_VERSIONS = Set.of("latest", "experimental");

  private PluginsFile() {}

  static List<PluginPin> read(Optional<YamlValue> document, Source source, String file, Problems problems) {
    if (document.isEmpty()) {
      return List.of();
    }
    if (!(document.get() instanceof Mapping top) || top.entries().size() != 1 || top.get("plugins") == null) {
      problems.invalid(source.label(), file, null, "expected one key, plugins, holding a list",
          "write `plugins: [{id: git, version: \"5.7.0\"}, {id: workflow-aggregator}]`");
      return List.of();
    }
    YamlValue list = top.get("plugins");
    if (list instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (!(list instanceof Sequence items)) {
      problems.invalid(source.label(), file, "plugins", "line " + list.line() + ": plugins is a "
          + JcascMerger.shape(list) + ", expected a list", "write each plugin as a list item `- id: git`");
      return List.of();
    }
    List<PluginPin> pins = new ArrayList<>();
    for (int i = 0; i < items.items().size(); i++) {
      entry(items.items().get(i), i, source, file, problems).ifPresent(pins::add);
    }
    return pins;
  }

  private static Optional<PluginPin> entry(YamlValue item, int index, Source source, String file, Problems problems) {
    String path = "plugins[" + index + "]";
    if (!(item instanceof Mapping plugin)) {
      problems.invalid(source.label(), file, path, "line " + item.line() + ": a plugin is a " + JcascMerger.shape(item)
          + ", expected a mapping", "write `- id: git` and optionally `version: \"5.7.0\"`");
      return Optional.empty();
    }
    for (YamlValue.Entry entry : plugin.entries()) {
      String key = entry.key().text();
      if (!key.equals("id") && !key.equals("version")) {
        problems.invalid(source.label(), file, path + "." + key, "line " + entry.key().line()
            + ": unknown key '" + key + "'", "a plugin has only id and version");
        return Optional.empty();
      }
    }
    Optional<String> id = text(plugin.get("id"));
    if (id.isEmpty() || !PLUGIN_ID.matcher(id.get()).matches()) {
      problems.invalid(source.label(), file, path + ".id", "line " + plugin.line() + ": the plugin id is "
          + id.map(s -> "'" + s + "'").orElse("missing"), "write the plugin's short name, e.g. `id: git`");
      return Optional.empty();
    }
    YamlValue versionValue = plugin.get("version");
    Optional<String> version = text(versionValue);
    String versionPath = "plugins[" + id.get() + "].version";
    if (versionValue != null && !(versionValue instanceof Scalar s && s.isNull())
        && (version.isEmpty() || version.get().isBlank() || version.get().chars().anyMatch(Character::isWhitespace))) {
      problems.invalid(source.label(), file, versionPath, "line " + versionValue.line() + ": the version of "
          + id.get() + " is not a version", "write a release version such as \"5.7.0\", or remove the version");
      return Optional.empty();
    }
    if (version.isPresent() && FLOATING_VERSIONS.contains(version.get().toLowerCase(Locale.ROOT))) {
      problems.invalid(source.label(), file, versionPath, "line " + versionValue.line() + ": " + id.get()
          + " asks for version '" + version.get() + "'; rendering never picks a version at install time",
          "pin a release version, or remove the version to take the profile's");
      return Optional.empty();
    }
    return Optional.of(new PluginPin(id.get(), version.orElse(null), source.at(file, plugin.line())));
  }

  private static Optional<String> text(YamlValue value) {
    return value instanceof Scalar s && !s.isNull() ? Optional.of(s.text()) : Optional.empty();
  }
}

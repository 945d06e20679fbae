package dev.varroa.bundle.render;

import dev.varroa.bundle.VersionProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides the plugin set (BUNDLES.md §4): the union of the inputs' plugins by id, a later input's
 * version replacing an earlier one (a later unpinned listing keeps an earlier pin), checked against
 * the profile's compatible set, plus every plugin the profile lists.
 */
final class PluginResolver {
  private PluginResolver() {}

  /** The set sorted by id; problems for conflicting pins and plugins without a version. */
  static List<PluginLock> resolve(List<BundleDirectory> directories, VersionProfile profile, Source profileSource,
      Problems problems) {
    Map<String, String> compatible = profileSet(profile, profileSource, problems);
    Map<String, PluginPin> chosen = new TreeMap<>();
    for (BundleDirectory directory : directories) {
      for (PluginPin pin : directory.plugins()) {
        PluginPin earlier = chosen.get(pin.id());
        if (earlier == null || (pin.pinned() && !pin.version().equals(earlier.version()))) {
          if (earlier != null && earlier.pinned() && earlier.origin().sameInput(pin.origin())) {
            problems.conflict(pin.origin().input(), pin.origin().file(), "plugins[" + pin.id() + "].version",
                "line " + pin.origin().line() + ": " + pin.id() + " is pinned twice in one input, to "
                    + earlier.version() + " (" + earlier.origin().file() + " line " + earlier.origin().line()
                    + ") and to " + pin.version(), "keep one pin for " + pin.id() + " in this input");
            continue;
          }
          chosen.put(pin.id(), pin);
        }
      }
    }
    Map<String, PluginLock> set = new TreeMap<>();
    compatible.forEach((id, version) -> set.put(id, new PluginLock(id, version, PluginSource.PROFILE)));
    for (PluginPin pin : chosen.values()) {
      String listed = compatible.get(pin.id());
      String path = "plugins[" + pin.id() + "]";
      if (!pin.pinned() && listed == null) {
        problems.invalid(pin.origin().input(), pin.origin().file(), path, "line " + pin.origin().line() + ": plugin "
            + pin.id() + " has no version: no input pins one and " + profileSource.label()
            + " does not list it; rendering never picks \"latest\"",
            "pin a version in " + pin.origin().file() + " ({id: " + pin.id() + ", version: \"...\"}), or use a"
                + " JenkinsVersionProfile that lists " + pin.id());
      } else if (pin.pinned() && listed == null) {
        set.put(pin.id(), new PluginLock(pin.id(), pin.version(), PluginSource.PIN));
      } else if (pin.pinned() && !pin.version().equals(listed)) {
        problems.conflict(pin.origin().input(), pin.origin().file(), path + ".version", "line " + pin.origin().line()
            + ": plugin " + pin.id() + " is pinned to " + pin.version() + " by " + pin.origin().input() + ", but "
            + profileSource.label() + " lists " + pin.id() + " " + listed,
            "remove the version of " + pin.id() + " from " + pin.origin().file() + " of " + pin.origin().input()
                + " to take " + listed + ", or choose a JenkinsVersionProfile that lists " + pin.id() + " "
                + pin.version());
      } else if (pin.pinned()) {
        set.put(pin.id(), new PluginLock(pin.id(), listed, PluginSource.PROFILE_AND_PIN));
      }
    }
    return new ArrayList<>(set.values());
  }

  private static Map<String, String> profileSet(VersionProfile profile, Source profileSource, Problems problems) {
    Map<String, String> compatible = new TreeMap<>();
    for (VersionProfile.PluginVersion plugin : profile.plugins()) {
      String path = "spec.plugins[" + plugin.id() + "]";
      if (plugin.id() == null || !PluginsFile.PLUGIN_ID.matcher(plugin.id()).matches()) {
        problems.invalid(profileSource.label(), null, path, "the plugin id '" + plugin.id() + "' is not valid",
            "write the plugin's short name, e.g. git");
      } else if (plugin.version() == null || plugin.version().isBlank()) {
        problems.invalid(profileSource.label(), null, path, "plugin " + plugin.id() + " has no version",
            "give every plugin of the profile a version");
      } else {
        String earlier = compatible.putIfAbsent(plugin.id(), plugin.version());
        if (earlier != null && !earlier.equals(plugin.version())) {
          problems.invalid(profileSource.label(), null, path, "plugin " + plugin.id() + " is listed twice, at "
              + earlier + " and " + plugin.version(), "list each plugin once");
        }
      }
    }
    return compatible;
  }
}

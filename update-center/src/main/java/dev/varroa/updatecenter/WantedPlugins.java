package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.JenkinsVersionProfileSpec;
import java.io.IOException;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The plugin versions a JenkinsVersionProfile or a bundle lock names: what an export must carry and
 * an update center must hold.
 */
public final class WantedPlugins {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WantedPlugins() {}

  /** Every spec.plugins entry of the profile. */
  public static SortedSet<PluginCoordinates> of(JenkinsVersionProfile profile) {
    SortedSet<PluginCoordinates> plugins = new TreeSet<>();
    JenkinsVersionProfileSpec spec = profile.getSpec();
    if (spec != null && spec.plugins != null) {
      for (JenkinsVersionProfileSpec.PluginVersion plugin : spec.plugins) {
        if (plugin.id != null && plugin.version != null) {
          plugins.add(new PluginCoordinates(plugin.id, plugin.version));
        }
      }
    }
    return plugins;
  }

  /**
   * The {@code plugins} of a bundle.lock.json (BUNDLES.md section 5: each {@code {id, version, source}}).
   *
   * @throws IOException when the text is not a lock
   */
  public static SortedSet<PluginCoordinates> ofLock(byte[] lockJson) throws IOException {
    JsonNode root = JSON.readTree(lockJson);
    if (root == null || !root.path("plugins").isArray()) {
      throw new IOException("not a bundle.lock.json: it has no plugins array");
    }
    SortedSet<PluginCoordinates> plugins = new TreeSet<>();
    for (JsonNode plugin : root.path("plugins")) {
      try {
        plugins.add(new PluginCoordinates(plugin.path("id").asText(null), plugin.path("version").asText(null)));
      } catch (IllegalArgumentException e) {
        throw new IOException("not a usable bundle.lock.json: " + e.getMessage(), e);
      }
    }
    return plugins;
  }
}

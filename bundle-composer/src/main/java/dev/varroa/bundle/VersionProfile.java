package dev.varroa.bundle;

import java.util.List;

/**
 * The JenkinsVersionProfile a render uses: Jenkins version, the compatible plugin set and the
 * JCasC overlay merged after every input.
 */
public record VersionProfile(String name, String jenkinsVersion, String image, List<PluginVersion> plugins,
    String jcascOverlay) {
  public VersionProfile {
    plugins = plugins == null ? List.of() : List.copyOf(plugins);
    jcascOverlay = jcascOverlay == null ? "" : jcascOverlay;
  }

  /** One plugin at one version. */
  public record PluginVersion(String id, String version) {}
}

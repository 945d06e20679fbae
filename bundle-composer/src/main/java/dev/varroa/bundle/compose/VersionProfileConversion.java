package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.bundle.VersionProfile;
import java.util.List;

/** Turns the JenkinsVersionProfile object into the value a render takes. */
public final class VersionProfileConversion {
  private VersionProfileConversion() {}

  public static VersionProfile of(JenkinsVersionProfile profile) {
    var spec = profile.getSpec();
    List<VersionProfile.PluginVersion> plugins = spec.plugins == null ? List.of()
        : spec.plugins.stream().map(p -> new VersionProfile.PluginVersion(p.id, p.version)).toList();
    return new VersionProfile(profile.getMetadata().getName(), spec.jenkinsVersion, spec.image, plugins, spec.jcascOverlay);
  }
}

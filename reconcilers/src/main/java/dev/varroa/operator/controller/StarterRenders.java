package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.StarterBundle;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The built-in varroa-starter bundle rendered against each profile version, once: renders are pure. */
final class StarterRenders {
  private final Map<String, RenderedBundle> byProfileVersion = new ConcurrentHashMap<>();

  RenderedBundle render(JenkinsVersionProfile profile) throws BundleException {
    String key = profile.getMetadata().getName() + "@" + profile.getMetadata().getResourceVersion();
    RenderedBundle cached = byProfileVersion.get(key);
    if (cached == null) {
      cached = new BundleRenderer().render(new RenderRequest(StarterBundle.NAME, List.of(StarterBundle.input()),
          VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
      byProfileVersion.put(key, cached);
    }
    return cached;
  }
}

package dev.varroa.operator.updatecenter;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.JenkinsVersionProfileSpec;
import dev.varroa.bundle.render.PluginLock;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.operator.bundle.BundleConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.Collection;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Exactly the plugin versions a managed update center must hold: every JenkinsVersionProfile's
 * plugins and every ComposedBundle's lock (the render in force, in its {@code varroa-bundle-<name>}
 * ConfigMap), each with who names it. Controllers on the built-in starter bundle install their
 * profile's plugins, which the profiles already cover. Pure.
 */
public final class WantedPluginSet {
  private WantedPluginSet() {}

  /** {@code id:version} to the objects that name it, e.g. {@code JenkinsVersionProfile lts}. */
  public static SortedMap<String, SortedSet<String>> of(Collection<JenkinsVersionProfile> profiles,
      Collection<ConfigMap> bundleRenders) {
    SortedMap<String, SortedSet<String>> wanted = new TreeMap<>();
    for (JenkinsVersionProfile profile : profiles) {
      JenkinsVersionProfileSpec spec = profile.getSpec();
      if (spec == null || spec.plugins == null) {
        continue;
      }
      for (JenkinsVersionProfileSpec.PluginVersion plugin : spec.plugins) {
        if (plugin.id != null && plugin.version != null) {
          add(wanted, plugin.id + ":" + plugin.version, "JenkinsVersionProfile " + profile.getMetadata().getName());
        }
      }
    }
    for (ConfigMap render : bundleRenders) {
      Optional<RenderedBundle> rendered = BundleConfigMap.read(render);
      String bundle = Optional.ofNullable(render.getMetadata().getLabels()).map(l -> l.get(BundleConfigMap.BUNDLE_LABEL))
          .orElse(render.getMetadata().getName());
      for (PluginLock plugin : rendered.map(r -> r.lock().plugins()).orElse(java.util.List.of())) {
        add(wanted, plugin.id() + ":" + plugin.version(),
            "ComposedBundle " + render.getMetadata().getNamespace() + "/" + bundle);
      }
    }
    return wanted;
  }

  private static void add(SortedMap<String, SortedSet<String>> wanted, String plugin, String who) {
    wanted.computeIfAbsent(plugin, p -> new TreeSet<>()).add(who);
  }
}

package dev.varroa.operator.render;

import dev.varroa.operator.render.resolve.ResolvedController;
import dev.varroa.operator.render.resolve.VarroaPlugin;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;

/**
 * The ConfigMap with the locked plugins.txt the plugins init container installs: the bundle's lock plus the
 * Varroa plugin ({@link VarroaPlugin}); a change rolls the pod via the restart hash.
 */
public final class PluginsConfigMapRenderer {
  public static final String PLUGINS_KEY = "plugins.txt";

  private PluginsConfigMapRenderer() {}

  public static ConfigMap render(RenderInput input) {
    ResolvedController controller = input.controller();
    return new ConfigMapBuilder()
        .withMetadata(OwnedMetadata.of(input.names().pluginsConfigMap(), controller.namespace(), controller))
        .withData(Map.of(PLUGINS_KEY, pluginsText(input)))
        .build();
  }

  /** What the plugins init container installs; a cell's list has the pool's plugins (CellPlugins). */
  public static String pluginsText(RenderInput input) {
    return VarroaPlugin.pluginsText(input.cell().map(CellLayer::pluginsText).orElse(input.bundle().pluginsText()),
        input.installation());
  }
}

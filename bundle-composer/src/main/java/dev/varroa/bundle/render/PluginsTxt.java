package dev.varroa.bundle.render;

import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@code plugins.txt}: {@code id:version} lines sorted by id, as jenkins-plugin-cli --plugin-file reads them. */
final class PluginsTxt {
  private PluginsTxt() {}

  /** The plugins must already be sorted by id. */
  static byte[] write(List<PluginLock> plugins) {
    StringBuilder out = new StringBuilder();
    plugins.forEach(plugin -> out.append(plugin.id()).append(':').append(plugin.version()).append('\n'));
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }
}

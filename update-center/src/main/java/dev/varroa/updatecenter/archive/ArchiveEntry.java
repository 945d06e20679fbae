package dev.varroa.updatecenter.archive;

import dev.varroa.updatecenter.PluginCoordinates;

/**
 * One plugin in an archive's manifest.
 *
 * @param path the tar entry, {@code plugins/<id>/<version>/<id>.hpi}
 * @param sha256 hex, as {@code sha256sum} prints it
 */
public record ArchiveEntry(PluginCoordinates plugin, String path, String sha256, long size) {
  static String pathOf(PluginCoordinates plugin) {
    return PluginArchive.PLUGINS_FOLDER + "/" + plugin.relativePath();
  }
}

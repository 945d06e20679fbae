package dev.varroa.updatecenter;

import java.nio.file.Path;

/**
 * A plugin version the update center holds: its file, digests and what its manifest says.
 *
 * @param file the .hpi below the storage root
 */
public record HeldPlugin(PluginCoordinates coordinates, Path file, FileDigests digests, HpiManifest manifest) {}

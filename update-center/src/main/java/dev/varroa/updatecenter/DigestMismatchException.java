package dev.varroa.updatecenter;

import java.io.IOException;
import java.util.HexFormat;

/** A plugin's bytes do not have the SHA-256 its source vouches for. */
public final class DigestMismatchException extends IOException {
  private final PluginCoordinates plugin;

  public DigestMismatchException(PluginCoordinates plugin, byte[] expected, byte[] actual) {
    super("plugin " + plugin.display() + " has sha256 " + HexFormat.of().formatHex(actual) + " but its source says "
        + HexFormat.of().formatHex(expected));
    this.plugin = plugin;
  }

  public PluginCoordinates plugin() {
    return plugin;
  }
}

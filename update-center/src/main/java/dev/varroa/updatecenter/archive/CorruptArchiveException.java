package dev.varroa.updatecenter.archive;

import java.io.IOException;

/** A plugin archive that cannot be imported; the message names the archive, the plugin and the fix. Nothing was imported. */
public final class CorruptArchiveException extends IOException {
  public CorruptArchiveException(String message) {
    super(message);
  }

  public CorruptArchiveException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.varroa.updatecenter;

import java.io.IOException;

/** The upstream update site could not be read: unreachable, an HTTP error, or not an update site document. */
public final class UpstreamUnavailableException extends IOException {
  public UpstreamUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  public UpstreamUnavailableException(String message) {
    super(message);
  }
}

package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.SourceUnavailableException;

/**
 * Builds the {@link SourceUnavailableException} sources throw when a source cannot be read right now
 * (network, timeout, refused credentials or host key, server error): the operator keeps the last good
 * render and retries; varroactl exits 2 as for any invalid input.
 */
final class Unavailable {
  private Unavailable() {}

  /** @param cause the failure underneath, kept for logs; may be null */
  static SourceUnavailableException of(InputRef input, String what, String fix, Throwable cause) {
    SourceUnavailableException e = new SourceUnavailableException(
        new BundleProblem(BundleProblem.Kind.INVALID, input.describe(), null, null, what, fix));
    if (cause != null) {
      e.initCause(cause);
    }
    return e;
  }
}

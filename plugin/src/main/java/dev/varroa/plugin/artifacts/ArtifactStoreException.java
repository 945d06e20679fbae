package dev.varroa.plugin.artifacts;

/**
 * An archived artifact could not be written, listed or read; the message names the object key, the bucket and the
 * fix.
 */
public final class ArtifactStoreException extends Exception {

  private final int statusCode;

  ArtifactStoreException(String message, int statusCode, Throwable cause) {
    super(message, cause);
    this.statusCode = statusCode;
  }

  /** The store's HTTP status: 403 when the credential may not, 404 when there is no such object, 0 without answer. */
  public int statusCode() {
    return statusCode;
  }
}

package dev.varroa.recorder.logs;

/** The blob store could not be read or written now; the message names the store and what failed. */
public final class LogStoreException extends Exception {

  public LogStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  public LogStoreException(String message) {
    super(message);
  }
}

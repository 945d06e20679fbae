package dev.varroa.operator.hooks;

/** A delivery whose body is not what its sender documents; the message names the field and what was expected. */
public final class MalformedPayloadException extends Exception {
  public MalformedPayloadException(String message) {
    super(message);
  }
}

package dev.varroa.cli;

/** Input the command cannot use (unreadable file, missing object); varroactl exits 2. */
public final class InvalidInputException extends RuntimeException {
  public InvalidInputException(String message) {
    super(message);
  }
}

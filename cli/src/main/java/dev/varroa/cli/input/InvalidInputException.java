package dev.varroa.cli.input;

/** Input the command cannot use (unreadable file, missing object); varroactl exits 2. */
public final class InvalidInputException extends RuntimeException {
  /** What varroactl exits with for invalid input: unreadable source, bad YAML, missing reference. */
  public static final int EXIT_CODE = 2;

  public InvalidInputException(String message) {
    super(message);
  }
}

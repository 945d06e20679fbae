package dev.varroa.operator.brood;

/** A selection the API server took but that cannot be resolved; the message names the field and the fix. */
public final class InvalidSelection extends RuntimeException {
  public InvalidSelection(String message) {
    super(message);
  }
}

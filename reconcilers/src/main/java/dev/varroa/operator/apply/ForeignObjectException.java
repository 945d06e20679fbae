package dev.varroa.operator.apply;

/**
 * An object Varroa would write already exists and is not Varroa's ({@link ObjectOwnership}): the write is refused,
 * never forced. The message names the object and the fix.
 */
public final class ForeignObjectException extends RuntimeException {
  /** The condition reason a reconciler reports for it. */
  public static final String REASON = "ForeignObject";

  public ForeignObjectException(String message) {
    super(message);
  }
}

package dev.varroa.dashboard.records;

/** A query parameter the readers cannot use; the HTTP layer answers 400 naming {@link #parameter()}. */
public final class InvalidParameterException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String parameter;

  public InvalidParameterException(String parameter, String message) {
    super(message);
    this.parameter = parameter;
  }

  /** The query parameter as the API spells it, e.g. {@code limit}. */
  public String parameter() {
    return parameter;
  }
}

package dev.varroa.recorder.logs;

/**
 * How much of a run's console log a store holds: the bytes [0, storedThrough), and whether a last chunk landed.
 * A log the store has never seen is {@link #EMPTY}.
 */
public record LogExtent(long storedThrough, boolean complete) {

  public static final LogExtent EMPTY = new LogExtent(0, false);

  public LogExtent {
    if (storedThrough < 0) {
      throw new IllegalArgumentException("storedThrough must not be negative, got " + storedThrough);
    }
  }
}

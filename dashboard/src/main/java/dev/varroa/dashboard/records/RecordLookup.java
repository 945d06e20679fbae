package dev.varroa.dashboard.records;

/**
 * The answer to a read of one object by id: found, there but not the caller's to see (the HTTP layer answers 403
 * naming the scope), or not there at all (404).
 */
public sealed interface RecordLookup<T> {

  record Found<T>(T value) implements RecordLookup<T> {
  }

  /** The object exists in scope, and the caller's filter refused that scope. */
  record Denied<T>(ControllerScope scope) implements RecordLookup<T> {
  }

  record Missing<T>() implements RecordLookup<T> {
  }
}

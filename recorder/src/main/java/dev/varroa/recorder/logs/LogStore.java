package dev.varroa.recorder.logs;

import java.time.Instant;

/**
 * Where console logs live (seed 001 "Build Data Plane"): the s3 tier (any S3-compatible object store) or the
 * postgres tier (chunks in the record-store database, for small installs). A store only keeps bytes; the rules
 * for ordered, idempotent appends are {@code LogChunkAppender}'s, which calls {@link #write} only at the extent.
 */
public interface LogStore extends AutoCloseable {

  /** "s3" or "postgres", as recordStore.blobs.mode spells it. */
  String tier();

  /** What the store holds of this log now. */
  LogExtent extent(LogKey key) throws LogStoreException;

  /**
   * Stores data as the bytes [offset, offset + data.length) of the log, offset being the log's current extent,
   * and returns only once the bytes are durable. last marks the log complete (data may then be empty).
   * Writing the same bytes at the same offset again stores nothing twice.
   */
  LogExtent write(LogKey key, long offset, byte[] data, boolean last) throws LogStoreException;

  /** Up to maxBytes of the log starting at byte from: fewer at the end of what is stored, none at or past it. */
  byte[] read(LogKey key, long from, int maxBytes) throws LogStoreException;

  /** Removes every log whose last write was before cutoff, whole; returns how many runs' logs went. */
  long deleteWrittenBefore(Instant cutoff) throws LogStoreException;

  @Override
  void close();
}

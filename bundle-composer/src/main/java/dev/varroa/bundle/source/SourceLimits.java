package dev.varroa.bundle.source;

import java.time.Duration;

/**
 * Ceilings every source enforces while reading content it does not trust: archives, registry blobs
 * and Git trees. Exceeding one is invalid input that names the limit, never an OOM or a hang.
 *
 * @param maxArchiveBytes compressed bytes of one download or blob (tar.gz artifact, OCI layer)
 * @param maxFileBytes bytes of one file of the bundle directory
 * @param maxFiles files kept in one bundle directory
 * @param maxTotalBytes uncompressed bytes of one archive, and total bytes of the files kept from a Git tree
 * @param timeout connect and read timeout of one network operation
 */
public record SourceLimits(long maxArchiveBytes, long maxFileBytes, int maxFiles, long maxTotalBytes, Duration timeout) {
  public static final long DEFAULT_MAX_ARCHIVE_BYTES = 64L << 20;
  public static final long DEFAULT_MAX_FILE_BYTES = 4L << 20;
  public static final int DEFAULT_MAX_FILES = 10_000;
  public static final long DEFAULT_MAX_TOTAL_BYTES = 256L << 20;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  public static final SourceLimits DEFAULTS = new SourceLimits(DEFAULT_MAX_ARCHIVE_BYTES, DEFAULT_MAX_FILE_BYTES,
      DEFAULT_MAX_FILES, DEFAULT_MAX_TOTAL_BYTES, DEFAULT_TIMEOUT);

  public SourceLimits {
    if (maxArchiveBytes <= 0 || maxFileBytes <= 0 || maxFiles <= 0 || maxTotalBytes <= 0) {
      throw new IllegalArgumentException("source limits must be positive: " + maxArchiveBytes + ", " + maxFileBytes
          + ", " + maxFiles + ", " + maxTotalBytes);
    }
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("source timeout must be positive, was " + timeout);
    }
  }

  /** JGit takes whole seconds; never round a short timeout down to "no timeout" (0). */
  int timeoutSeconds() {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toSeconds()));
  }
}

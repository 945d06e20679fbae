package dev.varroa.bundle.source;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Counts the bytes actually read and fails once more than the limit went through; headers are never trusted. */
final class LimitedInputStream extends FilterInputStream {
  private final long limit;
  private final String limitName;
  private final String what;
  private long count;

  LimitedInputStream(InputStream in, long limit, String limitName, String what) {
    super(in);
    this.limit = limit;
    this.limitName = limitName;
    this.what = what;
  }

  @Override
  public int read() throws IOException {
    int b = super.read();
    if (b >= 0) {
      counted(1);
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    int n = super.read(buffer, offset, length);
    if (n > 0) {
      counted(n);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    // Route skips through read so skipped bytes count too (a bomb can hide in entries we skip).
    byte[] buffer = new byte[8192];
    long skipped = 0;
    while (skipped < n) {
      int r = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
      if (r < 0) {
        break;
      }
      skipped += r;
    }
    return skipped;
  }

  @Override
  public boolean markSupported() {
    return false;
  }

  private void counted(long n) throws LimitExceededException {
    count += n;
    if (count > limit) {
      throw new LimitExceededException(what, limitName, limit, null);
    }
  }
}

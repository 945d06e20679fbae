package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.TreeMap;

/** Collects the files of one bundle directory while enforcing the per-file, file-count and total limits. */
final class LimitedBundleFiles {
  private final SourceLimits limits;
  private final TreeMap<String, byte[]> files = new TreeMap<>();
  private long totalBytes;

  LimitedBundleFiles(SourceLimits limits) {
    this.limits = limits;
  }

  /** Fails fast on a declared size over the limit; the read is bounded anyway, so a lying size gains nothing. */
  void checkDeclaredSize(String path, long declaredSize) throws LimitExceededException {
    if (declaredSize > limits.maxFileBytes()) {
      throw new LimitExceededException("file " + path + " (" + declaredSize + " bytes)", "maxFileBytes",
          limits.maxFileBytes(), path);
    }
  }

  /** Reads one file, never holding more than maxFileBytes + 1 bytes of it. */
  byte[] read(String path, InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    long remaining = limits.maxFileBytes() + 1;
    int n;
    while (remaining > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining))) > 0) {
      out.write(buffer, 0, n);
      remaining -= n;
    }
    if (out.size() > limits.maxFileBytes()) {
      throw new LimitExceededException("file " + path, "maxFileBytes", limits.maxFileBytes(), path);
    }
    return out.toByteArray();
  }

  /** A path seen again replaces the earlier content, as extracting the archive with tar would. */
  void add(String path, byte[] content) throws LimitExceededException {
    checkDeclaredSize(path, content.length);
    byte[] earlier = files.get(path);
    long earlierBytes = earlier == null ? 0 : earlier.length;
    if (earlier == null && files.size() + 1 > limits.maxFiles()) {
      throw new LimitExceededException("the bundle directory (more than " + limits.maxFiles() + " files)", "maxFiles",
          limits.maxFiles(), null);
    }
    if (totalBytes - earlierBytes + content.length > limits.maxTotalBytes()) {
      throw new LimitExceededException("the bundle directory's total size", "maxTotalBytes", limits.maxTotalBytes(),
          path);
    }
    totalBytes += content.length - earlierBytes;
    files.put(path, content);
  }

  BundleFiles build() {
    return BundleFiles.of(files);
  }
}

package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * Unpacks a tar.gz (a Flux artifact, an OCI layer) into memory and keeps the regular files under one
 * folder, re-rooted there. Nothing touches the disk.
 *
 * <p>Safety rules: an entry with an absolute path or a ".." segment makes the whole archive invalid.
 * Symbolic and hard links inside the folder are refused (invalid input naming the link) rather than
 * skipped: the bundle would otherwise render differently from the checkout its author looks at;
 * links outside the folder are ignored. Every {@link SourceLimits} ceiling is counted on the bytes
 * actually streamed — compressed, uncompressed and per file — so a gzip bomb or a lying header ends
 * in a clean error after at most the limit's worth of work.
 */
public final class TarGzBundleReader {
  private final SourceLimits limits;

  public TarGzBundleReader(SourceLimits limits) {
    this.limits = limits;
  }

  /**
   * Reads {@code tarGz} (not closed here) and returns the files under {@code path}.
   *
   * @param where the archive as messages name it, e.g. "artifact https://… (revision main@sha1:…)"
   * @throws BundleException INVALID when the archive is malformed, unsafe, over a limit, or has no files under path
   */
  public BundleFiles read(InputRef input, InputStream tarGz, String path, String where) throws BundleException {
    SourceFolder folder = SourceFolder.of(input, path);
    LimitedBundleFiles files = new LimitedBundleFiles(limits);
    Set<String> topLevelNames = new TreeSet<>();
    try {
      InputStream compressed = new LimitedInputStream(tarGz, limits.maxArchiveBytes(), "maxArchiveBytes",
          "the compressed archive");
      InputStream uncompressed = new LimitedInputStream(new GzipCompressorInputStream(compressed),
          limits.maxTotalBytes(), "maxTotalBytes", "the uncompressed archive");
      TarArchiveInputStream tar = new TarArchiveInputStream(uncompressed);
      TarArchiveEntry entry;
      while ((entry = tar.getNextEntry()) != null) {
        EntryPath entryPath = safePath(input, entry, where);
        if (entry.isDirectory() || entryPath.isRoot()) {
          continue;
        }
        topLevelNames.add(entryPath.topLevelName());
        String relative = folder.relativize(entryPath);
        if (relative == null) {
          continue;
        }
        if (!entry.isFile() || entry.isLink() || entry.isSymbolicLink()) {
          throw unsupportedEntry(input, entry, relative, where);
        }
        files.checkDeclaredSize(relative, entry.getSize());
        files.add(relative, files.read(relative, tar));
      }
    } catch (LimitExceededException e) {
      throw InvalidInput.limit(input, e);
    } catch (IOException e) {
      throw InvalidInput.exception(input, where + " is not a readable tar.gz archive: " + FailureMessage.of(e),
          "publish the bundle directory as a gzip-compressed tar archive");
    }
    return folder.requireFiles(input, files.build(), where, topLevelNames);
  }

  private static EntryPath safePath(InputRef input, TarArchiveEntry entry, String where) throws BundleException {
    try {
      return EntryPath.of(entry.getName());
    } catch (IllegalArgumentException e) {
      throw InvalidInput.exception(input, entry.getName(), "entry '" + entry.getName() + "' of " + where + " "
          + e.getMessage() + "; the archive is refused", "build the archive from inside the bundle folder, with relative paths only");
    }
  }

  private static BundleException unsupportedEntry(InputRef input, TarArchiveEntry entry, String relative, String where) {
    if (entry.isSymbolicLink() || entry.isLink()) {
      return InvalidInput.exception(input, relative, (entry.isSymbolicLink() ? "symbolic" : "hard") + " link to '"
          + entry.getLinkName() + "' in " + where + " is not supported",
          "replace the link with a copy of the file it points to");
    }
    return InvalidInput.exception(input, relative, "entry of tar type '" + (char) entry.getLinkFlag() + "' in " + where
        + " is not a regular file", "keep only regular files and folders in the bundle directory");
  }
}

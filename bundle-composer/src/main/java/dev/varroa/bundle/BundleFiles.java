package dev.varroa.bundle;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The files of one bundle directory, by relative path with '/' separators, in lexical order.
 * Every source (Git, OCI, catalog, Flux) resolves an input to one of these.
 */
public final class BundleFiles {
  private final SortedMap<String, byte[]> files;

  private BundleFiles(SortedMap<String, byte[]> files) {
    this.files = Collections.unmodifiableSortedMap(files);
  }

  public static BundleFiles of(Map<String, byte[]> files) {
    return new BundleFiles(new TreeMap<>(files));
  }

  public static BundleFiles ofText(Map<String, String> files) {
    TreeMap<String, byte[]> bytes = new TreeMap<>();
    files.forEach((path, text) -> bytes.put(path, text.getBytes(StandardCharsets.UTF_8)));
    return new BundleFiles(bytes);
  }

  /** Paths in lexical order. */
  public SortedMap<String, byte[]> files() {
    return files;
  }

  public Optional<byte[]> file(String path) {
    return Optional.ofNullable(files.get(path));
  }

  public boolean isEmpty() {
    return files.isEmpty();
  }

  /** The files under a folder, re-rooted there; the whole set for an empty or "." folder. */
  public BundleFiles under(String folder) {
    String prefix = folder == null ? "" : folder.replaceAll("^\\./", "").replaceAll("^/+|/+$", "");
    if (prefix.isEmpty() || prefix.equals(".")) {
      return this;
    }
    TreeMap<String, byte[]> subset = new TreeMap<>();
    files.forEach((path, bytes) -> {
      if (path.startsWith(prefix + "/")) {
        subset.put(path.substring(prefix.length() + 1), bytes);
      }
    });
    return new BundleFiles(subset);
  }
}

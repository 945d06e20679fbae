package dev.varroa.bundle.source;

import java.util.ArrayList;
import java.util.List;

/**
 * A path inside an archive or artifact, normalised to '/'-separated segments. Absolute paths and
 * ".." segments are refused outright: an archive that tries to escape its folder is hostile, not sloppy.
 */
record EntryPath(String value) {

  /** Normalises {@code raw} ("./a//b/" → "a/b"); throws IllegalArgumentException saying why it is unsafe. */
  static EntryPath of(String raw) {
    if (raw == null || raw.isEmpty()) {
      throw new IllegalArgumentException("has an empty name");
    }
    if (raw.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("contains a NUL character");
    }
    if (raw.startsWith("/") || raw.startsWith("\\") || raw.matches("^[A-Za-z]:.*")) {
      throw new IllegalArgumentException("is an absolute path");
    }
    List<String> segments = new ArrayList<>();
    for (String segment : raw.split("[/\\\\]")) {
      if (segment.equals("..")) {
        throw new IllegalArgumentException("leaves its folder with '..'");
      }
      if (!segment.isEmpty() && !segment.equals(".")) {
        segments.add(segment);
      }
    }
    return new EntryPath(String.join("/", segments));
  }

  boolean isRoot() {
    return value.isEmpty();
  }

  /** The first segment, with a trailing '/' when more follow; for "did you mean" listings. */
  String topLevelName() {
    int slash = value.indexOf('/');
    return slash < 0 ? value : value.substring(0, slash + 1);
  }
}

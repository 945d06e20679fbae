package dev.varroa.mite;

import java.nio.file.Path;

/** Where a file of a desired state may go: strictly below its folder, named by a plain relative path. */
final class BundlePaths {

  private BundlePaths() {
  }

  /** The file's place under {@code root}; throws naming the path when it could leave the folder. */
  static Path resolve(Path root, String relative) throws UnsafePathException {
    if (relative == null || relative.isBlank()) {
      throw new UnsafePathException(relative, "is empty");
    }
    if (relative.indexOf('\0') >= 0) {
      throw new UnsafePathException(relative, "contains a NUL character");
    }
    if (relative.startsWith("/") || relative.startsWith("\\") || relative.matches("^[A-Za-z]:.*")) {
      throw new UnsafePathException(relative, "is absolute");
    }
    if (relative.indexOf('\\') >= 0) {
      throw new UnsafePathException(relative, "contains a backslash");
    }
    for (String segment : relative.split("/")) {
      if (segment.equals("..")) {
        throw new UnsafePathException(relative, "contains '..'");
      }
    }
    Path base = root.toAbsolutePath().normalize();
    Path target = base.resolve(relative).normalize();
    if (!target.startsWith(base) || target.equals(base)) {
      throw new UnsafePathException(relative, "does not name a file inside the folder");
    }
    return target;
  }

  /** A desired-state file path that is absolute, climbs out with "..", or is otherwise unusable. */
  static final class UnsafePathException extends Exception {
    UnsafePathException(String path, String problem) {
      super("file path '" + path + "' " + problem + ": desired-state paths are relative and stay inside their folder",
          null, false, false);
    }
  }
}

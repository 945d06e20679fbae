package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import java.util.Collection;
import java.util.stream.Collectors;

/** The folder of a source an input takes its bundle directory from ({@code path}; the root when unset). */
record SourceFolder(EntryPath path) {
  private static final int LISTED_NAMES = 12;

  /** Parses a spec's {@code path}; an unsafe one is invalid input naming the input. */
  static SourceFolder of(InputRef input, String path) throws BundleException {
    if (path == null || path.isBlank()) {
      return new SourceFolder(new EntryPath(""));
    }
    try {
      return new SourceFolder(EntryPath.of(path.strip()));
    } catch (IllegalArgumentException e) {
      throw InvalidInput.exception(input, "path '" + path + "' " + e.getMessage(),
          "set path to a folder relative to the root of the source, e.g. teams/a");
    }
  }

  /** The entry's path relative to this folder, or null when the entry is not inside it. */
  String relativize(EntryPath entry) {
    if (path.isRoot()) {
      return entry.isRoot() ? null : entry.value();
    }
    String prefix = path.value() + "/";
    return entry.value().startsWith(prefix) ? entry.value().substring(prefix.length()) : null;
  }

  String describe() {
    return path.isRoot() ? "the root folder" : "folder '" + path.value() + "'";
  }

  /** An empty result is an error: a typo in path must not silently render nothing (BUNDLES.md §2). */
  BundleFiles requireFiles(InputRef input, BundleFiles files, String where, Collection<String> topLevelNames)
      throws BundleException {
    if (!files.isEmpty()) {
      return files;
    }
    String seen = topLevelNames.isEmpty() ? "it holds no files at all"
        : "its top level holds: " + topLevelNames.stream().sorted().limit(LISTED_NAMES).collect(Collectors.joining(", "))
            + (topLevelNames.size() > LISTED_NAMES ? ", …" : "");
    throw InvalidInput.exception(input, describe() + " is missing or empty in " + where + " (" + seen + ")",
        "set path to the folder that holds the bundle files (bundle.yaml, jcasc/, plugins.yaml, variables.yaml),"
            + " or add them there");
  }
}

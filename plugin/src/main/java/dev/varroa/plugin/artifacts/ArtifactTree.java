package dev.varroa.plugin.artifacts;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A build's archived files as the folders Jenkins shows on the build page, made from the store's flat list of keys.
 * An object store has no folders: a folder exists because some file lies below it. Paths are relative to the build's
 * artifacts, '/'-separated; "" is the root, a folder as soon as the build archived anything.
 */
public final class ArtifactTree {

  private final NavigableMap<String, StoredArtifact> files;

  private ArtifactTree(NavigableMap<String, StoredArtifact> files) {
    this.files = files;
  }

  /**
   * The tree of a build's listing. A key that names a folder (ends in '/', as some tools write for an empty folder)
   * is not a file and is left out; the uploader never writes one.
   */
  public static ArtifactTree of(Collection<StoredArtifact> artifacts) {
    NavigableMap<String, StoredArtifact> files = new TreeMap<>();
    for (StoredArtifact artifact : artifacts) {
      String path = artifact.relativePath();
      if (!path.isEmpty() && !path.endsWith("/")) {
        files.put(path, artifact);
      }
    }
    return new ArtifactTree(files);
  }

  /** The file archived at this path, if any. */
  public Optional<StoredArtifact> file(String path) {
    return Optional.ofNullable(files.get(normalize(path)));
  }

  /**
   * Whether some file lies below this path. A path can be a file and a folder at once (one archiving step stored
   * {@code a}, a later one {@code a/b}): both stay reachable.
   */
  public boolean isFolder(String path) {
    String below = folderPrefix(normalize(path));
    String first = files.ceilingKey(below);
    return first != null && first.startsWith(below);
  }

  /** The names directly inside this folder, sorted; empty for a file or a path nothing lies below. */
  public List<String> children(String path) {
    String below = folderPrefix(normalize(path));
    TreeSet<String> names = new TreeSet<>();
    for (String key : files.tailMap(below, true).keySet()) {
      if (!key.startsWith(below)) {
        break;
      }
      String rest = key.substring(below.length());
      int slash = rest.indexOf('/');
      names.add(slash < 0 ? rest : rest.substring(0, slash));
    }
    return new ArrayList<>(names);
  }

  /** Every archived file, by relative path. */
  public Map<String, StoredArtifact> files() {
    return files;
  }

  /** This folder's child: {@code child("a", "b/c")} is {@code a/b/c}; the root's child is the name itself. */
  public static String child(String folder, String name) {
    String parent = normalize(folder);
    String rest = normalize(name);
    return parent.isEmpty() ? rest : rest.isEmpty() ? parent : parent + "/" + rest;
  }

  /** The folder holding this path; "" for a name at the root. */
  public static String parent(String path) {
    String normal = normalize(path);
    int slash = normal.lastIndexOf('/');
    return slash < 0 ? "" : normal.substring(0, slash);
  }

  /** The last segment of the path; "" for the root. */
  public static String name(String path) {
    String normal = normalize(path);
    return normal.substring(normal.lastIndexOf('/') + 1);
  }

  /**
   * The path without leading, trailing or doubled '/' (Jenkins' file views join segments loosely). A '.' or '..'
   * segment is refused: a path must not leave the build's artifacts.
   */
  public static String normalize(String path) {
    if (path == null) {
      throw new IllegalArgumentException("an archived path is null: give a path relative to the build's artifacts");
    }
    StringBuilder normal = new StringBuilder();
    for (String segment : path.replace('\\', '/').split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("the archived path '" + path + "' has a '.' or '..' segment: give a path "
            + "inside the build's artifacts, such as target/report.html");
      }
      normal.append(normal.isEmpty() ? "" : "/").append(segment);
    }
    return normal.toString();
  }

  private static String folderPrefix(String normalPath) {
    return normalPath.isEmpty() ? "" : normalPath + "/";
  }
}

package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The storage folder (the UpdateCenter's volume): {@code plugins/<id>/<version>/<id>.hpi}, the same
 * layout as an update site's {@code download/plugins/}. New files are written to {@code .incoming/}
 * and moved into place only once their digest is checked, so a reader never sees half a plugin.
 */
public final class PluginStore {
  public static final String PLUGINS_FOLDER = "plugins";
  static final String INCOMING_FOLDER = ".incoming";

  private final Path root;
  /** Digests and manifests by file, kept while size and modification time stay the same: a scan reads each file once. */
  private final Map<Path, Cached> cache = new ConcurrentHashMap<>();

  private record Cached(long size, FileTime modified, HeldPlugin plugin) {}

  /** What a scan found: the usable plugins, and files that are not (named, with the reason). */
  public record Scan(SortedMap<PluginCoordinates, HeldPlugin> held, List<String> problems) {}

  public PluginStore(Path root) {
    this.root = root;
  }

  public Path root() {
    return root;
  }

  public Path pathOf(PluginCoordinates plugin) {
    return root.resolve(PLUGINS_FOLDER).resolve(plugin.id()).resolve(plugin.version()).resolve(plugin.fileName());
  }

  /** Every plugin file below {@code plugins/}; one that is not a plugin of the id and version its path says is a problem. */
  public Scan scan() throws IOException {
    SortedMap<PluginCoordinates, HeldPlugin> held = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    Path plugins = root.resolve(PLUGINS_FOLDER);
    if (!Files.isDirectory(plugins)) {
      return new Scan(held, problems);
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(plugins, 3)) {
      files = walk.filter(f -> f.getNameCount() - plugins.getNameCount() == 3 && f.toString().endsWith(".hpi"))
          .sorted().toList();
    }
    for (Path file : files) {
      String id = file.getParent().getParent().getFileName().toString();
      String version = file.getParent().getFileName().toString();
      PluginCoordinates coordinates;
      try {
        coordinates = new PluginCoordinates(id, version);
      } catch (IllegalArgumentException e) {
        problems.add(plugins.relativize(file) + ": " + e.getMessage());
        continue;
      }
      if (!file.getFileName().toString().equals(coordinates.fileName())) {
        continue;
      }
      try {
        held.put(coordinates, describe(coordinates, file));
      } catch (IOException e) {
        problems.add(plugins.relativize(file) + ": " + e.getMessage());
      }
    }
    cache.keySet().removeIf(path -> !Files.exists(path));
    return new Scan(held, problems);
  }

  private HeldPlugin describe(PluginCoordinates coordinates, Path file) throws IOException {
    long size = Files.size(file);
    FileTime modified = Files.getLastModifiedTime(file);
    Cached cached = cache.get(file);
    if (cached != null && cached.size() == size && cached.modified().equals(modified)) {
      return cached.plugin();
    }
    HpiManifest manifest = HpiManifest.read(file);
    if (!manifest.shortName().equals(coordinates.id())) {
      throw new IOException("its manifest says Short-Name " + manifest.shortName() + ", not " + coordinates.id());
    }
    HeldPlugin plugin = new HeldPlugin(coordinates, file, FileDigests.of(file), manifest);
    cache.put(file, new Cached(size, modified, plugin));
    return plugin;
  }

  /**
   * Writes a plugin from a stream, checking its SHA-256 before it takes its place.
   *
   * @param expectedSha256 the digest the source vouches for
   * @throws DigestMismatchException when the bytes do not match; nothing is written
   * @throws IOException when the bytes are not a plugin of that id
   */
  public HeldPlugin store(PluginCoordinates plugin, InputStream content, byte[] expectedSha256) throws IOException {
    Path incoming = Files.createDirectories(root.resolve(INCOMING_FOLDER));
    Path temporary = Files.createTempFile(incoming, plugin.id() + "-", ".hpi");
    try {
      Files.copy(content, temporary, StandardCopyOption.REPLACE_EXISTING);
      FileDigests digests = FileDigests.of(temporary);
      if (!MessageDigest.isEqual(digests.sha256(), expectedSha256)) {
        throw new DigestMismatchException(plugin, expectedSha256, digests.sha256());
      }
      HpiManifest manifest = HpiManifest.read(temporary);
      if (!manifest.shortName().equals(plugin.id())) {
        throw new IOException(plugin.display() + ": the file's manifest says Short-Name " + manifest.shortName()
            + ", so it is not plugin " + plugin.id());
      }
      Path target = pathOf(plugin);
      Files.createDirectories(target.getParent());
      try {
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING);
      }
      return new HeldPlugin(plugin, target, digests, manifest);
    } finally {
      Files.deleteIfExists(temporary);
    }
  }

  /** The held file of a plugin version, if any. */
  public Optional<Path> file(PluginCoordinates plugin) {
    Path path = pathOf(plugin);
    return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
  }

  /** Removes what an interrupted write left in {@code .incoming/}. */
  public void clearIncoming() {
    Path incoming = root.resolve(INCOMING_FOLDER);
    if (!Files.isDirectory(incoming)) {
      return;
    }
    try (Stream<Path> files = Files.list(incoming)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear " + incoming, e);
    }
  }
}

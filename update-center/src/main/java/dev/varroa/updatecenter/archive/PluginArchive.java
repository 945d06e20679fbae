package dev.varroa.updatecenter.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.varroa.updatecenter.FileDigests;
import dev.varroa.updatecenter.HeldPlugin;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.PluginStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * The file that carries plugins into an air gap: a tar with {@value #MANIFEST} first (format, and
 * every plugin's id, version, path, SHA-256 and size), {@value #CHECKSUMS} (the same digests in
 * {@code sha256sum -c} form, for a check without Varroa), then {@code plugins/<id>/<version>/<id>.hpi}.
 * An import checks every plugin against the manifest before any of them is stored: a damaged
 * archive imports nothing.
 */
public final class PluginArchive {
  public static final String MANIFEST = "manifest.json";
  public static final String CHECKSUMS = "SHA256SUMS";
  public static final String FORMAT = "varroa-plugin-archive/1";
  static final String PLUGINS_FOLDER = "plugins";
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private PluginArchive() {}

  /** A plugin file to put into an archive, with its digests. */
  public record Source(PluginCoordinates plugin, Path file, FileDigests digests) {}

  /** Writes the archive; returns its manifest entries. */
  public static List<ArchiveEntry> write(Path archive, List<Source> sources) throws IOException {
    List<Source> sorted = sources.stream().sorted(Comparator.comparing(Source::plugin)).toList();
    List<ArchiveEntry> entries = sorted.stream().map(s -> new ArchiveEntry(s.plugin(), ArchiveEntry.pathOf(s.plugin()),
        s.digests().sha256Hex(), s.digests().size())).toList();
    Path parent = archive.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Path temporary = Files.createTempFile(parent, archive.getFileName().toString(), ".partial");
    try {
      try (OutputStream file = Files.newOutputStream(temporary); TarArchiveOutputStream tar = new TarArchiveOutputStream(file)) {
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        addBytes(tar, MANIFEST, manifest(entries));
        addBytes(tar, CHECKSUMS, checksums(entries).getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < sorted.size(); i++) {
          TarArchiveEntry entry = new TarArchiveEntry(entries.get(i).path());
          entry.setSize(sorted.get(i).digests().size());
          tar.putArchiveEntry(entry);
          Files.copy(sorted.get(i).file(), tar);
          tar.closeArchiveEntry();
        }
        tar.finish();
      }
      Files.move(temporary, archive, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(temporary);
    }
    return entries;
  }

  /**
   * Reads an archive, checks every plugin against the manifest, and only then stores them all.
   *
   * @param name how messages name the archive (its file name, or "the upload")
   * @return the plugins imported
   * @throws CorruptArchiveException naming the plugin and the fix; the store is unchanged
   */
  public static List<HeldPlugin> importInto(InputStream archive, String name, PluginStore store) throws IOException {
    Path staging = Files.createTempDirectory(Files.createDirectories(store.root().resolve(".incoming")), "import-");
    try {
      Map<String, ArchiveEntry> expected = null;
      Map<String, Path> staged = new LinkedHashMap<>();
      TarArchiveInputStream tar = new TarArchiveInputStream(archive);
      TarArchiveEntry entry;
      try {
        while ((entry = tar.getNextEntry()) != null) {
          if (entry.isDirectory()) {
            continue;
          }
          if (expected == null) {
            if (!entry.getName().equals(MANIFEST)) {
              throw new CorruptArchiveException(name + ": the first entry is " + entry.getName() + ", not " + MANIFEST
                  + ", so this is not a Varroa plugin archive; fix: create it with `varroactl updatecenter export`");
            }
            expected = readManifest(tar.readAllBytes(), name);
            continue;
          }
          if (entry.getName().equals(CHECKSUMS)) {
            continue;
          }
          ArchiveEntry plugin = expected.get(entry.getName());
          if (plugin == null) {
            throw new CorruptArchiveException(name + ": entry " + entry.getName() + " is not in its " + MANIFEST
                + "; the archive was changed after export; fix: export it again with `varroactl updatecenter export`");
          }
          Path file = staging.resolve(staged.size() + ".hpi");
          Files.copy(tar, file);
          FileDigests digests = FileDigests.of(file);
          if (!digests.sha256Hex().equals(plugin.sha256()) || digests.size() != plugin.size()) {
            throw new CorruptArchiveException(name + ": plugin " + plugin.plugin().display() + " (" + plugin.path()
                + ") has sha256 " + digests.sha256Hex() + " and " + digests.size() + " bytes, but the manifest says "
                + plugin.sha256() + " and " + plugin.size() + " bytes; the archive was damaged in transfer or changed;"
                + " fix: copy the archive again from the connected machine, or export it again with"
                + " `varroactl updatecenter export`. Nothing was imported.");
          }
          staged.put(entry.getName(), file);
        }
      } catch (CorruptArchiveException e) {
        throw e;
      } catch (IOException | IllegalArgumentException e) {
        throw new CorruptArchiveException(name + ": not a readable tar archive (" + e.getMessage() + "); it is"
            + " truncated or not a plugin archive; fix: copy it again, or export it again with"
            + " `varroactl updatecenter export`. Nothing was imported.", e);
      }
      if (expected == null) {
        throw new CorruptArchiveException(name + ": empty, no " + MANIFEST + "; fix: create the archive with"
            + " `varroactl updatecenter export`");
      }
      List<String> absent = expected.keySet().stream().filter(path -> !staged.containsKey(path)).toList();
      if (!absent.isEmpty()) {
        ArchiveEntry first = expected.get(absent.get(0));
        throw new CorruptArchiveException(name + ": plugin " + first.plugin().display() + " (" + first.path()
            + ") is in the manifest but not in the archive" + (absent.size() > 1 ? " (and " + (absent.size() - 1)
            + " more)" : "") + "; the archive is truncated; fix: copy it again from the connected machine."
            + " Nothing was imported.");
      }
      List<HeldPlugin> imported = new ArrayList<>();
      for (Map.Entry<String, Path> file : staged.entrySet()) {
        ArchiveEntry plugin = expected.get(file.getKey());
        try (InputStream in = Files.newInputStream(file.getValue())) {
          imported.add(store.store(plugin.plugin(), in, HexFormat.of().parseHex(plugin.sha256())));
        }
      }
      return imported;
    } finally {
      deleteRecursively(staging);
    }
  }

  /** The manifest entries of an archive, without checking its plugins (for a listing). */
  public static List<ArchiveEntry> manifest(Path archive) throws IOException {
    try (InputStream in = Files.newInputStream(archive); TarArchiveInputStream tar = new TarArchiveInputStream(in)) {
      TarArchiveEntry first = tar.getNextEntry();
      if (first == null || !first.getName().equals(MANIFEST)) {
        throw new CorruptArchiveException(archive + ": no " + MANIFEST + " first; not a Varroa plugin archive");
      }
      return List.copyOf(readManifest(tar.readAllBytes(), archive.toString()).values());
    }
  }

  private static Map<String, ArchiveEntry> readManifest(byte[] bytes, String name) throws CorruptArchiveException {
    JsonNode root;
    try {
      root = JSON.readTree(bytes);
    } catch (IOException e) {
      throw new CorruptArchiveException(name + ": " + MANIFEST + " is not valid JSON (" + e.getMessage()
          + "); fix: export the archive again with `varroactl updatecenter export`", e);
    }
    if (root == null || !FORMAT.equals(root.path("format").asText())) {
      throw new CorruptArchiveException(name + ": " + MANIFEST + " has format '" + (root == null ? "" : root.path("format")
          .asText()) + "', not " + FORMAT + "; fix: export it with this varroactl version");
    }
    Map<String, ArchiveEntry> entries = new LinkedHashMap<>();
    for (JsonNode plugin : root.path("plugins")) {
      try {
        PluginCoordinates coordinates = new PluginCoordinates(plugin.path("id").asText(), plugin.path("version").asText());
        String path = ArchiveEntry.pathOf(coordinates);
        String sha256 = plugin.path("sha256").asText();
        if (!sha256.matches("[0-9a-f]{64}")) {
          throw new IllegalArgumentException("its sha256 '" + sha256 + "' is not 64 hex digits");
        }
        entries.put(path, new ArchiveEntry(coordinates, path, sha256, plugin.path("size").asLong(-1)));
      } catch (IllegalArgumentException e) {
        throw new CorruptArchiveException(name + ": " + MANIFEST + " lists an unusable plugin (" + e.getMessage()
            + "); fix: export the archive again with `varroactl updatecenter export`", e);
      }
    }
    return entries;
  }

  private static byte[] manifest(List<ArchiveEntry> entries) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    ArrayNode plugins = root.putArray("plugins");
    for (ArchiveEntry entry : entries) {
      plugins.addObject().put("id", entry.plugin().id()).put("version", entry.plugin().version())
          .put("path", entry.path()).put("sha256", entry.sha256()).put("size", entry.size());
    }
    return JSON.writeValueAsBytes(root);
  }

  private static String checksums(List<ArchiveEntry> entries) {
    StringBuilder text = new StringBuilder();
    entries.forEach(e -> text.append(e.sha256()).append("  ").append(e.path()).append('\n'));
    return text.toString();
  }

  private static void addBytes(TarArchiveOutputStream tar, String name, byte[] bytes) throws IOException {
    TarArchiveEntry entry = new TarArchiveEntry(name);
    entry.setSize(bytes.length);
    tar.putArchiveEntry(entry);
    tar.write(bytes);
    tar.closeArchiveEntry();
  }

  private static void deleteRecursively(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(folder)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

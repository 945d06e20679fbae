package dev.varroa.updatecenter.archive;

import dev.varroa.updatecenter.FileDigests;
import dev.varroa.updatecenter.HpiManifest;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.UpstreamPlugin;
import dev.varroa.updatecenter.UpstreamSite;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The connected half of an air-gapped install: download exactly the wanted plugin versions from an
 * upstream update site, each checked against the SHA-256 the site publishes, into one archive.
 */
public final class PluginExport {
  private final UpstreamSite upstream;

  public PluginExport(UpstreamSite upstream) {
    this.upstream = upstream;
  }

  /** Why an export cannot complete; the message names the plugins and the fix. Nothing was written. */
  public static final class ExportException extends IOException {
    public ExportException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Downloads every wanted plugin and writes the archive; returns its manifest entries. */
  public List<ArchiveEntry> export(SortedSet<PluginCoordinates> wanted, Path archive) throws IOException {
    UpstreamSite.Resolution resolution;
    try {
      resolution = upstream.locate(wanted);
    } catch (IOException e) {
      throw new ExportException("cannot read the upstream update site: " + e.getMessage()
          + "; fix: run the export on a machine that reaches it, or name another one with --upstream", e);
    }
    if (!resolution.unavailable().isEmpty()) {
      throw new ExportException(resolution.unavailable().entrySet().stream()
          .map(e -> e.getValue()).collect(Collectors.joining("; "))
          + "; fix: correct the version in the profile or lock, or name an update site that has it with --upstream"
          + " (and --plugin-versions)", null);
    }
    Path downloads = Files.createTempDirectory("varroa-export-");
    try {
      List<PluginArchive.Source> sources = new ArrayList<>();
      for (Map.Entry<PluginCoordinates, UpstreamPlugin> plugin : resolution.located().entrySet()) {
        sources.add(download(plugin.getValue(), downloads.resolve(sources.size() + ".hpi")));
      }
      return PluginArchive.write(archive, sources);
    } finally {
      try (Stream<Path> files = Files.walk(downloads)) {
        for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    }
  }

  private PluginArchive.Source download(UpstreamPlugin plugin, Path file) throws IOException {
    try (InputStream in = upstream.open(plugin)) {
      Files.copy(in, file);
    } catch (IOException e) {
      throw new ExportException("cannot download " + plugin.coordinates().display() + " from " + plugin.url() + ": "
          + e.getMessage() + "; fix: retry, or name a mirror with --upstream", e);
    }
    FileDigests digests = FileDigests.of(file);
    if (!MessageDigest.isEqual(digests.sha256(), plugin.sha256())) {
      throw new ExportException("the download of " + plugin.coordinates().display() + " from " + plugin.url()
          + " has sha256 " + digests.sha256Hex() + " but the update site publishes "
          + HexFormat.of().formatHex(plugin.sha256()) + "; the download was damaged or the mirror serves another file;"
          + " fix: retry, or name another mirror with --upstream. Nothing was written.", null);
    }
    HpiManifest manifest;
    try {
      manifest = HpiManifest.read(file);
    } catch (IOException e) {
      throw new ExportException("the download of " + plugin.coordinates().display() + " is not a Jenkins plugin: "
          + e.getMessage(), e);
    }
    if (!manifest.shortName().equals(plugin.coordinates().id())) {
      throw new ExportException("the download of " + plugin.coordinates().display() + " is plugin "
          + manifest.shortName() + "; the update site's url for it is wrong", null);
    }
    return new PluginArchive.Source(plugin.coordinates(), file, digests);
  }
}

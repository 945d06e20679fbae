package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import land.oras.ContainerRef;
import land.oras.Layer;
import land.oras.Manifest;
import land.oras.Registry;

/**
 * Turns an artifact manifest into the files of a bundle directory. Two layouts: exactly one tar+gzip
 * layer holding the directory (Flux's {@value #FLUX_CONTENT} or {@value #OCI_LAYER_TAR_GZIP}), or one
 * layer per file, each titled ({@value #TITLE}) with its path. Every blob is checked against its digest.
 */
final class OciArtifactReader {
  static final String FLUX_CONTENT = "application/vnd.cncf.flux.content.v1.tar+gzip";
  static final String OCI_LAYER_TAR_GZIP = "application/vnd.oci.image.layer.v1.tar+gzip";
  static final String TITLE = "org.opencontainers.image.title";
  private static final Set<String> ARCHIVE_MEDIA_TYPES = Set.of(FLUX_CONTENT, OCI_LAYER_TAR_GZIP);

  private final SourceLimits limits;
  private final TarGzBundleReader tarReader;

  OciArtifactReader(SourceLimits limits) {
    this.limits = limits;
    this.tarReader = new TarGzBundleReader(limits);
  }

  /** @param where the manifest as messages name it, e.g. "oci://…/team-a at 1.4.0@sha256:…" */
  BundleFiles read(InputRef input, Registry registry, ContainerRef manifestRef, Manifest manifest, String path,
      String where) throws BundleException, IOException {
    List<Layer> layers = manifest.getLayers() == null ? List.of() : manifest.getLayers();
    if (layers.isEmpty()) {
      throw InvalidInput.exception(input, where + " has no layers", "push the bundle directory as a tar+gzip layer");
    }
    if (layers.size() == 1 && ARCHIVE_MEDIA_TYPES.contains(layers.get(0).getMediaType())) {
      return readArchive(input, registry, manifestRef, layers.get(0), path, where);
    }
    return readFileLayers(input, registry, manifestRef, layers, path, where);
  }

  private BundleFiles readArchive(InputRef input, Registry registry, ContainerRef manifestRef, Layer layer, String path,
      String where) throws BundleException, IOException {
    if (layer.getSize() != null && layer.getSize() > limits.maxArchiveBytes()) {
      throw InvalidInput.limit(input, new LimitExceededException("the archive layer of " + where + " ("
          + layer.getSize() + " bytes)", "maxArchiveBytes", limits.maxArchiveBytes(), null));
    }
    try (InputStream blob = registry.fetchBlob(manifestRef.withDigest(layer.getDigest()));
        SpooledArtifact archive = SpooledArtifact.spool(blob, limits.maxArchiveBytes(), "the archive layer of " + where)) {
      requireDigest(input, layer, archive.digest(), where);
      try (InputStream in = archive.open()) {
        return tarReader.read(input, in, path, where);
      }
    } catch (LimitExceededException e) {
      throw InvalidInput.limit(input, e);
    }
  }

  private BundleFiles readFileLayers(InputRef input, Registry registry, ContainerRef manifestRef, List<Layer> layers,
      String path, String where) throws BundleException, IOException {
    SourceFolder folder = SourceFolder.of(input, path);
    LimitedBundleFiles files = new LimitedBundleFiles(limits);
    Set<String> topLevelNames = new TreeSet<>();
    try {
      for (Layer layer : layers) {
        EntryPath file = titledPath(input, layer, where);
        topLevelNames.add(file.topLevelName());
        String relative = folder.relativize(file);
        if (relative == null) {
          continue;
        }
        if (layer.getSize() != null) {
          files.checkDeclaredSize(relative, layer.getSize());
        }
        byte[] content;
        try (InputStream blob = registry.fetchBlob(manifestRef.withDigest(layer.getDigest()))) {
          content = files.read(relative, blob);
        }
        requireDigest(input, layer, Sha256.digest(content), where);
        files.add(relative, content);
      }
    } catch (LimitExceededException e) {
      throw InvalidInput.limit(input, e);
    }
    return folder.requireFiles(input, files.build(), where, topLevelNames);
  }

  private static EntryPath titledPath(InputRef input, Layer layer, String where) throws BundleException {
    String title = layer.getAnnotations() == null ? null : layer.getAnnotations().get(TITLE);
    if (title == null || title.isBlank()) {
      throw InvalidInput.exception(input, "layer " + layer.getDigest() + " (" + layer.getMediaType() + ") of " + where
              + " has no " + TITLE + " annotation, so its file path is unknown",
          "push the bundle as one " + FLUX_CONTENT + " layer (flux push artifact), or annotate each file layer with its"
              + " path (oras push does)");
    }
    try {
      return EntryPath.of(title);
    } catch (IllegalArgumentException e) {
      throw InvalidInput.exception(input, title, "layer title '" + title + "' of " + where + " " + e.getMessage()
          + "; the artifact is refused", "title each layer with a path relative to the bundle directory");
    }
  }

  private static void requireDigest(InputRef input, Layer layer, String actual, String where) throws BundleException {
    if (!actual.equals(layer.getDigest())) {
      throw InvalidInput.exception(input, "layer " + layer.getDigest() + " of " + where + " has content with digest "
          + actual + "; it is not used", "push the artifact again; the registry serves corrupt or substituted content");
    }
  }
}

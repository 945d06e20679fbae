package dev.varroa.updatecenter;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signing identity from the mounted Secret, read again when its files change (a Secret volume
 * is updated in place, so a rotated key takes effect without a restart). Without the files the
 * service signs with a key of its own made at start, and says so: controllers will not trust it.
 */
final class SigningFolder implements Supplier<SigningIdentity> {
  private static final Logger LOG = LoggerFactory.getLogger(SigningFolder.class);

  private final Path folder;
  private SigningIdentity current;
  private List<FileTime> loadedAt = List.of();

  SigningFolder(Path folder) {
    this.folder = folder;
  }

  @Override
  public synchronized SigningIdentity get() {
    Path key = folder.resolve(SigningIdentity.KEY_FILE);
    if (!Files.exists(key)) {
      if (current == null) {
        current = SigningIdentity.generate("varroa-update-center (ephemeral)", SigningIdentity.DEFAULT_VALIDITY);
        LOG.warn("event=signing_key_ephemeral folder={} effect=\"controllers that trust the operator's CA reject this"
            + " update-center.json\" fix=\"mount the UpdateCenter's signing Secret there\"", folder);
      }
      return current;
    }
    try {
      List<FileTime> times = List.of(mtime(SigningIdentity.CA_FILE), mtime(SigningIdentity.CERTIFICATE_FILE),
          mtime(SigningIdentity.KEY_FILE));
      if (current == null || !times.equals(loadedAt)) {
        current = SigningIdentity.load(folder);
        loadedAt = times;
        LOG.info("event=signing_key_loaded folder={} subject=\"{}\"", folder,
            current.signer().getSubjectX500Principal().getName());
      }
      return current;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the signing identity in " + folder + ": " + e.getMessage(), e);
    }
  }

  private FileTime mtime(String file) throws IOException {
    return Files.getLastModifiedTime(folder.resolve(file));
  }
}

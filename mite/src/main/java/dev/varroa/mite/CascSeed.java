package dev.varroa.mite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies the operator's last rendered JCasC (a ConfigMap mount, no secrets) into the empty JCasC
 * folder at start, so Jenkins boots configured even when the channel is down.
 */
final class CascSeed {

  private static final Logger LOG = LoggerFactory.getLogger(CascSeed.class);

  private CascSeed() {
  }

  /** Returns how many files were copied; none when the folder already holds files (a container restart). */
  static int seedIfEmpty(Path seedDir, Path cascDir) throws IOException {
    Files.createDirectories(cascDir);
    try (Stream<Path> existing = Files.walk(cascDir)) {
      if (existing.anyMatch(p -> !Files.isDirectory(p))) {
        LOG.info("event=casc_seed_skipped reason=casc_dir_not_empty casc_dir={}", cascDir);
        return 0;
      }
    }
    if (!Files.isDirectory(seedDir)) {
      LOG.info("event=casc_seed_skipped reason=no_seed_dir seed_dir={}", seedDir);
      return 0;
    }
    List<Path> files;
    try (Stream<Path> listed = Files.list(seedDir)) {
      // a ConfigMap mount shows each key as a symlink into ..data/; the dot entries are its machinery
      files = listed.filter(p -> !p.getFileName().toString().startsWith("."))
          .filter(Files::isRegularFile)
          .sorted()
          .toList();
    }
    for (Path file : files) {
      AtomicFiles.write(cascDir.resolve(file.getFileName().toString()), Files.readAllBytes(file),
          AtomicFiles.WORLD_READABLE);
    }
    LOG.info("event=casc_seeded files={} seed_dir={} casc_dir={}", files.size(), seedDir, cascDir);
    return files.size();
  }
}

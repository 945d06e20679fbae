package dev.varroa.mite;

import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one desired state: secret files (mode 0400) and JCasC files into their folders, each written
 * atomically, files not listed removed; then asks Jenkins to reload its configuration.
 */
final class DesiredStateApplier {

  private static final Logger LOG = LoggerFactory.getLogger(DesiredStateApplier.class);

  private final Path cascDir;
  private final Path secretsDir;
  private final JenkinsActions jenkins;
  private final JenkinsBearer bearer;
  private final Clock clock;

  DesiredStateApplier(Path cascDir, Path secretsDir, JenkinsActions jenkins, JenkinsBearer bearer, Clock clock) {
    this.cascDir = cascDir;
    this.secretsDir = secretsDir;
    this.jenkins = jenkins;
    this.bearer = bearer;
    this.clock = clock;
  }

  CommandOutcome apply(DesiredState desired, Instant deadline) throws InterruptedException {
    // the token is good whatever the bundle holds: a rejected bundle must not leave Jenkins unreachable
    if (desired.hasJenkinsToken()) {
      bearer.update(desired.getJenkinsToken());
    }
    Map<Path, byte[]> secrets;
    Map<Path, byte[]> jcasc;
    try {
      // every path is checked before anything is written: a bad bundle changes nothing
      secrets = placed(secretsDir, desired.getSecretFilesList());
      jcasc = placed(cascDir, desired.getJcascFilesList());
    } catch (BundlePaths.UnsafePathException e) {
      return CommandOutcome.rejected(e.getMessage());
    }
    try {
      // secrets first: the JCasC that refers to them must never be read before they exist
      replaceFolder(secretsDir, secrets, AtomicFiles.OWNER_READ);
      replaceFolder(cascDir, jcasc, AtomicFiles.WORLD_READABLE);
    } catch (IOException e) {
      return CommandOutcome.failed("cannot write the desired state: " + e.getClass().getSimpleName() + ": "
          + e.getMessage(), 0);
    }
    LOG.info("event=desired_state_written bundle_digest={} jcasc_files={} secret_files={}",
        desired.getBundleDigest(), jcasc.size(), secrets.size());
    if (!clock.instant().isBefore(deadline)) {
      return CommandOutcome.deadlineExceeded("files written, but the command deadline " + deadline
          + " passed before Jenkins could reload them");
    }
    try {
      return jenkins.reloadConfiguration(deadline);
    } catch (JenkinsActions.NotListening e) {
      // the mite holds Jenkins back until the first desired state is written; Jenkins reads the folder when it starts
      return CommandOutcome.succeeded("files written; Jenkins is not running and reads them when it starts", 0);
    }
  }

  private static Map<Path, byte[]> placed(Path root, List<File> files) throws BundlePaths.UnsafePathException {
    Map<Path, byte[]> placed = new LinkedHashMap<>();
    for (File file : files) {
      Path target = BundlePaths.resolve(root, file.getPath());
      if (placed.put(target, file.getContent().toByteArray()) != null) {
        throw new BundlePaths.UnsafePathException(file.getPath(), "is listed twice");
      }
    }
    return placed;
  }

  /** Writes every listed file and removes every other file below {@code root}. */
  static void replaceFolder(Path root, Map<Path, byte[]> files, Set<PosixFilePermission> mode) throws IOException {
    Files.createDirectories(root);
    for (Map.Entry<Path, byte[]> file : files.entrySet()) {
      AtomicFiles.write(file.getKey(), file.getValue(), mode);
    }
    removeUnlisted(root.toAbsolutePath().normalize(), new HashSet<>(files.keySet()));
  }

  private static void removeUnlisted(Path root, Set<Path> keep) throws IOException {
    List<Path> entries;
    try (Stream<Path> walk = Files.walk(root)) {
      // deepest first, so a folder is looked at after its content
      entries = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
    }
    for (Path entry : entries) {
      if (entry.equals(root)) {
        continue;
      }
      if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
        try {
          Files.delete(entry);
        } catch (DirectoryNotEmptyException stillUsed) {
          // holds a listed file
        }
      } else if (!keep.contains(entry)) {
        Files.deleteIfExists(entry);
        LOG.info("event=file_removed path={}", root.relativize(entry));
      }
    }
  }
}

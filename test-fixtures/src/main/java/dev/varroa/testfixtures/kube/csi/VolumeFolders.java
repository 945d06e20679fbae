package dev.varroa.testfixtures.kube.csi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The stand-in drivers' storage on disk: a folder per volume handle and per snapshot handle under one root. */
final class VolumeFolders {
  private static final long COPY_TIMEOUT_SECONDS = 120;
  private final Path volumes;
  private final Path snapshots;

  VolumeFolders(Path root) {
    this.volumes = root.toAbsolutePath().resolve("volumes");
    this.snapshots = root.toAbsolutePath().resolve("snapshots");
  }

  Path volume(String volumeHandle) {
    return volumes.resolve(safe(volumeHandle));
  }

  Path snapshot(String snapshotHandle) {
    return snapshots.resolve(safe(snapshotHandle));
  }

  Path create(Path folder) {
    try {
      return Files.createDirectories(folder);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create volume folder " + folder, e);
    }
  }

  /**
   * Copies a tree with cp -a, as a block-level snapshot would keep it: hard links, symlinks, modes, owners and times.
   * The target is made anew, so a retried copy never mixes two attempts.
   */
  void copy(Path from, Path to) {
    delete(to);
    create(to.getParent());
    Path partial = to.resolveSibling(to.getFileName() + ".partial");
    delete(partial);
    create(partial);
    run(List.of("cp", "-a", "--", from.toString() + "/.", partial.toString()));
    try {
      Files.move(partial, to);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + partial + " to " + to, e);
    }
  }

  void delete(Path folder) {
    if (!Files.exists(folder, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(folder, new SimpleFileVisitor<>() {
        @Override
        public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
          Files.delete(file);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
          // a test may have made a folder read-only; the owner can always make it writable again
          dir.toFile().setWritable(true, true);
          return FileVisitResult.CONTINUE;
        }

        @Override
        public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
          if (failure != null) {
            throw failure;
          }
          Files.delete(dir);
          return FileVisitResult.CONTINUE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete volume folder " + folder, e);
    }
  }

  private static void run(List<String> command) {
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      // cp prints only errors, so reading to the end before waiting cannot fill the pipe
      String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      if (!process.waitFor(COPY_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish in " + COPY_TIMEOUT_SECONDS + " s");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue() + ": " + out);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + command, e);
    }
  }

  /** Handles come from object names and uids; a slash would leave the root. */
  private static String safe(String handle) {
    if (handle.isEmpty() || handle.contains("/") || handle.equals(".") || handle.equals("..")) {
      throw new IllegalArgumentException("volume or snapshot handle '" + handle + "' cannot name a folder");
    }
    return handle;
  }
}

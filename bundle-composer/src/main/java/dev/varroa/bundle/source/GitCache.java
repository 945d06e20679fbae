package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.SourceUnavailableException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

/**
 * One bare repository per key under the cache directory ({@code git/<hash of the key>.git}), holding
 * shallow commits fetched so far; the caller's key names the URL and the reader, so readers never
 * share a folder. One operation at a time per key in this process; the cache is not meant to be
 * shared between processes.
 */
final class GitCache {
  private final Path root;
  private final ConcurrentHashMap<Path, ReentrantLock> locks = new ConcurrentHashMap<>();

  GitCache(Path cacheDirectory) {
    this.root = cacheDirectory.resolve("git");
  }

  /** The work to do on one cached repository while its lock is held. */
  interface Work<T> {
    T apply(Repository repository) throws BundleException, SourceUnavailableException, IOException;
  }

  Path directoryFor(String key) {
    return root.resolve(Sha256.digest(key.getBytes(StandardCharsets.UTF_8)).substring("sha256:".length(), 39) + ".git");
  }

  <T> T withRepository(String key, Work<T> work) throws BundleException, SourceUnavailableException, IOException {
    Path directory = directoryFor(key);
    ReentrantLock lock = locks.computeIfAbsent(directory, d -> new ReentrantLock());
    lock.lock();
    try (Repository repository = open(directory)) {
      return work.apply(repository);
    } finally {
      lock.unlock();
    }
  }

  /** True when the commit and its root tree are in the object database: a depth-1 fetch brought both. */
  static boolean hasCommit(Repository repository, ObjectId commit) throws IOException {
    if (!repository.getObjectDatabase().has(commit)) {
      return false;
    }
    try (RevWalk walk = new RevWalk(repository)) {
      return repository.getObjectDatabase().has(walk.parseCommit(commit).getTree());
    }
  }

  /** Points {@code refName} at the commit so the objects stay reachable (and easy to inspect). */
  static void keep(Repository repository, String refName, ObjectId commit) throws IOException {
    String name = Repository.isValidRefName(refName) ? refName : "refs/varroa/commits/" + commit.name();
    RefUpdate update = repository.updateRef(name);
    update.setNewObjectId(commit);
    update.setForceUpdate(true);
    // A cache ref's history is of no use to anyone; skipping the reflog spares a config read and a file check.
    update.disableRefLog();
    RefUpdate.Result result = update.update();
    switch (result) {
      case NEW, FORCED, FAST_FORWARD, NO_CHANGE -> { }
      default -> throw new IOException("cannot point " + name + " at " + commit.name() + " in the Git cache "
          + repository.getDirectory() + ": " + result);
    }
  }

  private static Repository open(Path directory) throws IOException {
    Repository repository = new FileRepositoryBuilder().setGitDir(directory.toFile()).setBare().build();
    if (!repository.getObjectDatabase().exists()) {
      repository.close();
      // A half-created folder (crash during create) is rebuilt rather than trusted.
      deleteTree(directory);
      repository = new FileRepositoryBuilder().setGitDir(directory.toFile()).setBare().build();
      repository.create(true);
    }
    return repository;
  }

  private static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(directory)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

package dev.varroa.bundle.source;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.sshd.KeyPasswordProvider;
import org.eclipse.jgit.transport.sshd.SshdSessionFactory;
import org.eclipse.jgit.transport.sshd.SshdSessionFactoryBuilder;

/**
 * A throwaway ~/.ssh for one ssh:// operation: the private key, the given known_hosts as the only
 * host-key database, and an ssh config with {@code StrictHostKeyChecking yes}, all 0600 in a 0700
 * folder. The session factory reads nothing else (no ~/.ssh, no agent), so an unknown or changed
 * host key is always refused.
 */
final class SshClientDirectory implements AutoCloseable {
  private final Path directory;
  private final SshdSessionFactory sessionFactory;

  private SshClientDirectory(Path directory, SshdSessionFactory sessionFactory) {
    this.directory = directory;
    this.sessionFactory = sessionFactory;
  }

  static SshClientDirectory create(Path scratchRoot, GitCredentials.SshKey key, int timeoutSeconds) throws IOException {
    Files.createDirectories(scratchRoot);
    boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    Path directory = posix
        ? Files.createTempDirectory(scratchRoot, "ssh-", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
        : Files.createTempDirectory(scratchRoot, "ssh-");
    try {
      Path identity = writePrivate(directory.resolve("identity"), key.privateKey().strip() + "\n", posix);
      Path knownHosts = writePrivate(directory.resolve("known_hosts"), key.knownHosts().strip() + "\n", posix);
      Path config = writePrivate(directory.resolve("config"), config(identity, knownHosts, timeoutSeconds), posix);
      SshdSessionFactory factory = new SshdSessionFactoryBuilder()
          .setHomeDirectory(directory.toFile())
          .setSshDirectory(directory.toFile())
          .setConfigFile(sshDir -> config.toFile())
          .setDefaultIdentities(sshDir -> List.of(identity))
          .setDefaultKnownHostsFiles(sshDir -> List.of(knownHosts))
          .setPreferredAuthentications("publickey")
          .setKeyPasswordProvider(credentialsProvider -> new Passphrase(key.passphrase()))
          .build(null);
      return new SshClientDirectory(directory, factory);
    } catch (IOException | RuntimeException e) {
      deleteTree(directory);
      throw e;
    }
  }

  SshdSessionFactory sessionFactory() {
    return sessionFactory;
  }

  /** JGit reports a refused host key as a transport error naming the key; this recognises it. */
  static boolean isHostKeyFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (message.contains("host key") || message.contains("server key") || message.contains("known_hosts")
          || message.contains("knownhosts")) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws IOException {
    sessionFactory.close();
    deleteTree(directory);
  }

  // Quoted paths: the scratch root may contain spaces.
  private static String config(Path identity, Path knownHosts, int timeoutSeconds) {
    return """
        Host *
          User git
          IdentityFile "%s"
          IdentitiesOnly yes
          IdentityAgent none
          StrictHostKeyChecking yes
          UserKnownHostsFile "%s"
          GlobalKnownHostsFile "%s"
          PreferredAuthentications publickey
          BatchMode yes
          ConnectTimeout %d
        """.formatted(identity, knownHosts, knownHosts, timeoutSeconds);
  }

  private static Path writePrivate(Path file, String content, boolean posix) throws IOException {
    if (posix) {
      Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    }
    return Files.writeString(file, content);
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** Hands JGit the key's passphrase once; a wrong one fails instead of being retried. */
  private static final class Passphrase implements KeyPasswordProvider {
    private final String passphrase;

    Passphrase(String passphrase) {
      this.passphrase = passphrase;
    }

    @Override
    public char[] getPassphrase(URIish uri, int attempt) {
      return passphrase == null ? null : passphrase.toCharArray();
    }

    @Override
    public void setAttempts(int maxNumberOfAttempts) {
      // One attempt only: the passphrase comes from a Secret, asking again cannot change it.
    }

    @Override
    public int getAttempts() {
      return 1;
    }

    @Override
    public boolean keyLoaded(URIish uri, int attempt, Exception error) {
      return false;
    }
  }
}

package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServerExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** ssh:// against a real SSH server in the test JVM: key auth, and host keys checked against known_hosts only. */
class GitSshIT {
  @RegisterExtension
  static final GitServerExtension GIT = new GitServerExtension();

  private static KeyPair clientKey;
  private static GitSshServer ssh;
  private static GitRepository repo;
  private static String commit;

  @TempDir
  Path cache;

  @BeforeAll
  static void startSshServer() throws Exception {
    clientKey = GitSshServer.newKeyPair();
    repo = GIT.server().createRepository("over-ssh");
    commit = repo.commit(Map.of("teams/a/plugins.yaml", "plugins: [ssh]"), "one");
    ssh = GitSshServer.start(GIT.server().root(), clientKey.getPublic());
  }

  @AfterAll
  static void stopSshServer() throws Exception {
    ssh.close();
  }

  @Test
  void readsABranchOverSshWithAKeyAndTheServersKnownHostsLine() throws Exception {
    GitSource spec = Inputs.git(ssh.url("over-ssh"), "branch", "main", "teams/a");
    GitCredentials key = new GitCredentials.SshKey(GitSshServer.openSshPrivateKey(clientKey, null), null, ssh.knownHostsLine());

    ResolvedInput resolved = new GitBundleSource(cache, SourceLimits.DEFAULTS).resolve(Inputs.ref(spec), spec, reader(key));

    assertThat(resolved.revision()).isEqualTo("main@sha1:" + commit);
    assertThat(new String(resolved.files().file("plugins.yaml").orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("plugins: [ssh]");
    assertThat(scratchLeftovers()).as("key material is deleted after use").isEmpty();
  }

  @Test
  void readsWithAnEncryptedKeyAndItsPassphrase() throws Exception {
    GitSource spec = Inputs.git(ssh.url("over-ssh"), "branch", "main", "teams/a");
    GitCredentials key = new GitCredentials.SshKey(GitSshServer.openSshPrivateKey(clientKey, "open sesame"), "open sesame",
        ssh.knownHostsLine());

    GitRevision revision = new GitBundleSource(cache, SourceLimits.DEFAULTS).resolveRevision(Inputs.ref(spec), spec, reader(key));

    assertThat(revision.commit()).isEqualTo(commit);
  }

  @Test
  void refusesAHostKeyThatDiffersFromKnownHosts() throws Exception {
    GitSource spec = Inputs.git(ssh.url("over-ssh"), "branch", "main", null);
    String spoofed = ssh.knownHostsLine(GitSshServer.newKeyPair().getPublic());
    GitCredentials key = new GitCredentials.SshKey(GitSshServer.openSshPrivateKey(clientKey, null), null, spoofed);

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new GitBundleSource(cache, SourceLimits.DEFAULTS).resolveRevision(Inputs.ref(spec), spec, reader(key)));

    assertThat(e.getMessage()).contains(Inputs.ref(spec).describe())
        .contains("the server's host key is not in the given known_hosts").contains("add the host key of 127.0.0.1 to known_hosts");
  }

  @Test
  void refusesAServerMissingFromKnownHosts() throws Exception {
    GitSource spec = Inputs.git(ssh.url("over-ssh"), "branch", "main", null);
    String otherHost = "git.example.com " + org.apache.sshd.common.config.keys.PublicKeyEntry.toString(clientKey.getPublic());
    GitCredentials key = new GitCredentials.SshKey(GitSshServer.openSshPrivateKey(clientKey, null), null, otherHost);

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new GitBundleSource(cache, SourceLimits.DEFAULTS).resolveRevision(Inputs.ref(spec), spec, reader(key)));

    assertThat(e.getMessage()).contains("ssh-keyscan -p " + ssh.port() + " 127.0.0.1");
    assertThat(scratchLeftovers()).isEmpty();
  }

  @Test
  void refusesAKeyTheServerDoesNotAccept() throws Exception {
    GitSource spec = Inputs.git(ssh.url("over-ssh"), "branch", "main", null);
    GitCredentials stranger = new GitCredentials.SshKey(GitSshServer.openSshPrivateKey(GitSshServer.newKeyPair(), null), null,
        ssh.knownHostsLine());

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new GitBundleSource(cache, SourceLimits.DEFAULTS).resolveRevision(Inputs.ref(spec), spec, reader(stranger)));

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("cannot list the refs of " + ssh.url("over-ssh")).contains("Cannot log in")
        .contains("its public key must be allowed to read the repository");
  }

  private static GitAccess reader(GitCredentials key) {
    return new GitAccess("tenant-a", "ssh-key", key);
  }

  private Stream<Path> scratchLeftovers() throws Exception {
    Path scratch = cache.resolve("scratch");
    return Files.exists(scratch) ? Files.list(scratch).toList().stream() : Stream.empty();
  }
}

package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.eclipse.jgit.api.TransportConfigCallback;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/**
 * Applies one input's credentials and the network timeout to every JGit transport it opens. For
 * ssh:// it owns a private scratch directory with the key and known_hosts; closing deletes it.
 */
final class GitTransportSetup implements TransportConfigCallback, AutoCloseable {
  private final GitCredentials credentials;
  private final int timeoutSeconds;
  private final SshClientDirectory ssh;

  private GitTransportSetup(GitCredentials credentials, int timeoutSeconds, SshClientDirectory ssh) {
    this.credentials = credentials;
    this.timeoutSeconds = timeoutSeconds;
    this.ssh = ssh;
  }

  /** Checks that the credentials fit the URL's scheme; ssh:// without a key and known_hosts is refused. */
  static GitTransportSetup of(InputRef input, URIish uri, GitCredentials credentials, Path scratchRoot, SourceLimits limits)
      throws BundleException, IOException {
    GitCredentials given = credentials == null ? GitCredentials.none() : credentials;
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    boolean ssh = scheme.equals("ssh");
    if (ssh && !(given instanceof GitCredentials.SshKey)) {
      throw InvalidInput.exception(input, "an ssh:// repository needs a private key and the server's known_hosts",
          "reference a Secret with keys identity and known_hosts (and password for an encrypted key) in secretRef");
    }
    if (!ssh && given instanceof GitCredentials.SshKey) {
      throw InvalidInput.exception(input, "the Secret holds an ssh identity, but the URL is " + scheme + "://",
          "use the repository's ssh:// URL, or a Secret with username and password for https://");
    }
    if (ssh) {
      return new GitTransportSetup(given, limits.timeoutSeconds(),
          SshClientDirectory.create(scratchRoot, (GitCredentials.SshKey) given, limits.timeoutSeconds()));
    }
    return new GitTransportSetup(given, limits.timeoutSeconds(), null);
  }

  @Override
  public void configure(Transport transport) {
    transport.setTimeout(timeoutSeconds);
    if (credentials instanceof GitCredentials.Basic basic) {
      transport.setCredentialsProvider(new UsernamePasswordCredentialsProvider(basic.username(), basic.password()));
    } else if (credentials instanceof GitCredentials.Token token) {
      transport.setCredentialsProvider(new UsernamePasswordCredentialsProvider(token.username(), token.token()));
    }
    if (transport instanceof SshTransport sshTransport) {
      if (ssh == null) {
        // of() refuses ssh:// without a key; an ssh transport here would fall back to ~/.ssh, never allowed.
        throw new IllegalStateException("ssh transport opened without the input's ssh identity");
      }
      sshTransport.setSshSessionFactory(ssh.sessionFactory());
    }
  }

  /** True when {@code failure} is an ssh host key refusal; the fix then points at known_hosts. */
  boolean hostKeyRefused(Throwable failure) {
    return ssh != null && SshClientDirectory.isHostKeyFailure(failure);
  }

  @Override
  public void close() throws IOException {
    if (ssh != null) {
      ssh.close();
    }
  }
}

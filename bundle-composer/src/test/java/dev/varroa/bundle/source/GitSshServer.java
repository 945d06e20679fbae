package dev.varroa.bundle.source;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.util.List;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.common.config.keys.PublicKeyEntry;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyEncryptionContext;
import org.apache.sshd.common.config.keys.writer.openssh.OpenSSHKeyPairResourceWriter;
import org.apache.sshd.common.keyprovider.KeyPairProvider;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.command.CommandFactory;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.UploadPack;

/**
 * An in-process SSH server (Apache MINA sshd) on loopback that serves {@code git-upload-pack} for the
 * bare repositories under a folder with JGit, accepting one client public key. Enough for real
 * ssh:// fetches with host-key verification, without an sshd binary.
 */
final class GitSshServer implements AutoCloseable {
  private final SshServer sshd;
  private final KeyPair hostKey;

  private GitSshServer(SshServer sshd, KeyPair hostKey) {
    this.sshd = sshd;
    this.hostKey = hostKey;
  }

  static GitSshServer start(Path repositories, PublicKey authorizedKey) throws IOException, GeneralSecurityException {
    KeyPair hostKey = newKeyPair();
    SshServer sshd = SshServer.setUpDefaultServer();
    sshd.setHost("127.0.0.1");
    sshd.setPort(0);
    sshd.setKeyPairProvider(KeyPairProvider.wrap(hostKey));
    sshd.setPublickeyAuthenticator((user, key, session) -> KeyUtils.compareKeys(key, authorizedKey));
    sshd.setPasswordAuthenticator(null);
    sshd.setKeyboardInteractiveAuthenticator(null);
    sshd.setCommandFactory(uploadPack(repositories));
    sshd.start();
    return new GitSshServer(sshd, hostKey);
  }

  static KeyPair newKeyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(256);
    return generator.generateKeyPair();
  }

  /** The private key in OpenSSH format, encrypted with {@code passphrase} unless it is null. */
  static String openSshPrivateKey(KeyPair key, String passphrase) throws IOException, GeneralSecurityException {
    OpenSSHKeyEncryptionContext encryption = null;
    if (passphrase != null) {
      encryption = new OpenSSHKeyEncryptionContext();
      encryption.setPassword(passphrase);
      encryption.setCipherName("AES");
      encryption.setCipherMode("CTR");
      encryption.setCipherType("256");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OpenSSHKeyPairResourceWriter.INSTANCE.writePrivateKey(key, "varroa-test", encryption, out);
    return out.toString(StandardCharsets.US_ASCII);
  }

  int port() {
    return sshd.getPort();
  }

  String url(String repositoryName) {
    return "ssh://git@127.0.0.1:" + port() + "/" + repositoryName + ".git";
  }

  /** The known_hosts line for this server, as ssh-keyscan would print it. */
  String knownHostsLine() {
    return knownHostsLine(hostKey.getPublic());
  }

  /** A known_hosts line for this server's address with some other key: a changed or spoofed host key. */
  String knownHostsLine(PublicKey key) {
    return "[127.0.0.1]:" + port() + " " + PublicKeyEntry.toString(key);
  }

  @Override
  public void close() throws IOException {
    sshd.stop(true);
  }

  private static CommandFactory uploadPack(Path repositories) {
    return (channel, command) -> {
      List<String> words = CommandFactory.split(command);
      if (words.size() != 2 || !words.get(0).equals("git-upload-pack")) {
        throw new IOException("only git-upload-pack is served, not: " + command);
      }
      String name = words.get(1).replaceAll("^/+", "");
      if (name.contains("..")) {
        throw new IOException("no such repository: " + name);
      }
      return new UploadPackCommand(repositories.resolve(name));
    };
  }

  /** Runs JGit's upload-pack for one repository on the channel's streams, then reports the exit status. */
  private static final class UploadPackCommand implements Command {
    private final Path gitDir;
    private InputStream in;
    private OutputStream out;
    private OutputStream err;
    private ExitCallback exit;
    private Thread worker;

    UploadPackCommand(Path gitDir) {
      this.gitDir = gitDir;
    }

    @Override
    public void setInputStream(InputStream in) {
      this.in = in;
    }

    @Override
    public void setOutputStream(OutputStream out) {
      this.out = out;
    }

    @Override
    public void setErrorStream(OutputStream err) {
      this.err = err;
    }

    @Override
    public void setExitCallback(ExitCallback callback) {
      this.exit = callback;
    }

    @Override
    public void start(ChannelSession channel, Environment env) {
      worker = new Thread(this::serve, "git-ssh-upload-pack");
      worker.setDaemon(true);
      worker.start();
    }

    private void serve() {
      try (Repository repository = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
        new UploadPack(repository).upload(in, out, err);
        out.flush();
        exit.onExit(0);
      } catch (IOException e) {
        exit.onExit(1, e.getMessage() == null ? e.toString() : e.getMessage());
      }
    }

    @Override
    public void destroy(ChannelSession channel) {
      if (worker != null) {
        worker.interrupt();
      }
    }
  }
}

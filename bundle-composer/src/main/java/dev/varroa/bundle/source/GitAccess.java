package dev.varroa.bundle.source;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Who reads a Git repository, and with what: the namespace of the object that names it (the tenant),
 * the Secret its credentials came from, and those credentials. The clone cache keeps one copy per
 * reader, so a tenant never reads what another fetched with its own credentials. {@code toString()}
 * never shows a secret (the credentials mask their own).
 *
 * @param namespace the tenant's namespace; varroactl passes a name of its own
 * @param secretName the Secret named by secretRef, in {@code namespace}; null without one
 * @param credentials the values read from that Secret
 */
public record GitAccess(String namespace, String secretName, GitCredentials credentials) {
  public GitAccess {
    Objects.requireNonNull(namespace, "namespace");
    if (namespace.isBlank()) {
      throw new IllegalArgumentException("a Git reader needs the namespace of the object that names the repository");
    }
    credentials = credentials == null ? GitCredentials.none() : credentials;
  }

  /** A reader without credentials: public repositories. */
  public static GitAccess anonymous(String namespace) {
    return new GitAccess(namespace, null, GitCredentials.none());
  }

  /**
   * Names this reader for the cache: namespace, Secret and a SHA-256 over the credential values. The
   * values never appear; a rotated Secret is a new reader (one fetch again), an absent one is its own.
   */
  String cacheIdentity() {
    return "namespace=" + namespace + "\nsecret=" + (secretName == null ? "" : secretName)
        + "\ncredentials=" + credentialDigest();
  }

  private String credentialDigest() {
    MessageDigest digest = Sha256.newDigest();
    if (credentials instanceof GitCredentials.Basic basic) {
      update(digest, "basic", basic.username(), basic.password());
    } else if (credentials instanceof GitCredentials.Token token) {
      update(digest, "token", token.username(), token.token());
    } else if (credentials instanceof GitCredentials.SshKey key) {
      update(digest, "ssh", key.privateKey(), key.passphrase(), key.knownHosts());
    } else {
      update(digest, "none");
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  // Each field is length-prefixed, so ("ab", "c") and ("a", "bc") never digest alike.
  private static void update(MessageDigest digest, String... fields) {
    for (String field : fields) {
      byte[] bytes = field == null ? new byte[0] : field.getBytes(StandardCharsets.UTF_8);
      digest.update((field == null ? "-1" : String.valueOf(bytes.length)).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) ':');
      digest.update(bytes);
    }
  }
}

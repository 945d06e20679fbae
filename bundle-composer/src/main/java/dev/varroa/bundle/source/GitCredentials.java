package dev.varroa.bundle.source;

import java.util.Objects;

/**
 * Credentials for one Git repository, as the caller read them from the input's Secret. Values only:
 * nothing here talks to Kubernetes. {@code toString()} never shows a secret.
 */
public sealed interface GitCredentials {

  /** No credentials: public repositories (and file:// URLs, offline). */
  static GitCredentials none() {
    return None.INSTANCE;
  }

  /** No credentials. */
  enum None implements GitCredentials {
    INSTANCE
  }

  /** HTTP(S) basic auth (Secret keys {@code username}, {@code password}). */
  record Basic(String username, String password) implements GitCredentials {
    public Basic {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
      return "Basic[username=" + username + ", password=***]";
    }
  }

  /**
   * An HTTP(S) access token, sent as the basic-auth password. Hosts differ in the username they expect
   * with a token (GitHub: {@code x-access-token}, GitLab: {@code oauth2}, Bitbucket: {@code x-token-auth});
   * a null username means {@value #DEFAULT_USERNAME}.
   */
  record Token(String username, String token) implements GitCredentials {
    public static final String DEFAULT_USERNAME = "x-access-token";

    public Token {
      username = username == null || username.isBlank() ? DEFAULT_USERNAME : username;
      Objects.requireNonNull(token, "token");
    }

    public Token(String token) {
      this(null, token);
    }

    @Override
    public String toString() {
      return "Token[username=" + username + ", token=***]";
    }
  }

  /**
   * An ssh:// identity (Secret keys {@code identity}, optional {@code password}, {@code known_hosts}).
   * The server's host key must be listed in {@code knownHosts}; an unknown or changed key is refused.
   *
   * @param privateKey the private key in OpenSSH or PEM format
   * @param passphrase the key's passphrase; null when the key is not encrypted
   * @param knownHosts known_hosts lines for the server, e.g. {@code [git.example.com]:2222 ssh-ed25519 AAAA…}
   */
  record SshKey(String privateKey, String passphrase, String knownHosts) implements GitCredentials {
    public SshKey {
      Objects.requireNonNull(privateKey, "privateKey");
      Objects.requireNonNull(knownHosts, "knownHosts");
    }

    @Override
    public String toString() {
      return "SshKey[privateKey=***, passphrase=" + (passphrase == null ? "none" : "***") + ", knownHosts="
          + knownHosts.lines().count() + " lines]";
    }
  }
}

package dev.varroa.bundle.source;

import java.util.Objects;

/**
 * Credentials for one OCI registry, as the caller read them from the input's Secret. Values only;
 * {@code toString()} never shows a secret.
 */
public sealed interface OciCredentials {

  static OciCredentials anonymous() {
    return Anonymous.INSTANCE;
  }

  /** No credentials: public repositories. */
  enum Anonymous implements OciCredentials {
    INSTANCE
  }

  /** Username and password; the registry may exchange them for a bearer token, which the client handles. */
  record Basic(String username, String password) implements OciCredentials {
    public Basic {
      Objects.requireNonNull(username, "username");
      Objects.requireNonNull(password, "password");
    }

    @Override
    public String toString() {
      return "Basic[username=" + username + ", password=***]";
    }
  }

  /** A bearer token sent as is ({@code Authorization: Bearer …}). */
  record Token(String token) implements OciCredentials {
    public Token {
      Objects.requireNonNull(token, "token");
    }

    @Override
    public String toString() {
      return "Token[***]";
    }
  }
}

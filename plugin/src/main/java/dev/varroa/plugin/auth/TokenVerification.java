package dev.varroa.plugin.auth;

import java.time.Instant;
import java.util.Objects;

/** The outcome of checking one bearer token: {@link Accepted} or {@link Refused}. */
public sealed interface TokenVerification {

  boolean accepted();

  /** A token the operator minted for this controller, inside its validity window. */
  record Accepted(String subject, String audience, Instant expiresAt, String jwtId) implements TokenVerification {
    public Accepted {
      Objects.requireNonNull(subject, "subject");
      Objects.requireNonNull(audience, "audience");
      Objects.requireNonNull(expiresAt, "expiresAt");
      Objects.requireNonNull(jwtId, "jwtId");
    }

    @Override
    public boolean accepted() {
      return true;
    }
  }

  /** A refused token; {@code message} is one line, safe to log, and never holds the token. */
  record Refused(RefusalReason reason, String message) implements TokenVerification {
    public Refused {
      Objects.requireNonNull(reason, "reason");
      message = Objects.requireNonNull(message, "message").replaceAll("[\\r\\n]+", " ").strip();
    }

    @Override
    public boolean accepted() {
      return false;
    }
  }
}

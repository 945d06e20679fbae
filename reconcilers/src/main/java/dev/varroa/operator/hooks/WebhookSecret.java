package dev.varroa.operator.hooks;

import java.nio.charset.StandardCharsets;

/** Where the receiver's shared secret comes from; asked on every delivery, so a rotated value is used. */
@FunctionalInterface
public interface WebhookSecret {
  SecretLookup current();

  /** No secret: every delivery is refused with 401, for the reason given. */
  static WebhookSecret unset(String reason) {
    SecretLookup missing = SecretLookup.missing(reason);
    return () -> missing;
  }

  /** A fixed value (tests, a local run); surrounding whitespace is ignored as for a Secret's value. */
  static WebhookSecret of(String value) {
    String stripped = value == null ? "" : value.strip();
    SecretLookup lookup = stripped.isEmpty() ? SecretLookup.missing("the shared secret is empty")
        : SecretLookup.found(stripped.getBytes(StandardCharsets.UTF_8));
    return () -> lookup;
  }
}

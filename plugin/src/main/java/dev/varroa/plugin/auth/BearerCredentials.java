package dev.varroa.plugin.auth;

import java.util.Objects;
import java.util.Optional;

/** The token of an {@code Authorization: Bearer <token>} header. {@link #toString()} never shows it. */
public record BearerCredentials(String token) {

  private static final String SCHEME = "Bearer ";

  public BearerCredentials {
    Objects.requireNonNull(token, "token");
  }

  /** The bearer token of a header value; empty when the header is absent, blank or another scheme. */
  public static Optional<BearerCredentials> fromAuthorizationHeader(String headerValue) {
    if (headerValue == null) {
      return Optional.empty();
    }
    String value = headerValue.strip();
    if (!value.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return Optional.empty();
    }
    String token = value.substring(SCHEME.length()).strip();
    return token.isEmpty() ? Optional.empty() : Optional.of(new BearerCredentials(token));
  }

  @Override
  public String toString() {
    return "BearerCredentials[token=<redacted>]";
  }
}

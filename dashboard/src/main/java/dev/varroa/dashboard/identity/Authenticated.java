package dev.varroa.dashboard.identity;

import java.util.Optional;

/**
 * A caller and the credential they came with, which a long answer (a live stream) checks again: a session ends at
 * logout or expiry, a bearer token at its {@code exp}.
 *
 * @param ended why the credential no longer holds, or empty while it does
 */
public record Authenticated(Caller caller, CredentialEnd ended) {

  /** Asked again while an answer is open. */
  @FunctionalInterface
  public interface CredentialEnd {
    Optional<String> reason();
  }
}

package dev.varroa.plugin.auth;

import com.nimbusds.jwt.proc.BadJWTException;

/** A claims rule that failed, with the refusal reason it stands for; thrown through nimbus' processor. */
final class ClaimsRefused extends BadJWTException {

  private static final long serialVersionUID = 1L;

  private final RefusalReason reason;

  ClaimsRefused(RefusalReason reason, String message) {
    super(message);
    this.reason = reason;
  }

  RefusalReason reason() {
    return reason;
  }
}

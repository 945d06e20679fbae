package dev.varroa.plugin.claims;

import dev.varroa.protocol.builds.v1.ClaimDecision;

/** The words of a {@link ClaimDecision} (DATAPLANE.md / docs/build-claims.md). */
public final class ClaimDecisions {

  public static final String GRANTED = "granted";
  public static final String REFUSED = "refused";
  public static final String RETRY = "retry";
  /** No decision could be had; the code says why. */
  public static final String NONE = "";

  public static final String OK = "OK";
  public static final String UNAVAILABLE = "UNAVAILABLE";
  public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";

  private ClaimDecisions() {
  }

  /** An empty decision with code UNAVAILABLE: the plugin could not get an answer, and says what failed. */
  public static ClaimDecision unavailable(String reason) {
    return ClaimDecision.newBuilder().setDecision(NONE).setCode(UNAVAILABLE).setReason(reason).build();
  }
}

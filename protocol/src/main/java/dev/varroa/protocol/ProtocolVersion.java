package dev.varroa.protocol;

/** Versions of the mite wire contract; see the compatibility rules in mite.proto. */
public final class ProtocolVersion {

  /** The version this build speaks. */
  public static final int CURRENT = 2;

  /**
   * The first version whose mites open secrets sealed to their key (docs/security.md, "Sealing"). The operator seals
   * to a stream of this version or later and sends a version 1 stream the clear fields it always had.
   */
  public static final int SEALED_SECRETS = 2;

  /** The oldest mite a gateway of this build still serves. */
  public static final int OLDEST_SUPPORTED = 1;

  private ProtocolVersion() {
  }

  /** The version both peers understand: the lower of the two. */
  public static int negotiated(int peer) {
    return Math.min(CURRENT, peer);
  }

  public static boolean supported(int peer) {
    return peer >= OLDEST_SUPPORTED;
  }
}

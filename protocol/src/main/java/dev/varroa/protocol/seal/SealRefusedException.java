package dev.varroa.protocol.seal;

/** A seal the mite cannot or must not open; the message says which seal, why, and what happens next. */
public final class SealRefusedException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why a seal was not opened. */
  public enum Reason {
    /** Sealed to a key this mite does not hold (it restarted or renewed): the sender seals again to the new key. */
    OTHER_KEY,
    /** Not a JWE of the expected construction, or its tag does not verify: changed on the way, never applied. */
    DAMAGED,
    /** A seal made for another place (another command, another field) moved here. */
    WRONG_PURPOSE
  }

  private final Reason reason;

  SealRefusedException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  SealRefusedException(Reason reason, String message, Throwable cause) {
    super(message, cause);
    this.reason = reason;
  }

  public Reason reason() {
    return reason;
  }
}

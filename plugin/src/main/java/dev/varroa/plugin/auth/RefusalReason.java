package dev.varroa.plugin.auth;

/** Why a bearer token was refused; the glue maps every reason to HTTP 401. */
public enum RefusalReason {
  /** Not a compact JWS, unreadable claims, or a required claim missing. */
  MALFORMED,
  /** The signature does not verify with the key the token names (or with any key, when it names none). */
  BAD_SIGNATURE,
  /** The token names a key this Jenkins does not hold, or no public key can be read. */
  UNKNOWN_KEY,
  WRONG_ISSUER,
  /** Signed by the operator, but for a principal other than the mite. */
  WRONG_SUBJECT,
  /** Signed by the operator, but for another controller. */
  WRONG_AUDIENCE,
  EXPIRED,
  NOT_YET_VALID,
  /** Unsigned ({@code alg: none}), encrypted, or signed with anything but ES256 (HS256 included). */
  ALGORITHM_NOT_ALLOWED
}

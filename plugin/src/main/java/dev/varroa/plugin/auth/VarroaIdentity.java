package dev.varroa.plugin.auth;

/**
 * The Jenkins user a verified mite bearer token runs as. The {@code varroa} authorization strategy grants this
 * identity Overall/Administer and nobody else anything; the glue recognises it by its own authentication type, never
 * by this name alone, so a user of another realm called {@code varroa} gains nothing.
 */
public final class VarroaIdentity {

  /** The user id requests with a verified mite token run as. */
  public static final String USER_ID = "varroa";
  /** The JCasC symbol of both the security realm and the authorization strategy. */
  public static final String JCASC_SYMBOL = "varroa";

  private VarroaIdentity() {
  }
}

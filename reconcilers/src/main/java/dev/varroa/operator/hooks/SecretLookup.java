package dev.varroa.operator.hooks;

/**
 * The receiver's shared secret as read now, or why there is none.
 *
 * @param value the secret's bytes; null when missing
 * @param problem why it is missing, with the fix; null when found
 */
public record SecretLookup(byte[] value, String problem) {
  public static SecretLookup found(byte[] value) {
    return new SecretLookup(value.clone(), null);
  }

  public static SecretLookup missing(String problem) {
    return new SecretLookup(null, problem);
  }

  public boolean isFound() {
    return value != null;
  }

  /** Never the value: a lookup may end up in a log line. */
  @Override
  public String toString() {
    return isFound() ? "SecretLookup[found]" : "SecretLookup[missing: " + problem + "]";
  }
}

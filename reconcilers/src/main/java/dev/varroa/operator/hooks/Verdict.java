package dev.varroa.operator.hooks;

/** What a delivery amounts to once read: each answers with its own HTTP status. */
public sealed interface Verdict {
  /** No or a wrong signature or token (401): nothing is re-checked. */
  record Refused(String reason) implements Verdict {}

  /** Authentic, but no push (202): a ping, an issue, a pull. */
  record Ignored(String reason) implements Verdict {}

  /** The body is not what the sender documents (400); the reason names the field. */
  record Malformed(String reason) implements Verdict {}

  /** An authentic push (202): the matching sources are re-checked. */
  record Accepted(PushNotice notice) implements Verdict {}
}

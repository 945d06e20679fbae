package dev.varroa.bundle.source;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The manifest an OCI input resolved to, and the tag that led there.
 *
 * @param tag the tag ("1.4.0"); null when the spec named a digest
 * @param digest the manifest digest, {@code sha256:<64 hex>}
 */
public record OciRevision(String tag, String digest) {
  private static final Pattern FORM = Pattern.compile("^(?:([^@]+)@)?(sha256:[0-9a-f]{64})$");

  public OciRevision {
    if (digest == null || !digest.matches("sha256:[0-9a-f]{64}")) {
      throw new IllegalArgumentException("a manifest digest is sha256:<64 lowercase hex>, not " + digest);
    }
  }

  /** Reads a revision {@link #revision()} wrote, e.g. one recorded in a lock or a status. */
  public static OciRevision parse(String revision) {
    Matcher m = FORM.matcher(revision == null ? "" : revision);
    if (!m.matches()) {
      throw new IllegalArgumentException("not an OCI revision (<tag>@sha256:<64 hex> or sha256:<64 hex>): " + revision);
    }
    return new OciRevision(m.group(1), m.group(2));
  }

  /** As Flux writes it: {@code 1.4.0@sha256:<64 hex>}, or {@code sha256:<64 hex>} for a digest ref. */
  public String revision() {
    return tag == null ? digest : tag + "@" + digest;
  }

  @Override
  public String toString() {
    return revision();
  }
}

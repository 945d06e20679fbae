package dev.varroa.bundle.source;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commit a Git input resolved to, and the ref name that led there.
 *
 * @param refName the branch or tag name ("main", "v1.4.0"); null when the spec named a commit
 * @param commit the commit id, 40 lowercase hex digits
 */
public record GitRevision(String refName, String commit) {
  private static final Pattern FORM = Pattern.compile("^(?:(.+)@)?sha1:([0-9a-f]{40})$");

  public GitRevision {
    if (commit == null || !commit.matches("[0-9a-f]{40}")) {
      throw new IllegalArgumentException("a Git commit id is 40 lowercase hex digits, not " + commit);
    }
  }

  /** Reads a revision {@link #revision()} wrote, e.g. one recorded in a lock or a status. */
  public static GitRevision parse(String revision) {
    Matcher m = FORM.matcher(revision == null ? "" : revision);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a Git revision (<ref>@sha1:<40 hex> or sha1:<40 hex>): " + revision);
    }
    return new GitRevision(m.group(1), m.group(2));
  }

  /** As Flux writes it: {@code main@sha1:<40 hex>}, {@code v1.4.0@sha1:<40 hex>}, or {@code sha1:<40 hex>}. */
  public String revision() {
    return refName == null ? "sha1:" + commit : refName + "@sha1:" + commit;
  }

  @Override
  public String toString() {
    return revision();
  }
}

package dev.varroa.bundle.source;

import dev.varroa.api.v1alpha1.GitSource;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.InputRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Which commit a Git ref spec asks for: one branch, one tag, the highest tag in a semver range, or a
 * fixed commit. Picks it from the refs one ls-remote advertised (peeled: a tag means its commit).
 */
record GitRefSelector(Kind kind, String value, SemverRange range) {
  private static final Pattern COMMIT = Pattern.compile("^[0-9a-f]{40}$");
  private static final int LISTED_TAGS = 10;

  enum Kind { BRANCH, TAG, SEMVER, COMMIT }

  static GitRefSelector of(InputRef input, GitSource.GitRef ref) throws BundleException {
    List<GitRefSelector> set = new ArrayList<>();
    if (ref != null && ref.branch != null) {
      set.add(new GitRefSelector(Kind.BRANCH, ref.branch.strip(), null));
    }
    if (ref != null && ref.tag != null) {
      set.add(new GitRefSelector(Kind.TAG, ref.tag.strip(), null));
    }
    if (ref != null && ref.semver != null) {
      SemverRange range = SemverRange.parse(ref.semver).orElseThrow(() -> InvalidInput.exception(input,
          "ref.semver '" + ref.semver + "' is not a semver range", "write a range such as \">=1.2.0 <2.0.0\", \"~1.4\" or \"1.x\""));
      set.add(new GitRefSelector(Kind.SEMVER, ref.semver.strip(), range));
    }
    if (ref != null && ref.commit != null) {
      if (!COMMIT.matcher(ref.commit.strip()).matches()) {
        throw InvalidInput.exception(input, "ref.commit '" + ref.commit + "' is not a full commit id",
            "write the commit as 40 lowercase hex digits");
      }
      set.add(new GitRefSelector(Kind.COMMIT, ref.commit.strip(), null));
    }
    if (set.size() != 1 || set.get(0).value().isEmpty()) {
      throw InvalidInput.exception(input, "ref sets " + set.size() + " of branch, tag, semver and commit",
          "set exactly one of ref.branch, ref.tag, ref.semver or ref.commit");
    }
    return set.get(0);
  }

  /** True when the revision is known without asking the remote. */
  boolean isFixed() {
    return kind == Kind.COMMIT;
  }

  /** The ref prefix the ls-remote asks for, so a big repository answers with a few refs only. */
  String refPrefix() {
    return switch (kind) {
      case BRANCH -> "refs/heads/" + value;
      case TAG -> "refs/tags/" + value;
      case SEMVER -> "refs/tags/";
      case COMMIT -> "";
    };
  }

  /** The ref under which the cache keeps the fetched commit reachable. */
  String cacheRef(GitRevision revision) {
    if (revision.refName() == null) {
      return "refs/varroa/commits/" + revision.commit();
    }
    return (kind == Kind.BRANCH ? "refs/varroa/branches/" : "refs/varroa/tags/") + revision.refName();
  }

  /**
   * The revision among {@code advertised} (full ref name → peeled commit id) for this selector.
   *
   * @param url the repository as messages name it
   */
  GitRevision select(InputRef input, String url, Map<String, String> advertised) throws BundleException {
    switch (kind) {
      case COMMIT:
        return new GitRevision(null, value);
      case BRANCH:
      case TAG: {
        String commit = advertised.get(refPrefix());
        if (commit == null) {
          String what = kind == Kind.BRANCH ? "branch" : "tag";
          throw InvalidInput.exception(input, what + " '" + value + "' does not exist in " + url,
              "push the " + what + ", or correct ref." + what);
        }
        return new GitRevision(value, commit);
      }
      default: {
        Map<String, String> tags = advertised.entrySet().stream()
            .filter(e -> e.getKey().startsWith("refs/tags/"))
            .collect(Collectors.toMap(e -> e.getKey().substring("refs/tags/".length()), Map.Entry::getValue));
        Optional<String> tag = range.highest(tags.keySet());
        if (tag.isEmpty()) {
          String versions = tags.keySet().stream().filter(SemverRange::isVersion).sorted().limit(LISTED_TAGS)
              .collect(Collectors.joining(", "));
          throw InvalidInput.exception(input, "no tag in " + url + " matches semver '" + value + "' ("
                  + (versions.isEmpty() ? "it has no version tags" : "version tags: " + versions) + ")",
              "push a tag inside the range, or widen ref.semver");
        }
        return new GitRevision(tag.get(), tags.get(tag.get()));
      }
    }
  }
}

package dev.varroa.bundle.source;

import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import org.semver4j.Semver;
import org.semver4j.range.RangeList;
import org.semver4j.range.RangeListFactory;

/**
 * A semver range as a ref writes it ({@code >=1.2.0 <2.0.0}, {@code ~1.4}, {@code 1.x}) and the
 * choice of the highest tag inside it. Tags parse with or without a leading "v"; pre-releases match
 * only when the range names one, as in Flux.
 */
record SemverRange(String expression, RangeList ranges) {

  /** Parses {@code expression}; empty when it is blank or not a range semver4j understands. */
  static Optional<SemverRange> parse(String expression) {
    if (expression == null || expression.isBlank()) {
      return Optional.empty();
    }
    RangeList ranges = RangeListFactory.create(expression.strip());
    return ranges.get().isEmpty() ? Optional.empty() : Optional.of(new SemverRange(expression.strip(), ranges));
  }

  /**
   * The tag with the highest version in the range. Between tags of equal version ("v1.2.3" and
   * "1.2.3") the lexically smallest name wins, so the choice never depends on listing order.
   */
  Optional<String> highest(Collection<String> tags) {
    Comparator<Candidate> byVersion = Comparator.comparing(Candidate::version);
    return tags.stream()
        .map(tag -> new Candidate(tag, Semver.parse(tag)))
        .filter(c -> c.version() != null && c.version().satisfies(ranges))
        .max(byVersion.thenComparing(Candidate::tag, Comparator.reverseOrder()))
        .map(Candidate::tag);
  }

  /** True when the tag parses as a version at all; for listing what a repository offers. */
  static boolean isVersion(String tag) {
    return Semver.parse(tag) != null;
  }

  private record Candidate(String tag, Semver version) {}
}

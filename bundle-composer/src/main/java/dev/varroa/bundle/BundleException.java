package dev.varroa.bundle;

import java.util.List;
import java.util.stream.Collectors;

/** A bundle that cannot be rendered, with every problem found. Conflicts outrank invalid input. */
public class BundleException extends Exception {
  private final List<BundleProblem> problems;

  public BundleException(List<BundleProblem> problems) {
    super(problems.stream().map(BundleProblem::format).collect(Collectors.joining("\n")));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a BundleException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  public BundleException(BundleProblem problem) {
    this(List.of(problem));
  }

  public List<BundleProblem> problems() {
    return problems;
  }

  /** CONFLICT when any problem is a conflict (the operator reports ReconcileBlocked), else INVALID. */
  public BundleProblem.Kind kind() {
    return problems.stream().anyMatch(p -> p.kind() == BundleProblem.Kind.CONFLICT)
        ? BundleProblem.Kind.CONFLICT : BundleProblem.Kind.INVALID;
  }

  public int exitCode() {
    return kind().exitCode();
  }
}

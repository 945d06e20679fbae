package dev.varroa.cli.pipeline;

import java.util.Map;
import java.util.Optional;

/** The exit code of a followed pipeline run, from its Jenkins result (docs/pipelines.md, "Exit codes"). */
final class BuildResultExit {

  static final int SUCCESS = 0;
  static final int FAILURE = 10;
  static final int UNSTABLE = 11;
  static final int ABORTED = 12;
  static final int NOT_BUILT = 13;
  /** Accepted, but the build never started: the job is missing on the cell, Jenkins refused it, or time ran out. */
  static final int NEVER_STARTED = 14;

  private static final Map<String, Integer> BY_RESULT = Map.of("SUCCESS", SUCCESS, "FAILURE", FAILURE,
      "UNSTABLE", UNSTABLE, "ABORTED", ABORTED, "NOT_BUILT", NOT_BUILT);

  private BuildResultExit() {}

  /** Empty for a result Jenkins does not define. */
  static Optional<Integer> of(String result) {
    return Optional.ofNullable(BY_RESULT.get(result));
  }
}

package dev.varroa.bundle;

import java.util.List;

/**
 * A source that could not be reached or refused the credentials: the content may be fine, so the
 * last good render stays in force. Invalid content is a plain {@link BundleException}.
 */
public final class SourceUnavailableException extends BundleException {
  public SourceUnavailableException(BundleProblem problem) {
    super(List.of(problem));
  }

  public SourceUnavailableException(List<BundleProblem> problems) {
    super(problems);
  }
}

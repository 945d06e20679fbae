package dev.varroa.bundle.source;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import dev.varroa.bundle.InputRef;

/** Builds the INVALID problems sources report: the input is readable but its ref or content is wrong. */
final class InvalidInput {
  private InvalidInput() {}

  static BundleException exception(InputRef input, String message, String fix) {
    return exception(input, null, message, fix);
  }

  static BundleException exception(InputRef input, String file, String message, String fix) {
    return new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, input.describe(), file, null, message, fix));
  }

  /** A field of the input's spec is wrong, e.g. {@code url}: the message names the field too. */
  static BundleException field(InputRef input, String field, String message, String fix) {
    return new BundleException(new BundleProblem(BundleProblem.Kind.INVALID, input.describe(), null, field, message, fix));
  }

  /** A limit was exceeded: names it, its value, and both ways out. */
  static BundleException limit(InputRef input, LimitExceededException e) {
    return exception(input, e.file(), e.getMessage(),
        "keep only the bundle files under the input's path, or raise the source limit " + e.limitName()
            + " in the operator configuration");
  }
}

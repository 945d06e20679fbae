package dev.varroa.bundle.source;

import java.io.IOException;

/** Thrown while streaming when a {@link SourceLimits} ceiling is crossed; an IOException so streams can raise it. */
final class LimitExceededException extends IOException {
  private final String limitName;
  private final String file;

  LimitExceededException(String what, String limitName, long limit, String file) {
    super(what + " exceeds the " + limitName + " limit of " + limit + (limitName.equals("maxFiles") ? " files" : " bytes"));
    this.limitName = limitName;
    this.file = file;
  }

  String limitName() {
    return limitName;
  }

  /** The file that crossed the limit, or null when the limit is about the whole archive. */
  String file() {
    return file;
  }
}

package dev.varroa.mite;

import java.util.List;

/** The environment the mite was started with is unusable; each problem names the variable and the fix. */
public final class SettingsException extends RuntimeException {

  private final List<String> problems;

  public SettingsException(List<String> problems) {
    super("the mite cannot start, fix its environment: " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}

package dev.varroa.bundle.render;

/** A YAML file that cannot be read, with the line (1-based, 0 when unknown) and the fix. */
final class YamlReadException extends Exception {
  private final int line;
  private final String fix;

  YamlReadException(int line, String message, String fix) {
    super(message);
    this.line = line;
    this.fix = fix;
  }

  int line() {
    return line;
  }

  String fix() {
    return fix;
  }

  /** The message with its line in front, as problems show it. */
  String located() {
    return line > 0 ? "line " + line + ": " + getMessage() : getMessage();
  }
}

package dev.varroa.bundle;

/**
 * One thing wrong with a bundle, located as precisely as the composer knows: the input, the file,
 * the YAML path, what is wrong and how to fix it.
 *
 * @param kind INVALID (exit 2) or CONFLICT (exit 3, ReconcileBlocked in the cluster)
 * @param input the input as {@link InputRef#describe()} names it, or "profile <name>"; null when none applies
 * @param file the file inside the bundle directory; null when none applies
 * @param yamlPath the dotted YAML path, list elements as [identity] or [index]; null when none applies
 * @param message what is wrong
 * @param fix how to fix it
 */
public record BundleProblem(Kind kind, String input, String file, String yamlPath, String message, String fix) {
  /** The two classes of failure that `varroactl bundle render` maps to its exit codes. */
  public enum Kind {
    INVALID(2),
    CONFLICT(3);

    private final int exitCode;

    Kind(int exitCode) {
      this.exitCode = exitCode;
    }

    public int exitCode() {
      return exitCode;
    }
  }

  /** One line: {@code conflict: <input>: <file>: <path>: <message>; fix: <fix>}. */
  public String format() {
    StringBuilder s = new StringBuilder(kind == Kind.CONFLICT ? "conflict" : "invalid input");
    for (String part : new String[] {input, file, yamlPath}) {
      if (part != null && !part.isEmpty()) {
        s.append(": ").append(part);
      }
    }
    s.append(": ").append(message);
    if (fix != null && !fix.isEmpty()) {
      s.append("; fix: ").append(fix);
    }
    return s.toString();
  }
}

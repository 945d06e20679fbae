package dev.varroa.bundle.render;

/**
 * Where a value of the rendered JCasC was written.
 *
 * @param input the input as {@code InputRef.describe()} names it, or {@code profile <name>} for the overlay
 * @param index the input's index in spec.inputs as the lock writes it ("0", "1", …), or "profile"
 * @param file the file inside the bundle directory, or "jcascOverlay" for the profile
 * @param line the line in that file, from 1; 0 when unknown
 */
public record Origin(String input, String index, String file, int line) {
  /** True when both values come from the same input (or both from the profile). */
  public boolean sameInput(Origin other) {
    return index.equals(other.index) && input.equals(other.input);
  }

  /** {@code spec.inputs[1] (git …) jcasc/a.yaml line 3}. */
  public String describe() {
    return input + " " + file + (line > 0 ? " line " + line : "");
  }
}

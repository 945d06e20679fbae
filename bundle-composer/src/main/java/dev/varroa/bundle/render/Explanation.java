package dev.varroa.bundle.render;

import java.util.List;

/**
 * What {@code varroactl bundle explain} says about one path of the rendered JCasC.
 *
 * @param path the dotted path asked about
 * @param present false when a later fragment removed the value ({@code !remove})
 * @param value the value at the path: a scalar's text, or the YAML of a mapping or list; null when removed
 * @param setBy the fragment that put the value there, or that removed it
 * @param overrode the values it replaced, oldest first; the last is the one it directly overrode
 */
public record Explanation(String path, boolean present, String value, Origin setBy, List<Overridden> overrode) {
  public Explanation {
    overrode = List.copyOf(overrode);
  }

  /** A value that was in force at the path before a later fragment replaced or removed it. */
  public record Overridden(Origin origin, String value) {}

  /** Human-readable lines for the CLI. */
  public String format() {
    StringBuilder s = new StringBuilder(path);
    if (present) {
      s.append(" = ").append(value.contains("\n") ? "\n  " + value.replace("\n", "\n  ") : value).append('\n');
      s.append("  set by ").append(setBy.describe()).append('\n');
    } else {
      s.append(" is removed\n  removed by ").append(setBy.describe()).append('\n');
    }
    for (int i = overrode.size() - 1; i >= 0; i--) {
      Overridden previous = overrode.get(i);
      s.append("  overrode ").append(previous.value().contains("\n") ? "a value" : previous.value())
          .append(" from ").append(previous.origin().describe()).append('\n');
    }
    return s.toString();
  }
}

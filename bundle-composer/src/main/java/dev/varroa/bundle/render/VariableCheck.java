package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that every {@code ${NAME}} in the rendered JCasC is defined (BUNDLES.md §3). Not checked:
 * {@code ^${NAME}} (JCasC's escape for a literal) and references with a colon, such as
 * {@code ${NAME:-default}} (it has its own fallback) and JCasC lookups like {@code ${readFile:/path}}.
 * Only values that are rendered are checked: one a later input overrode does not reach Jenkins.
 */
final class VariableCheck {
  private static final Pattern REFERENCE = Pattern.compile("(?<!\\^)\\$\\{([^{}:\\s]+)}");

  private VariableCheck() {}

  static void check(MapNode root, Set<String> defined, Problems problems) {
    MergedTreeWalk.walk(root, (path, node) -> {
      if (node instanceof ScalarNode scalar && scalar.value().isString()) {
        for (String name : references(scalar.value().text())) {
          if (!defined.contains(name)) {
            Origin origin = scalar.origin();
            problems.invalid(origin.input(), origin.file(), path, "line " + origin.line() + ": the variable ${" + name
                + "} is not defined", "define " + name + " in a variables.yaml, declare it as a secret of the"
                + " ComposedBundle or Controller, write ^${" + name + "} for a literal, or give a default: ${"
                + name + ":-value}");
          }
        }
      }
    });
  }

  /** The names referenced as {@code ${NAME}}, in order of first use. */
  static Set<String> references(String text) {
    if (!text.contains("${")) {
      return Set.of();
    }
    Set<String> names = new LinkedHashSet<>();
    Matcher matcher = REFERENCE.matcher(text);
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }
}

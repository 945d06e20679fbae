package dev.varroa.bundle.render;

import dev.varroa.bundle.render.YamlValue.Mapping;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads {@code variables.yaml}: {@code variables: {ORG_NAME: acme}}. */
final class VariablesFile {
  /** What Kubernetes accepts as an environment variable name, where the operator puts these. */
  static final Pattern NAME = Pattern.compile("[-._a-zA-Z][-._a-zA-Z0-9]*");

  private VariablesFile() {}

  static List<Variable> read(Optional<YamlValue> document, Source source, String file, Problems problems) {
    if (document.isEmpty()) {
      return List.of();
    }
    if (!(document.get() instanceof Mapping top) || top.entries().size() != 1 || top.get("variables") == null) {
      problems.invalid(source.label(), file, null, "expected one key, variables, holding a mapping",
          "write `variables: {ORG_NAME: acme}`");
      return List.of();
    }
    YamlValue map = top.get("variables");
    if (map instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (!(map instanceof Mapping variables)) {
      problems.invalid(source.label(), file, "variables", "line " + map.line() + ": variables is a "
          + JcascMerger.shape(map) + ", expected a mapping", "write `variables: {ORG_NAME: acme}`");
      return List.of();
    }
    List<Variable> defined = new ArrayList<>();
    for (YamlValue.Entry entry : variables.entries()) {
      String name = entry.key().text();
      String path = "variables." + name;
      if (!NAME.matcher(name).matches()) {
        problems.invalid(source.label(), file, path, "line " + entry.key().line() + ": '" + name
            + "' is not a valid variable name", "use letters, digits, '_', '-' and '.', not starting with a digit");
      } else if (!(entry.value() instanceof Scalar value) || value.isNull()) {
        problems.invalid(source.label(), file, path, "line " + entry.key().line() + ": " + name
            + " has no value (a variable is a single string)", "give it a value; write \"\" for an empty one");
      } else {
        defined.add(new Variable(name, value.text(), source.at(file, entry.key().line())));
      }
    }
    return defined;
  }
}

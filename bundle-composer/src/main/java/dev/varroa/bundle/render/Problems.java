package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.BundleProblem;
import java.util.ArrayList;
import java.util.List;

/** Every problem one render finds, in the order found, so one exception reports them all. */
final class Problems {
  private final List<BundleProblem> found = new ArrayList<>();

  void invalid(String input, String file, String yamlPath, String message, String fix) {
    found.add(new BundleProblem(BundleProblem.Kind.INVALID, input, file, emptyToNull(yamlPath), message, fix));
  }

  void conflict(String input, String file, String yamlPath, String message, String fix) {
    found.add(new BundleProblem(BundleProblem.Kind.CONFLICT, input, file, emptyToNull(yamlPath), message, fix));
  }

  void unreadable(Source source, String file, YamlReadException e) {
    invalid(source.label(), file, null, e.located(), e.fix());
  }

  void throwIfAny() throws BundleException {
    if (!found.isEmpty()) {
      throw new BundleException(found);
    }
  }

  private static String emptyToNull(String path) {
    return path == null || path.isEmpty() ? null : path;
  }
}

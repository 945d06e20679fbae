package dev.varroa.testfixtures;

import java.nio.file.Files;
import java.nio.file.Path;

/** Finds the repository root from wherever a test or the demo runs (a module folder or the root). */
public final class ProjectLayout {
  private ProjectLayout() {}

  /** The nearest folder upwards that holds the reactor's chart/ and pom.xml. */
  public static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isDirectory(p.resolve("chart")) && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    throw new IllegalStateException("cannot find the Varroa repository root (a folder with chart/ and pom.xml) above " + dir);
  }
}

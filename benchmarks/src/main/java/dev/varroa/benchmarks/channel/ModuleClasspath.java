package dev.varroa.benchmarks.channel;

import dev.varroa.testfixtures.ProjectLayout;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The classpath a module's own process runs with, as its container image would hold it: the module's
 * jar plus its runtime dependencies, nothing else. The benchmark's own classpath is no stand-in: it
 * holds about 120 jars (operator, fabric8, JGit), and every jar a class loader opens keeps its central
 * directory on the heap, which would inflate the very heap and resident figures being measured.
 */
public final class ModuleClasspath {

  /** Where {@link #command(String)} writes the module's runtime dependencies. */
  public static final String FILE = "target/runtime-classpath.txt";

  private ModuleClasspath() {
  }

  /** The module's jar (taken from this JVM's classpath) followed by the entries of {@code <module>/}{@value #FILE}. */
  public static List<String> of(String module, String artifactId) {
    Path file = ProjectLayout.root().resolve(module).resolve(FILE);
    if (!Files.isRegularFile(file)) {
      throw new IllegalStateException(file + " is missing: run `" + command(module) + "` in the repository root");
    }
    List<String> entries = new ArrayList<>();
    entries.add(ownJar(artifactId));
    try {
      for (String entry : Files.readString(file, StandardCharsets.UTF_8).strip().split(File.pathSeparator)) {
        if (entry.isBlank()) {
          continue;
        }
        if (!Files.exists(Path.of(entry))) {
          throw new IllegalStateException(file + " names " + entry + ", which does not exist: run `"
              + command(module) + "` again");
        }
        entries.add(entry);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return entries;
  }

  /** The Maven command that writes the module's runtime classpath file. */
  public static String command(String module) {
    return "mvn -o -q -pl " + module + " dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile="
        + FILE;
  }

  private static String ownJar(String artifactId) {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> Path.of(entry).getFileName().toString().startsWith(artifactId + "-")
            && entry.endsWith(".jar"))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(artifactId + " is not on this JVM's classpath: build with "
            + "`mvn -o -q -pl benchmarks install -DskipTests` and run with its dependency:build-classpath"));
  }
}

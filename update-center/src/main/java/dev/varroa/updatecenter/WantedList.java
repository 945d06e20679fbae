package dev.varroa.updatecenter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What the operator says the update center must hold: a plugins.txt (one {@code id:version} a line,
 * {@code #} comments), mounted from the UpdateCenter's wanted-list ConfigMap.
 */
public final class WantedList {
  /** The key of the wanted-list ConfigMap and the file name in its mount. */
  public static final String FILE_NAME = "plugins.txt";

  private WantedList() {}

  /** The lines of a wanted list; lines that are not {@code id:version} are reported, not skipped silently. */
  public record Parsed(SortedSet<PluginCoordinates> plugins, List<String> problems) {}

  public static Parsed parse(String text) {
    SortedSet<PluginCoordinates> plugins = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    String[] lines = text.split("\n");
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int hash = line.indexOf('#');
      String content = (hash >= 0 ? line.substring(0, hash) : line).strip();
      if (content.isEmpty()) {
        continue;
      }
      try {
        plugins.add(PluginCoordinates.parse(content));
      } catch (IllegalArgumentException e) {
        problems.add("line " + (i + 1) + ": " + e.getMessage());
      }
    }
    return new Parsed(plugins, List.copyOf(problems));
  }

  /** Reads the file; a missing file is an empty list (the ConfigMap may not be mounted yet). */
  public static Parsed read(Path file) throws IOException {
    try {
      return parse(Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      return new Parsed(new TreeSet<>(), List.of());
    }
  }

  /** The plugins.txt text of a set: sorted, one {@code id:version} a line. */
  public static String text(SortedSet<PluginCoordinates> plugins) {
    StringBuilder text = new StringBuilder();
    plugins.forEach(p -> text.append(p).append('\n'));
    return text.toString();
  }
}

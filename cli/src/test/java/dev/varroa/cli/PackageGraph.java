package dev.varroa.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which package of a source tree uses which, read from the Java sources: import lines and fully qualified names in
 * code (comments and string literals left out). Each edge keeps the files that make it, for messages.
 */
final class PackageGraph {
  private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
  // a package is the lower-case segments before the first capitalised one: a.b.C, a.b.C.D, a.b.*
  private static final Pattern REFERENCE = Pattern.compile("\\b((?:[a-z_][\\w]*\\.)+)(?:[A-Z]\\w*|\\*)");

  private final Map<String, Map<String, Set<String>>> edges;

  private PackageGraph(Map<String, Map<String, Set<String>>> edges) {
    this.edges = edges;
  }

  /** The packages under {@code sourceRoot} and the ones starting with {@code prefix} they use. */
  static PackageGraph read(Path sourceRoot, String prefix) {
    Map<String, Map<String, Set<String>>> edges = new TreeMap<>();
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
        String code = withoutCommentsAndStrings(Files.readString(file));
        Matcher declared = PACKAGE.matcher(code);
        if (!declared.find()) {
          continue;
        }
        String from = declared.group(1);
        edges.computeIfAbsent(from, p -> new TreeMap<>());
        Matcher used = REFERENCE.matcher(code.substring(declared.end()));
        while (used.find()) {
          String to = used.group(1).substring(0, used.group(1).length() - 1);
          if (!to.equals(from) && (to.equals(prefix) || to.startsWith(prefix + "."))) {
            edges.get(from).computeIfAbsent(to, p -> new TreeSet<>()).add(file.getFileName().toString());
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the sources under " + sourceRoot, e);
    }
    return new PackageGraph(edges);
  }

  /** A graph given edge by edge ("a -> b"), for testing the cycle search itself. */
  static PackageGraph of(String... arrows) {
    Map<String, Map<String, Set<String>>> edges = new TreeMap<>();
    for (String arrow : arrows) {
      String[] ends = arrow.split(" -> ");
      edges.computeIfAbsent(ends[0], p -> new TreeMap<>()).computeIfAbsent(ends[1], p -> new TreeSet<>()).add("given");
      edges.computeIfAbsent(ends[1], p -> new TreeMap<>());
    }
    return new PackageGraph(edges);
  }

  Set<String> packages() {
    return edges.keySet();
  }

  /** Every edge as "from -> to". */
  Set<String> arrows() {
    Set<String> arrows = new TreeSet<>();
    edges.forEach((from, tos) -> tos.keySet().forEach(to -> arrows.add(from + " -> " + to)));
    return arrows;
  }

  /** The files of {@code from} that use {@code to}. */
  Set<String> files(String from, String to) {
    return edges.getOrDefault(from, Map.of()).getOrDefault(to, Set.of());
  }

  /** Each group of packages that reach one another (Tarjan's strongly connected components of two or more). */
  List<Set<String>> cycles() {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new TreeSet<>();
    List<Set<String>> cycles = new ArrayList<>();
    for (String start : edges.keySet()) {
      if (!index.containsKey(start)) {
        connect(start, index, low, stack, onStack, cycles);
      }
    }
    return cycles;
  }

  private void connect(String node, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
      Set<String> onStack, List<Set<String>> cycles) {
    index.put(node, index.size());
    low.put(node, index.get(node));
    stack.push(node);
    onStack.add(node);
    for (String next : edges.getOrDefault(node, Map.of()).keySet()) {
      if (!index.containsKey(next)) {
        connect(next, index, low, stack, onStack, cycles);
        low.put(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.contains(next)) {
        low.put(node, Math.min(low.get(node), index.get(next)));
      }
    }
    if (low.get(node).equals(index.get(node))) {
      Set<String> component = new TreeSet<>();
      String member;
      do {
        member = stack.pop();
        onStack.remove(member);
        component.add(member);
      } while (!member.equals(node));
      if (component.size() > 1) {
        cycles.add(component);
      }
    }
  }

  /** The edges inside one cycle, each with the files that make it: what a failure message shows. */
  String describe(Set<String> cycle) {
    StringBuilder text = new StringBuilder();
    for (String from : cycle) {
      edges.getOrDefault(from, Map.of()).forEach((to, files) -> {
        if (cycle.contains(to)) {
          text.append("\n  ").append(from).append(" -> ").append(to).append(" (").append(String.join(", ", files))
              .append(')');
        }
      });
    }
    return text.toString();
  }

  /** The source with comments, string, text block and character literals blanked, line breaks kept. */
  static String withoutCommentsAndStrings(String source) {
    StringBuilder code = new StringBuilder(source.length());
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        while (i < source.length() && source.charAt(i) != '\n') {
          i++;
        }
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? source.length() : end + 2;
        code.append(' ');
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? source.length() : end + 3;
        code.append("\"\"");
      } else if (c == '"' || c == '\'') {
        i++;
        while (i < source.length() && source.charAt(i) != c) {
          i += source.charAt(i) == '\\' ? 2 : 1;
        }
        i++;
        code.append(c).append(c);
      } else {
        code.append(c);
        i++;
      }
    }
    return code.toString();
  }
}

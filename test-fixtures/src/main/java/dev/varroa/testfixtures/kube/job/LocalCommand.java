package dev.varroa.testfixtures.kube.job;

import io.fabric8.kubernetes.api.model.Container;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A container of a pod turned into a command on this machine: its command and args and env values with the
 * Kubernetes {@code $(VAR)} references expanded, and every mount path (and the termination message path) in them
 * replaced by the local folder or file that stands for it.
 *
 * @param argv the command line
 * @param environment the container's env, after expansion and path replacement (the caller adds PATH and HOME)
 * @param workingDirectory the container's workingDir replaced, or null for the caller's scratch folder
 * @param terminationMessageFile the local file that stands for terminationMessagePath
 */
public record LocalCommand(List<String> argv, Map<String, String> environment, Path workingDirectory,
    Path terminationMessageFile) {
  public static final String DEFAULT_TERMINATION_MESSAGE_PATH = "/dev/termination-log";
  // a path name character: a mount path followed or preceded by one is part of a longer path, not this mount
  private static final String PATH_CHAR = "[A-Za-z0-9._-]";
  private static final Pattern REFERENCE = Pattern.compile("\\$\\$|\\$\\(([A-Za-z_][A-Za-z0-9_.-]*)\\)");

  /**
   * Plans the container's command.
   *
   * @param container the pod's container (command required: there is no image to read an entrypoint from)
   * @param env the container's env in order, with each valueFrom already read (name to raw value)
   * @param mounts mount path in the container to the local path that stands for it
   * @param terminationMessageFile the local file for the container's terminationMessagePath
   */
  public static LocalCommand of(Container container, Map<String, String> env, Map<String, Path> mounts,
      Path terminationMessageFile) {
    if (container.getCommand() == null || container.getCommand().isEmpty()) {
      throw new IllegalArgumentException("container " + container.getName() + " has no command: a stand-in runs the"
          + " command locally and cannot read an image's entrypoint, so set spec.template.spec.containers[].command");
    }
    Map<String, Path> replacements = new LinkedHashMap<>(mounts);
    replacements.put(Objects.requireNonNullElse(container.getTerminationMessagePath(), DEFAULT_TERMINATION_MESSAGE_PATH),
        terminationMessageFile);
    Pattern paths = pathPattern(replacements.keySet());

    Map<String, String> expanded = new LinkedHashMap<>();
    for (Map.Entry<String, String> variable : env.entrySet()) {
      // as in Kubernetes, a value may refer to the variables defined before it
      expanded.put(variable.getKey(), expand(Objects.requireNonNullElse(variable.getValue(), ""), expanded));
    }
    List<String> argv = new ArrayList<>();
    container.getCommand().forEach(a -> argv.add(replace(expand(a, expanded), paths, replacements)));
    if (container.getArgs() != null) {
      container.getArgs().forEach(a -> argv.add(replace(expand(a, expanded), paths, replacements)));
    }
    Map<String, String> environment = new LinkedHashMap<>();
    expanded.forEach((name, value) -> environment.put(name, replace(value, paths, replacements)));
    String workingDir = container.getWorkingDir();
    Path workingDirectory = workingDir == null || workingDir.isEmpty() ? null
        : Path.of(replace(workingDir, paths, replacements));
    return new LocalCommand(List.copyOf(argv), environment, workingDirectory, terminationMessageFile);
  }

  /** Replaces {@code $(NAME)} by a defined variable's value and {@code $$} by {@code $}; unknown references stay. */
  static String expand(String text, Map<String, String> variables) {
    Matcher m = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) == null) {
        replacement = "$";
      } else {
        replacement = variables.getOrDefault(m.group(1), m.group());
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  private static Pattern pathPattern(java.util.Set<String> mountPaths) {
    // longest first, so /home/jenkins/data wins over /home/jenkins
    List<String> sorted = mountPaths.stream().map(LocalCommand::trimSlash)
        .sorted(Comparator.comparingInt(String::length).reversed()).toList();
    StringBuilder alternatives = new StringBuilder();
    for (String path : sorted) {
      alternatives.append(alternatives.isEmpty() ? "" : "|").append(Pattern.quote(path));
    }
    return Pattern.compile("(?<!" + PATH_CHAR + "|/)(" + alternatives + ")(?!" + PATH_CHAR + ")");
  }

  private static String replace(String text, Pattern paths, Map<String, Path> replacements) {
    Map<String, Path> trimmed = new LinkedHashMap<>();
    replacements.forEach((k, v) -> trimmed.put(trimSlash(k), v));
    return paths.matcher(text).replaceAll(m -> Matcher.quoteReplacement(trimmed.get(m.group(1)).toString()));
  }

  private static String trimSlash(String path) {
    return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
  }
}

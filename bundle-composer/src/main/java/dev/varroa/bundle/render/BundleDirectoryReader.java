package dev.varroa.bundle.render;

import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.ResolvedInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads one input's bundle directory (BUNDLES.md §2): the optional bundle.yaml index, the JCasC
 * files in order, the plugins and variables files. Every file is optional, but a directory with
 * nothing a bundle holds is invalid, so a typo in an input's path never renders nothing silently.
 */
final class BundleDirectoryReader {
  static final String JCASC_FOLDER = "jcasc";

  private BundleDirectoryReader() {}

  static BundleDirectory read(ResolvedInput input, Problems problems) {
    Source source = Source.of(input.ref());
    BundleFiles files = input.files();
    if (files.isEmpty()) {
      problems.invalid(source.label(), null, null, "the input resolves to an empty directory",
          "check the input's path and ref: the folder must hold bundle.yaml, jcasc/*.yaml, plugins.yaml or variables.yaml");
      return new BundleDirectory(source, List.of(), List.of(), List.of());
    }
    Optional<String> indexFile = defaultFile(files, "bundle", source, problems);
    BundleIndex index = indexFile
        .map(file -> BundleIndex.read(document(files, file, source, problems), source, file, problems))
        .orElse(BundleIndex.DEFAULT);
    List<String> jcascFiles = index.jcasc()
        .map(entries -> listed(files, entries, source, indexFile.orElseThrow(), problems))
        .orElseGet(() -> defaultJcasc(files, source, problems));
    List<String> pluginFiles = index.plugins()
        .map(listed -> existing(files, listed, source, indexFile.orElseThrow(), "plugins", problems))
        .orElseGet(() -> defaultFile(files, "plugins", source, problems).stream().toList());
    List<String> variableFiles = index.variables()
        .map(listed -> existing(files, listed, source, indexFile.orElseThrow(), "variables", problems))
        .orElseGet(() -> defaultFile(files, "variables", source, problems).stream().toList());

    if (indexFile.isEmpty() && jcascFiles.isEmpty() && pluginFiles.isEmpty() && variableFiles.isEmpty()) {
      String found = files.files().keySet().stream().limit(5).collect(Collectors.joining(", "));
      problems.invalid(source.label(), null, null, "the input's directory holds no bundle files (found: " + found
          + (files.files().size() > 5 ? ", …" : "") + ")",
          "check the input's path: it must name the folder that holds bundle.yaml, jcasc/*.yaml, plugins.yaml or variables.yaml");
    }

    List<Fragment> fragments = new ArrayList<>();
    for (String file : jcascFiles) {
      document(files, file, source, problems).ifPresent(root -> fragments.add(new Fragment(source, file, root)));
    }
    List<PluginPin> plugins = new ArrayList<>();
    for (String file : pluginFiles) {
      plugins.addAll(PluginsFile.read(document(files, file, source, problems), source, file, problems));
    }
    List<Variable> variables = new ArrayList<>();
    for (String file : variableFiles) {
      variables.addAll(VariablesFile.read(document(files, file, source, problems), source, file, problems));
    }
    return new BundleDirectory(source, fragments, plugins, variables);
  }

  private static Optional<YamlValue> document(BundleFiles files, String file, Source source, Problems problems) {
    try {
      return YamlReader.read(files.file(file).orElseThrow());
    } catch (YamlReadException e) {
      problems.unreadable(source, file, e);
      return Optional.empty();
    }
  }

  /** {@code NAME.yaml}, or {@code NAME.yml} when only that exists. */
  private static Optional<String> defaultFile(BundleFiles files, String name, Source source, Problems problems) {
    boolean yaml = files.file(name + ".yaml").isPresent();
    boolean yml = files.file(name + ".yml").isPresent();
    if (yaml && yml) {
      problems.invalid(source.label(), name + ".yml", null, "both " + name + ".yaml and " + name + ".yml exist",
          "keep one of them");
    }
    return yaml ? Optional.of(name + ".yaml") : yml ? Optional.of(name + ".yml") : Optional.empty();
  }

  /** jcasc/*.yaml and jcasc/*.yml in lexical order; YAML deeper under jcasc/ would be ignored, so it is an error. */
  private static List<String> defaultJcasc(BundleFiles files, Source source, Problems problems) {
    List<String> result = new ArrayList<>();
    for (String path : files.files().keySet()) {
      if (!path.startsWith(JCASC_FOLDER + "/") || !isYaml(path)) {
        continue;
      }
      if (path.indexOf('/', JCASC_FOLDER.length() + 1) >= 0) {
        problems.invalid(source.label(), path, null, "a JCasC file in a subfolder of jcasc/ is not read",
            "move it directly into jcasc/, or list it (or its folder) under `jcasc:` in bundle.yaml");
      } else {
        result.add(path);
      }
    }
    return result;
  }

  /** bundle.yaml's jcasc entries: a file, or a folder whose *.yaml and *.yml files are taken in lexical order. */
  private static List<String> listed(BundleFiles files, List<String> entries, Source source, String indexFile,
      Problems problems) {
    List<String> result = new ArrayList<>();
    for (String entry : entries) {
      Optional<String> path = normalized(entry, source, indexFile, "jcasc", problems);
      if (path.isEmpty()) {
        continue;
      }
      if (files.file(path.get()).isPresent()) {
        result.add(path.get());
        continue;
      }
      String folder = path.get() + "/";
      List<String> inFolder = files.files().keySet().stream()
          .filter(p -> p.startsWith(folder) && p.indexOf('/', folder.length()) < 0 && isYaml(p)).toList();
      if (inFolder.isEmpty()) {
        problems.invalid(source.label(), indexFile, "jcasc", "'" + entry + "' is listed but no such file or folder of YAML files exists",
            "correct the path (relative to the bundle directory) or remove the entry");
      }
      result.addAll(inFolder);
    }
    return result;
  }

  private static List<String> existing(BundleFiles files, List<String> entries, Source source, String indexFile,
      String key, Problems problems) {
    List<String> result = new ArrayList<>();
    for (String entry : entries) {
      Optional<String> path = normalized(entry, source, indexFile, key, problems);
      if (path.isPresent() && files.file(path.get()).isEmpty()) {
        problems.invalid(source.label(), indexFile, key, "'" + entry + "' is listed but does not exist",
            "correct the path (relative to the bundle directory) or remove the entry");
      } else {
        path.ifPresent(result::add);
      }
    }
    return result;
  }

  private static Optional<String> normalized(String entry, Source source, String indexFile, String key,
      Problems problems) {
    String path = entry.replaceAll("^(\\./)+", "").replaceAll("/+$", "");
    if (path.isEmpty() || path.startsWith("/") || List.of(path.split("/")).contains("..")) {
      problems.invalid(source.label(), indexFile, key, "'" + entry + "' is not a path inside the bundle directory",
          "write a relative path without '..', e.g. jcasc/base.yaml");
      return Optional.empty();
    }
    return Optional.of(path);
  }

  private static boolean isYaml(String path) {
    return path.endsWith(".yaml") || path.endsWith(".yml");
  }
}

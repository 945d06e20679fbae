package dev.varroa.bundle.render;

import java.util.List;

/** What one input's bundle directory contributes, read and checked. */
record BundleDirectory(Source source, List<Fragment> fragments, List<PluginPin> plugins, List<Variable> variables) {
  BundleDirectory {
    fragments = List.copyOf(fragments);
    plugins = List.copyOf(plugins);
    variables = List.copyOf(variables);
  }
}

package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What changes between two renders ({@code varroactl bundle diff}), and whether Jenkins can take it
 * by reloading JCasC or needs a restart.
 *
 * @param jcasc changed leaf paths of jcasc.yaml, sorted by path
 * @param plugins changed plugins, sorted by id
 * @param fromJenkinsVersion the first render's Jenkins version
 * @param toJenkinsVersion the second render's Jenkins version
 * @param classification RESTART_CLASS when plugins or the Jenkins version change, else RELOADABLE when JCasC
 *     changes, else UNCHANGED
 */
public record BundleDiff(List<JcascChange> jcasc, List<PluginChange> plugins, String fromJenkinsVersion,
    String toJenkinsVersion, ChangeClass classification) {
  public BundleDiff {
    jcasc = List.copyOf(jcasc);
    plugins = List.copyOf(plugins);
  }

  /** How a path or plugin changed. */
  public enum Kind { ADDED, REMOVED, CHANGED }

  /** What applying the change takes. */
  public enum ChangeClass {
    UNCHANGED("unchanged"),
    /** JCasC only: a configuration-as-code reload applies it. */
    RELOADABLE("reloadable"),
    /** Plugins or the Jenkins version change: the controller restarts. */
    RESTART_CLASS("restart-class");

    private final String label;

    ChangeClass(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * One leaf of jcasc.yaml (a scalar, or an empty mapping or list) that differs.
   *
   * @param from the value before, null when added
   * @param to the value after, null when removed
   */
  public record JcascChange(String path, Kind kind, String from, String to) {}

  /**
   * One plugin that differs.
   *
   * @param fromVersion the version before, null when added
   * @param toVersion the version after, null when removed
   */
  public record PluginChange(String id, Kind kind, String fromVersion, String toVersion) {}

  /** The change from one render to another; a pure function of the two. */
  public static BundleDiff between(RenderedBundle from, RenderedBundle to) {
    List<JcascChange> jcasc = jcascChanges(from.provenance().leaves(), to.provenance().leaves());
    List<PluginChange> plugins = pluginChanges(versions(from), versions(to));
    String fromVersion = from.lock().jenkinsVersion();
    String toVersion = to.lock().jenkinsVersion();
    ChangeClass classification = !plugins.isEmpty() || !Objects.equals(fromVersion, toVersion) ? ChangeClass.RESTART_CLASS
        : !jcasc.isEmpty() ? ChangeClass.RELOADABLE : ChangeClass.UNCHANGED;
    return new BundleDiff(jcasc, plugins, fromVersion, toVersion, classification);
  }

  public boolean unchanged() {
    return classification == ChangeClass.UNCHANGED;
  }

  private static List<JcascChange> jcascChanges(Map<String, MergedNode> before, Map<String, MergedNode> after) {
    List<JcascChange> changes = new ArrayList<>();
    TreeSet<String> paths = new TreeSet<>(before.keySet());
    paths.addAll(after.keySet());
    for (String path : paths) {
      MergedNode was = before.get(path);
      MergedNode is = after.get(path);
      if (was == null) {
        changes.add(new JcascChange(path, Kind.ADDED, null, shown(is)));
      } else if (is == null) {
        changes.add(new JcascChange(path, Kind.REMOVED, shown(was), null));
      } else if (!was.sameValue(is)) {
        changes.add(new JcascChange(path, Kind.CHANGED, shown(was), shown(is)));
      }
    }
    return changes;
  }

  private static List<PluginChange> pluginChanges(Map<String, String> before, Map<String, String> after) {
    List<PluginChange> changes = new ArrayList<>();
    TreeSet<String> ids = new TreeSet<>(before.keySet());
    ids.addAll(after.keySet());
    for (String id : ids) {
      String was = before.get(id);
      String is = after.get(id);
      if (was == null) {
        changes.add(new PluginChange(id, Kind.ADDED, null, is));
      } else if (is == null) {
        changes.add(new PluginChange(id, Kind.REMOVED, was, null));
      } else if (!was.equals(is)) {
        changes.add(new PluginChange(id, Kind.CHANGED, was, is));
      }
    }
    return changes;
  }

  private static Map<String, String> versions(RenderedBundle bundle) {
    Map<String, String> versions = new TreeMap<>();
    bundle.lock().plugins().forEach(plugin -> versions.put(plugin.id(), plugin.version()));
    return versions;
  }

  private static String shown(MergedNode leaf) {
    if (leaf instanceof ScalarNode scalar) {
      return scalar.value().text();
    }
    return leaf instanceof ListNode ? "[]" : leaf instanceof MapNode ? "{}" : "";
  }
}

package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where every value of a rendered JCasC came from, so {@code varroactl bundle explain} is exact: for
 * a path, the input and file that set the value and the values it overrode. Paths are the lock's:
 * dotted keys, list elements as {@code [identity]} or {@code [index]}, an element identified as
 * {@code key/value} stepping over its key ({@code jenkins.clouds[kubernetes/k8s].namespace}).
 */
public final class Provenance {
  private final Map<String, MergedNode> byPath;
  private final Map<String, Removal> removed;

  Provenance(MapNode root, List<Removal> removals) {
    Map<String, MergedNode> index = new LinkedHashMap<>();
    MergedTreeWalk.walk(root, index::putIfAbsent);
    this.byPath = Collections.unmodifiableMap(index);
    Map<String, Removal> gone = new LinkedHashMap<>();
    removals.forEach(removal -> gone.put(removal.path(), removal));
    this.removed = Collections.unmodifiableMap(gone);
  }

  /** Which input and file set the value at a path, and what it overrode; empty for a path never set. */
  public Optional<Explanation> explain(String path) {
    MergedNode node = byPath.get(path);
    if (node != null) {
      return Optional.of(new Explanation(path, true, JcascWriter.display(node), node.origin(), node.history()));
    }
    return Optional.ofNullable(removed.get(path))
        .map(removal -> new Explanation(path, false, null, removal.removedBy(), removal.overrode()));
  }

  /** Every path that holds a value, in document order. */
  public List<String> paths() {
    return List.copyOf(byPath.keySet());
  }

  /** Paths of scalars and empty collections with the value as shown: what a diff compares. */
  Map<String, MergedNode> leaves() {
    Map<String, MergedNode> leaves = new LinkedHashMap<>();
    byPath.forEach((path, node) -> {
      boolean leaf = node instanceof MapNode map ? map.isEmpty()
          : !(node instanceof ListNode list) || list.size() == 0;
      if (leaf) {
        leaves.put(path, node);
      }
    });
    return leaves;
  }
}

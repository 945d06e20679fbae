package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import dev.varroa.bundle.render.YamlValue.Mapping;
import dev.varroa.bundle.render.YamlValue.MergeTag;
import dev.varroa.bundle.render.YamlValue.Scalar;
import dev.varroa.bundle.render.YamlValue.Sequence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Merges JCasC fragments in order by the rules of BUNDLES.md §3, recording every override and
 * removal, and reporting conflicts as problems (the merge goes on, so one render reports them all).
 */
final class JcascMerger {
  private final Problems problems;
  private final List<BundleLock.Override> overrides = new ArrayList<>();
  private final List<Removal> removals = new ArrayList<>();
  private MapNode root = new MapNode(null);
  private Source source;
  private String file;

  JcascMerger(Problems problems) {
    this.problems = problems;
  }

  MapNode root() {
    return root;
  }

  /** Overrides in the order they happened. */
  List<BundleLock.Override> overrides() {
    return List.copyOf(overrides);
  }

  List<Removal> removals() {
    return List.copyOf(removals);
  }

  void merge(Fragment fragment) {
    source = fragment.source();
    file = fragment.file();
    if (!(fragment.root() instanceof Mapping top)) {
      problems.invalid(source.label(), file, null, "line " + fragment.root().line()
          + ": the file is a " + shape(fragment.root()) + ", a JCasC file is a mapping",
          "start the file with top-level JCasC keys such as `jenkins:` or `unclassified:`");
      return;
    }
    switch (top.tag()) {
      case REMOVE -> problems.invalid(source.label(), file, null, "line " + top.line()
          + ": !remove is on the whole document", "tag the key to remove instead: `key: !remove`");
      case REPLACE -> root = (MapNode) replace(root, top, "", null);
      case NONE -> mergeMap(root, top, "", null);
      default -> throw new IllegalStateException("unknown tag " + top.tag());
    }
  }

  private MergedNode merge(MergedNode existing, YamlValue incoming, String path, String transparentKeyId) {
    if (existing == null) {
      return fresh(incoming, path, transparentKeyId);
    }
    if (incoming.tag() == MergeTag.REPLACE) {
      return replace(existing, incoming, path, transparentKeyId);
    }
    if (existing instanceof MapNode map && incoming instanceof Mapping mapping) {
      mergeMap(map, mapping, path, transparentKeyId);
      return map;
    }
    if (existing instanceof ListNode list && incoming instanceof Sequence sequence) {
      mergeList(list, sequence, path);
      return list;
    }
    if (existing instanceof ScalarNode scalar && incoming instanceof Scalar value) {
      return mergeScalar(scalar, value, path);
    }
    problems.conflict(source.label(), file, path, "line " + incoming.line() + ": this " + shape(incoming)
        + " meets a " + shape(existing) + " set by " + existing.origin().describe(),
        "write the same shape as the earlier value, or tag this value !replace to replace it");
    return existing;
  }

  private MergedNode fresh(YamlValue incoming, String path, String transparentKeyId) {
    Origin origin = origin(incoming);
    if (incoming instanceof Mapping mapping) {
      MapNode map = new MapNode(origin);
      mergeMap(map, mapping, path, transparentKeyId);
      return map;
    }
    if (incoming instanceof Sequence sequence) {
      ListNode list = new ListNode(origin);
      mergeList(list, sequence, path);
      return list;
    }
    return new ScalarNode(((Scalar) incoming).withoutTag(), origin);
  }

  private MergedNode replace(MergedNode existing, YamlValue incoming, String path, String transparentKeyId) {
    MergedNode node = fresh(incoming, path, transparentKeyId);
    // The document root has no origin of its own; what it held is still overridden.
    if (existing.origin() != null) {
      node.inherit(existing, JcascWriter.display(existing));
    }
    recordOverrides(path, existing);
    return node;
  }

  private MergedNode mergeScalar(ScalarNode existing, Scalar incoming, String path) {
    if (existing.value().equalityKey().equals(incoming.equalityKey())) {
      return existing;
    }
    Origin origin = origin(incoming);
    if (existing.origin().sameInput(origin)) {
      problems.conflict(source.label(), file, path, "set twice with different values in one input: '"
          + existing.value().text() + "' (" + existing.origin().file() + " line " + existing.origin().line()
          + ") and '" + incoming.text() + "' (" + file + " line " + incoming.line() + ")",
          "keep one of the two values in this input, or tag the one that should win !replace");
      return existing;
    }
    ScalarNode node = new ScalarNode(incoming.withoutTag(), origin);
    node.inherit(existing, existing.value().text());
    overrides.add(new BundleLock.Override(path, origin.index(), existing.origin().index()));
    return node;
  }

  private void mergeMap(MapNode target, Mapping incoming, String path, String transparentKeyId) {
    for (YamlValue.Entry entry : incoming.entries()) {
      String keyId = entry.key().equalityKey();
      String childPath = keyId.equals(transparentKeyId) ? path : JcascPath.key(path, entry.key().text());
      MergedNode current = target.get(keyId);
      if (entry.value().tag() == MergeTag.REMOVE) {
        if (current != null) {
          target.remove(keyId);
          removed(childPath, current, entry.value());
        }
        continue;
      }
      MergedNode result = merge(current, entry.value(), childPath, null);
      if (result != current) {
        target.put(entry.key().withoutTag(), result);
      }
    }
  }

  private void mergeList(ListNode target, Sequence incoming, String path) {
    for (YamlValue item : incoming.items()) {
      Optional<ElementIdentity> identity = ElementIdentity.of(item);
      if (item.tag() == MergeTag.REMOVE) {
        removeElement(target, item, identity, path);
      } else if (identity.isPresent()) {
        ElementIdentity id = identity.get();
        MergedNode current = target.find(id);
        MergedNode result = merge(current, item, JcascPath.element(path, id.display()), id.wrapperKeyId());
        if (current == null) {
          target.add(result);
        } else if (result != current) {
          target.replace(current, result);
        } else {
          target.reindex(current);
        }
      } else {
        MergedNode element = fresh(item, JcascPath.element(path, String.valueOf(target.size())), null);
        if (target.findEqual(element) == null) {
          target.add(element);
        }
      }
    }
  }

  private void removeElement(ListNode target, YamlValue item, Optional<ElementIdentity> identity, String path) {
    MergedNode victim = identity.isPresent()
        ? target.find(identity.get())
        : target.findEqual(fresh(item, JcascPath.element(path, String.valueOf(target.size())), null));
    if (victim == null) {
      return;
    }
    String elementPath = JcascPath.element(path,
        identity.map(ElementIdentity::display).orElse(String.valueOf(target.indexOf(victim))));
    target.remove(victim);
    removed(elementPath, victim, item);
  }

  private void removed(String path, MergedNode previous, YamlValue directive) {
    List<Explanation.Overridden> overrode = new ArrayList<>(previous.history());
    overrode.add(new Explanation.Overridden(previous.origin(), JcascWriter.display(previous)));
    removals.add(new Removal(path, origin(directive), overrode));
    recordOverrides(path, previous);
  }

  /** One override for each other input that contributed to a value replaced or removed as a whole. */
  private void recordOverrides(String path, MergedNode previous) {
    Map<String, String> contributors = new LinkedHashMap<>();
    collectContributors(previous, contributors);
    contributors.forEach((key, index) -> {
      if (!key.equals(source.index() + "\n" + source.label())) {
        overrides.add(new BundleLock.Override(path, source.index(), index));
      }
    });
  }

  private static void collectContributors(MergedNode node, Map<String, String> into) {
    if (node.origin() != null) {
      into.putIfAbsent(node.origin().index() + "\n" + node.origin().input(), node.origin().index());
    }
    if (node instanceof MapNode map) {
      map.entries().forEach(entry -> collectContributors(entry.value(), into));
    } else if (node instanceof ListNode list) {
      list.items().forEach(item -> collectContributors(item, into));
    }
  }

  private Origin origin(YamlValue value) {
    return source.at(file, value.line());
  }

  static String shape(YamlValue value) {
    return value instanceof Mapping ? "mapping" : value instanceof Sequence ? "list" : "scalar";
  }

  static String shape(MergedNode node) {
    return node instanceof MapNode ? "mapping" : node instanceof ListNode ? "list" : "scalar";
  }
}

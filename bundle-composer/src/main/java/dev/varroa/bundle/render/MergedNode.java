package dev.varroa.bundle.render;

import dev.varroa.bundle.render.Explanation.Overridden;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A node of the merged JCasC: its value, where it was written and what it replaced. Mutable while
 * {@link JcascMerger} works; read-only once the render returns.
 */
abstract sealed class MergedNode permits MergedNode.MapNode, MergedNode.ListNode, MergedNode.ScalarNode {
  private final Origin origin;
  private final List<Overridden> history = new ArrayList<>();

  MergedNode(Origin origin) {
    this.origin = origin;
  }

  Origin origin() {
    return origin;
  }

  /** The values this node replaced, oldest first. */
  List<Overridden> history() {
    return Collections.unmodifiableList(history);
  }

  /** Takes over the history of the node this one replaces, then records that node itself. */
  void inherit(MergedNode replaced, String replacedValue) {
    history.addAll(replaced.history);
    history.add(new Overridden(replaced.origin, replacedValue));
  }

  /** Equal as Jenkins sees the value: mappings ignore key order, lists keep it, scalars compare by meaning. */
  abstract boolean sameValue(MergedNode other);

  /** A hash consistent with {@link #sameValue}. */
  abstract int valueHash();

  /** A mapping, keys in first-seen order. */
  static final class MapNode extends MergedNode {
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

    /** A key as first written, and its current value. */
    record Entry(Scalar key, MergedNode value) {}

    MapNode(Origin origin) {
      super(origin);
    }

    MergedNode get(String keyId) {
      Entry entry = entries.get(keyId);
      return entry == null ? null : entry.value();
    }

    /** Sets a key's value; an existing key keeps its position and its first spelling. */
    void put(Scalar key, MergedNode value) {
      Entry earlier = entries.get(key.equalityKey());
      entries.put(key.equalityKey(), new Entry(earlier == null ? key : earlier.key(), value));
    }

    void remove(String keyId) {
      entries.remove(keyId);
    }

    Collection<Entry> entries() {
      return Collections.unmodifiableCollection(entries.values());
    }

    boolean isEmpty() {
      return entries.isEmpty();
    }

    @Override
    boolean sameValue(MergedNode other) {
      if (!(other instanceof MapNode map) || map.entries.size() != entries.size()) {
        return false;
      }
      for (Map.Entry<String, Entry> entry : entries.entrySet()) {
        MergedNode theirs = map.get(entry.getKey());
        if (theirs == null || !entry.getValue().value().sameValue(theirs)) {
          return false;
        }
      }
      return true;
    }

    @Override
    int valueHash() {
      int hash = 7;
      for (Map.Entry<String, Entry> entry : entries.entrySet()) {
        hash += entry.getKey().hashCode() ^ entry.getValue().value().valueHash();
      }
      return hash;
    }
  }

  /**
   * A list. Elements with an identity are indexed by it; elements without one by value, so merging
   * and dropping duplicates stay linear in the list's size.
   */
  static final class ListNode extends MergedNode {
    private final List<MergedNode> items = new ArrayList<>();
    private final Map<String, MergedNode> byIdentity = new HashMap<>();
    private final Map<MergedNode, String> identityOf = new IdentityHashMap<>();
    private final Map<Integer, List<MergedNode>> anonymousByHash = new HashMap<>();

    ListNode(Origin origin) {
      super(origin);
    }

    List<MergedNode> items() {
      return Collections.unmodifiableList(items);
    }

    int size() {
      return items.size();
    }

    MergedNode find(ElementIdentity identity) {
      return byIdentity.get(identity.display());
    }

    /** An element without identity that has the candidate's value; null when none. */
    MergedNode findEqual(MergedNode candidate) {
      for (MergedNode element : anonymousByHash.getOrDefault(candidate.valueHash(), List.of())) {
        if (element.sameValue(candidate)) {
          return element;
        }
      }
      return null;
    }

    int indexOf(MergedNode element) {
      for (int i = 0; i < items.size(); i++) {
        if (items.get(i) == element) {
          return i;
        }
      }
      return -1;
    }

    void add(MergedNode element) {
      items.add(element);
      register(element);
    }

    /** Puts {@code fresh} where {@code old} was. */
    void replace(MergedNode old, MergedNode fresh) {
      items.set(indexOf(old), fresh);
      unregister(old);
      register(fresh);
    }

    void remove(MergedNode element) {
      items.remove(indexOf(element));
      unregister(element);
    }

    /** Re-reads an element's identity after a merge changed it. */
    void reindex(MergedNode element) {
      unregister(element);
      register(element);
    }

    private void register(MergedNode element) {
      ElementIdentity.of(element).ifPresentOrElse(identity -> {
        byIdentity.putIfAbsent(identity.display(), element);
        identityOf.put(element, identity.display());
      }, () -> anonymousByHash.computeIfAbsent(element.valueHash(), h -> new ArrayList<>()).add(element));
    }

    private void unregister(MergedNode element) {
      String identity = identityOf.remove(element);
      if (identity != null) {
        byIdentity.remove(identity, element);
        return;
      }
      List<MergedNode> bucket = anonymousByHash.get(element.valueHash());
      if (bucket != null) {
        bucket.removeIf(candidate -> candidate == element);
      }
    }

    @Override
    boolean sameValue(MergedNode other) {
      if (!(other instanceof ListNode list) || list.items.size() != items.size()) {
        return false;
      }
      for (int i = 0; i < items.size(); i++) {
        if (!items.get(i).sameValue(list.items.get(i))) {
          return false;
        }
      }
      return true;
    }

    @Override
    int valueHash() {
      int hash = 11;
      for (MergedNode item : items) {
        hash = 31 * hash + item.valueHash();
      }
      return hash;
    }
  }

  /** A scalar as written. */
  static final class ScalarNode extends MergedNode {
    private final Scalar value;

    ScalarNode(Scalar value, Origin origin) {
      super(origin);
      this.value = Objects.requireNonNull(value);
    }

    Scalar value() {
      return value;
    }

    @Override
    boolean sameValue(MergedNode other) {
      return other instanceof ScalarNode scalar && scalar.value.equalityKey().equals(value.equalityKey());
    }

    @Override
    int valueHash() {
      return value.equalityKey().hashCode();
    }
  }
}

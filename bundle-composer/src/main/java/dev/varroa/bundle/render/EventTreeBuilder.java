package dev.varroa.bundle.render;

import dev.varroa.bundle.render.YamlValue.Entry;
import dev.varroa.bundle.render.YamlValue.MergeTag;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.common.Anchor;
import org.snakeyaml.engine.v2.events.AliasEvent;
import org.snakeyaml.engine.v2.events.CollectionStartEvent;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;

/**
 * Builds a {@link YamlValue} tree from parser events with an explicit stack (no recursion), counting
 * nesting depth, aliases and expanded size as it goes so a hostile document stops early.
 */
final class EventTreeBuilder {
  private static final String CORE = "tag:yaml.org,2002:";
  private static final Set<String> TYPED_SCALAR_TAGS = Set.of(
      CORE + "int", CORE + "float", CORE + "bool", CORE + "null", CORE + "timestamp", CORE + "binary");
  private static final String MERGE_KEY = "<<";

  private final Deque<Frame> open = new ArrayDeque<>();
  private final Map<String, Anchored> anchors = new HashMap<>();
  private final Set<String> openAnchors = new HashSet<>();
  private int aliasesForCollections;
  private long expandedNodes;
  private YamlValue root;

  Optional<YamlValue> root() {
    return Optional.ofNullable(root);
  }

  void accept(Event event) throws YamlReadException {
    int line = YamlReader.line(event.getStartMark());
    switch (event.getEventId()) {
      case MappingStart -> start((CollectionStartEvent) event, true, line);
      case SequenceStart -> start((CollectionStartEvent) event, false, line);
      case MappingEnd, SequenceEnd -> end();
      case Scalar -> {
        ScalarEvent scalar = (ScalarEvent) event;
        count(1, line);
        YamlValue value = scalar(scalar, line);
        scalar.getAnchor().ifPresent(anchor -> anchors.put(anchor.getValue(), new Anchored(value, 1)));
        add(value);
      }
      case Alias -> alias(((AliasEvent) event).getAlias().getValue(), line);
      default -> throw new IllegalArgumentException("not a node event: " + event.getEventId());
    }
  }

  private void start(CollectionStartEvent event, boolean mapping, int line) throws YamlReadException {
    if (open.size() >= YamlReader.MAX_NESTING_DEPTH) {
      throw new YamlReadException(line, "mappings and lists are nested more than " + YamlReader.MAX_NESTING_DEPTH
          + " levels deep", "flatten the structure; JCasC never needs this depth");
    }
    count(1, line);
    MergeTag tag = collectionTag(event.getTag(), mapping, line);
    Optional<String> anchor = event.getAnchor().map(Anchor::getValue);
    anchor.ifPresent(openAnchors::add);
    open.push(new Frame(mapping, anchor, tag, line, expandedNodes - 1));
  }

  private void end() throws YamlReadException {
    Frame frame = open.pop();
    YamlValue value = frame.mapping
        ? new YamlValue.Mapping(withMergeKeys(frame.entries, frame.line), frame.tag, frame.line)
        : new YamlValue.Sequence(frame.items, frame.tag, frame.line);
    if (frame.anchor.isPresent()) {
      openAnchors.remove(frame.anchor.get());
      anchors.put(frame.anchor.get(), new Anchored(value, expandedNodes - frame.expandedAtStart));
    }
    add(value);
  }

  private void alias(String name, int line) throws YamlReadException {
    if (openAnchors.contains(name)) {
      throw new YamlReadException(line, "the alias *" + name + " refers to the node that contains it",
          "remove the recursive alias; a recursive structure cannot be rendered");
    }
    Anchored target = anchors.get(name);
    if (target == null) {
      throw new YamlReadException(line, "the alias *" + name + " has no anchor &" + name + " before it",
          "define &" + name + " before using *" + name);
    }
    if (!(target.value instanceof Scalar) && ++aliasesForCollections > YamlReader.MAX_ALIASES_FOR_COLLECTIONS) {
      throw new YamlReadException(line, "more than " + YamlReader.MAX_ALIASES_FOR_COLLECTIONS
          + " aliases to mappings or lists", "write the values out instead of aliasing them this often");
    }
    count(target.expandedSize, line);
    add(target.value);
  }

  private void add(YamlValue value) throws YamlReadException {
    Frame parent = open.peek();
    if (parent == null) {
      root = value;
    } else if (!parent.mapping) {
      parent.items.add(value);
    } else if (parent.pendingKey == null) {
      if (!(value instanceof Scalar key)) {
        throw new YamlReadException(value.line(), "a mapping key is a mapping or a list",
            "use a plain string as the key");
      }
      if (key.tag() != MergeTag.NONE) {
        throw new YamlReadException(key.line(), "a key carries the tag " + tagName(key.tag()),
            "put the tag on the value: `key: " + tagName(key.tag()) + " ...`");
      }
      Integer earlier = parent.keyLines.putIfAbsent(key.equalityKey(), key.line());
      if (earlier != null) {
        throw new YamlReadException(key.line(), "the key '" + key.text() + "' appears twice in one mapping (lines "
            + earlier + " and " + key.line() + ")", "keep one of the two entries");
      }
      parent.pendingKey = key;
    } else {
      parent.entries.add(new Entry(parent.pendingKey, value));
      parent.pendingKey = null;
    }
  }

  private void count(long nodes, int line) throws YamlReadException {
    expandedNodes += nodes;
    if (expandedNodes > YamlReader.MAX_EXPANDED_NODES) {
      throw new YamlReadException(line, "the document expands to more than " + YamlReader.MAX_EXPANDED_NODES
          + " nodes", "split the file, or alias less: every alias counts as a full copy");
    }
  }

  private static YamlValue scalar(ScalarEvent event, int line) throws YamlReadException {
    Scalar.Kind byStyle = event.isPlain() ? Scalar.Kind.PLAIN : Scalar.Kind.STRING;
    if (event.getTag().isEmpty()) {
      return new Scalar(event.getValue(), byStyle, null, MergeTag.NONE, line);
    }
    String tag = event.getTag().get();
    return switch (tag) {
      case "!replace" -> new Scalar(event.getValue(), byStyle, null, MergeTag.REPLACE, line);
      case "!remove" -> new Scalar(event.getValue(), byStyle, null, MergeTag.REMOVE, line);
      case "!", CORE + "str" -> new Scalar(event.getValue(), Scalar.Kind.STRING, null, MergeTag.NONE, line);
      default -> {
        if (!TYPED_SCALAR_TAGS.contains(tag)) {
          throw unsupportedTag(tag, line);
        }
        yield new Scalar(event.getValue(), Scalar.Kind.TAGGED, tag, MergeTag.NONE, line);
      }
    };
  }

  private static MergeTag collectionTag(Optional<String> tag, boolean mapping, int line) throws YamlReadException {
    if (tag.isEmpty() || tag.get().equals(CORE + (mapping ? "map" : "seq"))) {
      return MergeTag.NONE;
    }
    return switch (tag.get()) {
      case "!replace" -> MergeTag.REPLACE;
      case "!remove" -> MergeTag.REMOVE;
      default -> throw unsupportedTag(tag.get(), line);
    };
  }

  private static YamlReadException unsupportedTag(String tag, int line) {
    String shown = tag.startsWith(CORE) ? "!!" + tag.substring(CORE.length()) : tag;
    return new YamlReadException(line, "the tag " + shown + " is not supported",
        "remove it; bundles understand !replace and !remove, and the YAML core tags");
  }

  private static String tagName(MergeTag tag) {
    return tag == MergeTag.REPLACE ? "!replace" : "!remove";
  }

  /** Resolves YAML merge keys ({@code <<: *defaults}): explicit keys win, earlier merged maps win over later. */
  private static List<Entry> withMergeKeys(List<Entry> entries, int line) throws YamlReadException {
    if (entries.stream().noneMatch(EventTreeBuilder::isMergeKey)) {
      return entries;
    }
    Set<String> present = new HashSet<>();
    entries.stream().filter(e -> !isMergeKey(e)).forEach(e -> present.add(e.key().equalityKey()));
    List<Entry> result = new ArrayList<>();
    for (Entry entry : entries) {
      if (!isMergeKey(entry)) {
        result.add(entry);
        continue;
      }
      List<YamlValue> sources = entry.value() instanceof YamlValue.Sequence s ? s.items() : List.of(entry.value());
      for (YamlValue source : sources) {
        if (!(source instanceof YamlValue.Mapping merged)) {
          throw new YamlReadException(entry.key().line() > 0 ? entry.key().line() : line,
              "the merge key << takes a mapping or a list of mappings", "point << at an anchored mapping");
        }
        for (Entry inherited : merged.entries()) {
          if (present.add(inherited.key().equalityKey())) {
            result.add(inherited);
          }
        }
      }
    }
    return result;
  }

  private static boolean isMergeKey(Entry entry) {
    return entry.key().kind() == Scalar.Kind.PLAIN && entry.key().text().equals(MERGE_KEY);
  }

  private record Anchored(YamlValue value, long expandedSize) {}

  /** A mapping or sequence whose end event has not arrived yet. */
  private static final class Frame {
    final boolean mapping;
    final Optional<String> anchor;
    final MergeTag tag;
    final int line;
    final long expandedAtStart;
    final List<Entry> entries = new ArrayList<>();
    final Map<String, Integer> keyLines = new HashMap<>();
    final List<YamlValue> items = new ArrayList<>();
    Scalar pendingKey;

    Frame(boolean mapping, Optional<String> anchor, MergeTag tag, int line, long expandedAtStart) {
      this.mapping = mapping;
      this.anchor = anchor;
      this.tag = tag;
      this.line = line;
      this.expandedAtStart = expandedAtStart;
    }
  }
}

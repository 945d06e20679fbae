package dev.varroa.bundle.render;

import java.util.List;

/**
 * One YAML node as a bundle file wrote it, after anchors, aliases and merge keys were resolved:
 * immutable, with the merge directive it carried and its line (1-based) for messages.
 */
sealed interface YamlValue permits YamlValue.Mapping, YamlValue.Sequence, YamlValue.Scalar {

  MergeTag tag();

  int line();

  /** What a tag on a value asks the merge to do. */
  enum MergeTag {
    NONE,
    /** {@code !replace}: replace whatever was there, no merge. */
    REPLACE,
    /** {@code !remove}: remove the key (or list element) from what came before. */
    REMOVE
  }

  /** A mapping, its entries in the order written. */
  record Mapping(List<Entry> entries, MergeTag tag, int line) implements YamlValue {
    public Mapping {
      entries = List.copyOf(entries);
    }

    /** The value under a key, matched as YAML compares keys; null when absent. */
    YamlValue get(String plainKey) {
      String wanted = Scalar.plain(plainKey, 0).equalityKey();
      for (Entry entry : entries) {
        if (entry.key().equalityKey().equals(wanted)) {
          return entry.value();
        }
      }
      return null;
    }
  }

  /** One key and its value. */
  record Entry(Scalar key, YamlValue value) {}

  /** A sequence, its items in the order written. */
  record Sequence(List<YamlValue> items, MergeTag tag, int line) implements YamlValue {
    public Sequence {
      items = List.copyOf(items);
    }
  }

  /**
   * A scalar kept as written, so the rendered file says what the author wrote ({@code 1.10} stays
   * {@code 1.10}, {@code "10"} stays a string).
   *
   * @param text the scalar's content
   * @param kind how its type is decided
   * @param coreTag the explicit core tag (e.g. {@code tag:yaml.org,2002:int}) when kind is TAGGED, else null
   */
  record Scalar(String text, Kind kind, String coreTag, MergeTag tag, int line) implements YamlValue {
    /** How a reader decides the scalar's type. */
    enum Kind {
      /** Plain and untagged: the YAML resolver decides (number, boolean, null or string). */
      PLAIN,
      /** Quoted, a block scalar, or tagged {@code !!str} / {@code !}: always a string. */
      STRING,
      /** An explicit core tag other than {@code !!str}, kept in the output. */
      TAGGED
    }

    static Scalar plain(String text, int line) {
      return new Scalar(text, Kind.PLAIN, null, MergeTag.NONE, line);
    }

    /** True when a YAML 1.1 reader (Jenkins) takes this scalar as null. */
    boolean isNull() {
      return kind == Kind.PLAIN && ImplicitTypes.isNull(text);
    }

    /** True when a reader takes this scalar as a string. */
    boolean isString() {
      return kind == Kind.STRING || (kind == Kind.PLAIN && !ImplicitTypes.isTyped(text));
    }

    /** Two scalars with the same key mean the same value to Jenkins. */
    String equalityKey() {
      if (kind == Kind.TAGGED) {
        return coreTag + ":" + text;
      }
      if (isString()) {
        return "str:" + text;
      }
      return ImplicitTypes.canonical(text);
    }

    Scalar withoutTag() {
      return tag == MergeTag.NONE ? this : new Scalar(text, kind, coreTag, MergeTag.NONE, line);
    }
  }
}

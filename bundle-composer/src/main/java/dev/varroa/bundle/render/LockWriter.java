package dev.varroa.bundle.render;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.ObjIntConsumer;

/**
 * Writes {@code bundle.lock.json} byte-stable: fields in the order of BUNDLES.md §5, 2-space indent,
 * {@code "key": value}, empty arrays and objects as {@code []} and {@code {}}, UTF-8, final newline.
 * Input indexes are JSON numbers; "profile" is a string.
 */
final class LockWriter {
  private static final String INDENT = "  ";

  private final StringBuilder out = new StringBuilder();

  private LockWriter() {}

  static byte[] write(BundleLock lock) {
    LockWriter w = new LockWriter();
    w.object(0, List.of(
        w.field("digest", d -> w.string(lock.digest())),
        w.field("jenkinsVersion", d -> w.string(lock.jenkinsVersion())),
        w.field("inputs", d -> w.array(d, lock.inputs(), w::input)),
        w.field("plugins", d -> w.array(d, lock.plugins(), w::plugin)),
        w.field("variables", d -> w.array(d, lock.variables(), (name, depth) -> w.string(name))),
        w.field("secrets", d -> w.array(d, lock.secrets(), (name, depth) -> w.string(name))),
        w.field("overrides", d -> w.array(d, lock.overrides(), w::override))));
    w.out.append('\n');
    return w.out.toString().getBytes(StandardCharsets.UTF_8);
  }

  private void input(BundleLock.Input input, int depth) {
    object(depth, List.of(
        field("index", d -> out.append(input.index())),
        field("kind", d -> string(input.kind())),
        input.url() != null ? field("url", d -> string(input.url())) : field("name", d -> string(input.name())),
        field("ref", d -> object(d, input.ref().entrySet().stream()
            .map(e -> field(e.getKey(), d2 -> string(e.getValue()))).toList())),
        field("path", d -> string(input.path())),
        field("revision", d -> string(input.revision()))));
  }

  private void plugin(PluginLock plugin, int depth) {
    object(depth, List.of(
        field("id", d -> string(plugin.id())),
        field("version", d -> string(plugin.version())),
        field("source", d -> string(plugin.source().label()))));
  }

  private void override(BundleLock.Override override, int depth) {
    object(depth, List.of(
        field("path", d -> string(override.path())),
        field("winner", d -> inputIndex(override.winner())),
        field("overridden", d -> inputIndex(override.overridden()))));
  }

  /** A field's name and how to write its value at a depth. */
  private record Field(String name, IntConsumer value) {}

  private Field field(String name, IntConsumer value) {
    return new Field(name, value);
  }

  private void object(int depth, List<Field> fields) {
    if (fields.isEmpty()) {
      out.append("{}");
      return;
    }
    out.append("{\n");
    for (int i = 0; i < fields.size(); i++) {
      out.append(INDENT.repeat(depth + 1));
      string(fields.get(i).name());
      out.append(": ");
      fields.get(i).value().accept(depth + 1);
      out.append(i < fields.size() - 1 ? ",\n" : "\n");
    }
    out.append(INDENT.repeat(depth)).append('}');
  }

  private <T> void array(int depth, List<T> items, ObjIntConsumer<T> item) {
    if (items.isEmpty()) {
      out.append("[]");
      return;
    }
    out.append("[\n");
    for (int i = 0; i < items.size(); i++) {
      out.append(INDENT.repeat(depth + 1));
      item.accept(items.get(i), depth + 1);
      out.append(i < items.size() - 1 ? ",\n" : "\n");
    }
    out.append(INDENT.repeat(depth)).append(']');
  }

  /** An input index as a number; "profile" (or anything not a number) as a string. */
  private void inputIndex(String index) {
    if (index != null && index.matches("[0-9]{1,9}")) {
      out.append(Integer.parseInt(index));
    } else {
      string(index);
    }
  }

  private void string(String value) {
    if (value == null) {
      out.append("null");
      return;
    }
    out.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> out.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    out.append('"');
  }
}

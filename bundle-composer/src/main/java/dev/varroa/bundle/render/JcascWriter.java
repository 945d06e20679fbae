package dev.varroa.bundle.render;

import dev.varroa.bundle.render.MergedNode.ListNode;
import dev.varroa.bundle.render.MergedNode.MapNode;
import dev.varroa.bundle.render.MergedNode.ScalarNode;
import dev.varroa.bundle.render.YamlValue.Scalar;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.StreamDataWriter;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.emitter.Emitter;
import org.snakeyaml.engine.v2.events.DocumentEndEvent;
import org.snakeyaml.engine.v2.events.DocumentStartEvent;
import org.snakeyaml.engine.v2.events.ImplicitTuple;
import org.snakeyaml.engine.v2.events.MappingEndEvent;
import org.snakeyaml.engine.v2.events.MappingStartEvent;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.events.SequenceEndEvent;
import org.snakeyaml.engine.v2.events.SequenceStartEvent;
import org.snakeyaml.engine.v2.events.StreamEndEvent;
import org.snakeyaml.engine.v2.events.StreamStartEvent;

/**
 * Writes the merged JCasC as one YAML document, byte-stable: block style, 2-space indent with list
 * dashes indented under their key, no line folding, UTF-8, "\n" line ends, one final newline, no
 * tags (an empty document is {@code {}}). Scalars keep their written text; a string that a YAML 1.1
 * reader would take for a number, boolean or null is quoted.
 */
final class JcascWriter {
  private static final DumpSettings SETTINGS = DumpSettings.builder()
      .setDefaultFlowStyle(FlowStyle.BLOCK)
      .setIndent(2)
      .setIndicatorIndent(2)
      .setIndentWithIndicator(true)
      .setWidth(Integer.MAX_VALUE)
      .setSplitLines(false)
      .setUseUnicodeEncoding(true)
      .setBestLineBreak("\n")
      .setExplicitStart(false)
      .setExplicitEnd(false)
      .build();

  private JcascWriter() {}

  static byte[] write(MapNode root) {
    return text(root).getBytes(StandardCharsets.UTF_8);
  }

  /** How explain and override histories show a value: a scalar's text, or the YAML of a collection. */
  static String display(MergedNode node) {
    if (node instanceof ScalarNode scalar) {
      return scalar.value().text();
    }
    String yaml = text(node);
    return yaml.endsWith("\n") ? yaml.substring(0, yaml.length() - 1) : yaml;
  }

  static String text(MergedNode node) {
    StringBuilder out = new StringBuilder();
    Emitter emitter = new Emitter(SETTINGS, new StreamDataWriter() {
      @Override
      public void write(String str) {
        out.append(str);
      }

      @Override
      public void write(String str, int off, int len) {
        out.append(str, off, off + len);
      }
    });
    emitter.emit(new StreamStartEvent());
    emitter.emit(new DocumentStartEvent(false, Optional.empty(), Map.of()));
    emit(emitter, node);
    emitter.emit(new DocumentEndEvent(false));
    emitter.emit(new StreamEndEvent());
    return out.toString();
  }

  private static void emit(Emitter emitter, MergedNode node) {
    if (node instanceof MapNode map) {
      emitter.emit(new MappingStartEvent(Optional.empty(), Optional.empty(), true, FlowStyle.BLOCK));
      for (MapNode.Entry entry : map.entries()) {
        emitter.emit(scalar(entry.key()));
        emit(emitter, entry.value());
      }
      emitter.emit(new MappingEndEvent());
    } else if (node instanceof ListNode list) {
      emitter.emit(new SequenceStartEvent(Optional.empty(), Optional.empty(), true, FlowStyle.BLOCK));
      for (MergedNode item : list.items()) {
        emit(emitter, item);
      }
      emitter.emit(new SequenceEndEvent());
    } else {
      emitter.emit(scalar(((ScalarNode) node).value()));
    }
  }

  static ScalarEvent scalar(Scalar scalar) {
    String text = scalar.text();
    if (scalar.kind() == Scalar.Kind.TAGGED) {
      return new ScalarEvent(Optional.empty(), Optional.of(scalar.coreTag()), new ImplicitTuple(false, false), text,
          ScalarStyle.PLAIN);
    }
    if (!scalar.isString()) {
      // A number, boolean or null stays plain, exactly as written.
      return new ScalarEvent(Optional.empty(), Optional.empty(), new ImplicitTuple(true, false), text,
          ScalarStyle.PLAIN);
    }
    boolean plainIsString = !ImplicitTypes.isTyped(text);
    ScalarStyle style = text.indexOf('\n') >= 0 ? ScalarStyle.LITERAL : ScalarStyle.PLAIN;
    return new ScalarEvent(Optional.empty(), Optional.empty(), new ImplicitTuple(plainIsString, true), text, style);
  }
}

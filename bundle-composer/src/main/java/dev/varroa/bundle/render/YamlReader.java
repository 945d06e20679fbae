package dev.varroa.bundle.render;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.ReaderException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads one YAML document from a bundle file within fixed bounds, so a malformed or hostile file
 * gives a located error instead of a hang or an out-of-memory. It reads the parser's event stream
 * itself (no composer, no constructor): no class is ever instantiated from a tag, and nesting,
 * aliases and the expanded size are counted as the events arrive.
 */
final class YamlReader {
  /** Largest file read: docs/bundles.md, "one file (4 MiB)". */
  static final int MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
  /** Most aliases to a mapping or sequence in one document (the alias-bomb guard). */
  static final int MAX_ALIASES_FOR_COLLECTIONS = 50;
  /** Deepest nesting of mappings and sequences. */
  static final int MAX_NESTING_DEPTH = 64;
  /** Most nodes in one document once aliases are expanded. */
  static final int MAX_EXPANDED_NODES = 250_000;

  private static final LoadSettings SETTINGS = LoadSettings.builder()
      .setCodePointLimit(MAX_DOCUMENT_BYTES)
      .setMaxAliasesForCollections(MAX_ALIASES_FOR_COLLECTIONS)
      .setAllowDuplicateKeys(false)
      .setAllowRecursiveKeys(false)
      .setParseComments(false)
      .setUseMarks(true)
      .build();

  private YamlReader() {}

  /**
   * Parsed documents by the identity of their bytes: the composer hands the same arrays to every
   * render of an unchanged input, so a re-render merges without parsing again. Weak keys let a
   * replaced input's trees go; the trees are immutable.
   */
  private static final Map<byte[], Optional<YamlValue>> PARSED = Collections.synchronizedMap(new WeakHashMap<>());

  /** The document's root; empty for a file with no document or only a null. */
  static Optional<YamlValue> read(byte[] bytes) throws YamlReadException {
    Optional<YamlValue> parsed = PARSED.get(bytes);
    if (parsed == null) {
      parsed = parse(bytes);
      PARSED.put(bytes, parsed);
    }
    return parsed;
  }

  private static Optional<YamlValue> parse(byte[] bytes) throws YamlReadException {
    if (bytes.length > MAX_DOCUMENT_BYTES) {
      throw new YamlReadException(0, "the file is " + bytes.length + " bytes, more than the limit of "
          + MAX_DOCUMENT_BYTES + " bytes", "split it into smaller files");
    }
    String text = decode(bytes);
    EventTreeBuilder tree = new EventTreeBuilder();
    int documents = 0;
    try {
      Iterator<Event> events = new Parse(SETTINGS).parseString(text).iterator();
      while (events.hasNext()) {
        Event event = events.next();
        switch (event.getEventId()) {
          case DocumentStart -> {
            if (++documents > 1) {
              throw new YamlReadException(line(event.getStartMark()), "the file holds more than one YAML document",
                  "keep one document per file: move each document after '---' into a file of its own");
            }
          }
          case StreamStart, StreamEnd, DocumentEnd, Comment -> { }
          default -> tree.accept(event);
        }
      }
    } catch (MarkedYamlEngineException e) {
      Optional<Mark> mark = e.getProblemMark().isPresent() ? e.getProblemMark() : e.getContextMark();
      String context = e.getContext() == null ? "" : e.getContext() + ": ";
      throw new YamlReadException(line(mark), "not valid YAML: " + context + e.getProblem(),
          "correct the YAML syntax at that line");
    } catch (ReaderException e) {
      throw new YamlReadException(lineOfCodePoint(text, e.getPosition()),
          "not valid YAML: the character U+" + Integer.toHexString(e.getCodePoint()).toUpperCase() + " is not allowed",
          "remove the character or escape it inside a double-quoted string");
    } catch (YamlEngineException e) {
      throw new YamlReadException(0, "not valid YAML: " + e.getMessage(), "correct the YAML syntax");
    }
    return tree.root().filter(root -> !(root instanceof YamlValue.Scalar s && s.isNull()
        && s.tag() == YamlValue.MergeTag.NONE));
  }

  private static String decode(byte[] bytes) throws YamlReadException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult result = decoder.decode(in, out, true);
    if (result.isError()) {
      int line = 1;
      for (int i = 0; i < in.position(); i++) {
        line += bytes[i] == '\n' ? 1 : 0;
      }
      throw new YamlReadException(line, "the file is not UTF-8 (byte " + in.position() + ")",
          "save the file as UTF-8");
    }
    decoder.flush(out);
    out.flip();
    String text = out.toString();
    // A UTF-8 byte order mark is allowed and not part of the document.
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  static int line(Optional<Mark> mark) {
    return mark.map(m -> m.getLine() + 1).orElse(0);
  }

  private static int lineOfCodePoint(String text, int codePointIndex) {
    int line = 1;
    int offset = 0;
    for (int i = 0; i < codePointIndex && offset < text.length(); i++) {
      int cp = text.codePointAt(offset);
      line += cp == '\n' ? 1 : 0;
      offset += Character.charCount(cp);
    }
    return line;
  }
}

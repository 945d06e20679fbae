package dev.varroa.updatecenter;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes Jenkins signs and verifies an update site over: the form json-lib's
 * {@code JSONObject.writeCanonical} writes, which Jenkins' {@code JSONSignatureValidator} feeds to the
 * digest. No whitespace; object keys sorted by {@link String#compareTo}; keys quoted the way
 * json-lib's {@code JSONUtils.quote} does (short escapes, {@code </} as {@code <\/}); string values
 * with the minimal escaping of {@code JSONUtils.quoteCanonical} (only {@code "}, {@code \} and
 * control characters, the latter as {@code \}{@code u00xx}).
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  public static String write(JsonNode node) {
    StringBuilder out = new StringBuilder();
    write(node, out);
    return out.toString();
  }

  private static void write(JsonNode node, StringBuilder out) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      out.append("null");
    } else if (node.isObject()) {
      TreeMap<String, JsonNode> sorted = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
        Map.Entry<String, JsonNode> field = fields.next();
        sorted.put(field.getKey(), field.getValue());
      }
      out.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> field : sorted.entrySet()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        out.append(quoteKey(field.getKey())).append(':');
        write(field.getValue(), out);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          out.append(',');
        }
        write(node.get(i), out);
      }
      out.append(']');
    } else if (node.isTextual()) {
      out.append(quoteValue(node.textValue()));
    } else if (node.isBoolean()) {
      out.append(node.booleanValue());
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else {
      // json-lib formats fractions its own way (trailing zeros shaved, lower-cased exponent): never sign one.
      throw new IllegalArgumentException("an update site document holds no fractional number, found " + node);
    }
  }

  /** How json-lib quotes an object key. */
  static String quoteKey(String key) {
    StringBuilder out = new StringBuilder(key.length() + 2).append('"');
    char previous = 0;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      switch (c) {
        case '\\', '"' -> out.append('\\').append(c);
        case '/' -> out.append(previous == '<' ? "\\/" : "/");
        case '\b' -> out.append("\\b");
        case '\t' -> out.append("\\t");
        case '\n' -> out.append("\\n");
        case '\f' -> out.append("\\f");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < ' ') {
            out.append(unicodeEscape(c));
          } else {
            out.append(c);
          }
        }
      }
      previous = c;
    }
    return out.append('"').toString();
  }

  /** How json-lib quotes a string value in canonical form. */
  static String quoteValue(String value) {
    StringBuilder out = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\' || c == '"') {
        out.append('\\').append(c);
      } else if (c < ' ') {
        out.append(unicodeEscape(c));
      } else {
        out.append(c);
      }
    }
    return out.append('"').toString();
  }

  private static String unicodeEscape(char c) {
    String hex = Integer.toHexString(c);
    return "\\u" + "0000".substring(hex.length()) + hex;
  }
}

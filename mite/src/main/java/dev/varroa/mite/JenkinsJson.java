package dev.varroa.mite;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jenkins' small JSON answers as plain maps and lists. Streaming jackson-core only: the databind
 * tree model loads some 300 more classes into a sidecar that parses three documents.
 */
final class JenkinsJson {

  private static final JsonFactory FACTORY = new JsonFactory();

  private JenkinsJson() {
  }

  /** A JSON document as Map, List, String, Boolean, Number or null. */
  static Object parse(String json) throws IOException {
    try (JsonParser parser = FACTORY.createParser(json)) {
      if (parser.nextToken() == null) {
        throw new IOException("empty JSON document");
      }
      return value(parser);
    }
  }

  private static Object value(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          object.put(name, value(parser));
        }
        return object;
      }
      case START_ARRAY -> {
        List<Object> array = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(value(parser));
        }
        return array;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return parser.getNumberValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      case VALUE_NULL -> {
        return null;
      }
      default -> throw new IOException("unexpected JSON token " + token);
    }
  }

  /** The member {@code name} of an object, or null. */
  static Object field(Object object, String name) {
    return object instanceof Map<?, ?> map ? map.get(name) : null;
  }

  /** The elements of an array, or none. */
  static List<?> elements(Object array) {
    return array instanceof List<?> list ? list : List.of();
  }

  static String text(Object value) {
    return value instanceof String s ? s : "";
  }
}

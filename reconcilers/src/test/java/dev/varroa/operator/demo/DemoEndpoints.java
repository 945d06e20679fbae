package dev.varroa.operator.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code .demo/endpoints.json}: every endpoint the local run started, so a person or a script can use the running
 * system without reading its output. Written again each time an endpoint is added; keys stay in the order added.
 */
final class DemoEndpoints {

  static final String FILE_NAME = "endpoints.json";

  private final Path file;
  private final Map<String, Object> endpoints = new LinkedHashMap<>();

  DemoEndpoints(Path demoDirectory) {
    this.file = demoDirectory.resolve(FILE_NAME);
  }

  Path file() {
    return file;
  }

  /** A nested object whose keys keep the order given: name, value, name, value, ... */
  static Map<String, String> object(String... namesAndValues) {
    Map<String, String> object = new LinkedHashMap<>();
    for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
      object.put(namesAndValues[i], namesAndValues[i + 1]);
    }
    return object;
  }

  DemoEndpoints put(String name, Object value) throws IOException {
    endpoints.put(name, value);
    Path partial = file.resolveSibling(FILE_NAME + ".partial");
    Files.createDirectories(file.getParent());
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(partial.toFile(), endpoints);
    // a reader never sees half a file
    Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
        java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    return this;
  }
}

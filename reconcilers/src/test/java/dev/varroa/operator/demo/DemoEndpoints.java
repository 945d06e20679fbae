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
 * system without reading its output. One flat object of snake_case keys, each a string; written again each time an
 * endpoint is added, keys in the order added.
 */
public final class DemoEndpoints {

  public static final String FILE_NAME = "endpoints.json";

  private final Path file;
  private final Map<String, String> endpoints = new LinkedHashMap<>();

  public DemoEndpoints(Path demoDirectory) {
    this.file = demoDirectory.resolve(FILE_NAME);
  }

  public Path file() {
    return file;
  }

  public DemoEndpoints put(String name, String value) throws IOException {
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

package dev.varroa.operator.updatecenter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a running update center's {@code GET /status.json}: {@code held} ({@code id}, {@code version}),
 * {@code missing} ({@code id}, {@code version}, {@code reason}).
 */
public class UpdateCenterStatusReader {
  static final Duration TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  /**
   * @throws IOException with what went wrong, for the Ready condition's message
   */
  public UpdateCenterReport read(URI statusUrl) throws IOException {
    HttpResponse<byte[]> response;
    try {
      response = http.send(HttpRequest.newBuilder(statusUrl).timeout(TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + statusUrl, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(statusUrl + " answered HTTP " + response.statusCode());
    }
    JsonNode root = JSON.readTree(response.body());
    if (root == null || !root.path("held").isArray()) {
      throw new IOException(statusUrl + " is not an update center's status (no held list)");
    }
    TreeSet<String> held = new TreeSet<>();
    root.path("held").forEach(p -> held.add(p.path("id").asText() + ":" + p.path("version").asText()));
    TreeMap<String, String> missing = new TreeMap<>();
    root.path("missing").forEach(p -> missing.put(p.path("id").asText() + ":" + p.path("version").asText(),
        p.path("reason").asText()));
    return new UpdateCenterReport(held, missing);
  }
}

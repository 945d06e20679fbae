package dev.varroa.cli.bff;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * GETs on the BFF's read API, and POSTs of actions, with the stored ID token as bearer token; every refusal of a read
 * becomes a {@link BffFailure}.
 */
public final class BffClient {

  static final Duration CONNECT_WAIT = Duration.ofSeconds(10);
  /** A list waits on every cluster (2 s each at the BFF); this leaves room for a slow record store. */
  static final Duration ANSWER_WAIT = Duration.ofSeconds(60);
  static final ObjectMapper JSON = new ObjectMapper();

  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(CONNECT_WAIT)
      .followRedirects(HttpClient.Redirect.NEVER).build();

  private final URI server;
  private final Optional<String> token;

  public BffClient(URI server, Optional<String> token) {
    this.server = server;
    this.token = token;
  }

  public URI server() {
    return server;
  }

  /** A JSON answer; anything but 200 is the server's refusal. */
  public JsonNode json(String path, Map<String, String> query) {
    HttpResponse<String> response = send(request(path, query).timeout(ANSWER_WAIT).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw refusal(response.statusCode(), response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw BffFailure.local(server + path + " answered something that is not JSON: " + e.getMessage()
          + "; is --server the Varroa BFF?");
    }
  }

  /** The status and JSON body of an answer that the caller reads whatever its status (an action's 409). */
  public record Answer(int status, JsonNode body, String raw) {
    public BffFailure failure() {
      return BffFailure.fromServer(status, body != null && body.isObject() ? body : null, raw);
    }
  }

  /** POSTs a JSON body (an action, docs/actions.md); the caller decides what each status means. */
  public Answer post(String path, Object body) {
    String json;
    try {
      json = JSON.writeValueAsString(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot write the request body as JSON", e);
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.toString().replaceAll("/+$", "") + path))
        .timeout(ANSWER_WAIT).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json));
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    HttpResponse<String> response = send(request.build(), HttpResponse.BodyHandlers.ofString());
    JsonNode parsed;
    try {
      parsed = response.body().isBlank() ? null : JSON.readTree(response.body());
    } catch (IOException e) {
      parsed = null;
    }
    return new Answer(response.statusCode(), parsed, response.body());
  }

  /** A byte or event stream; anything but 200 is the server's refusal. */
  public HttpResponse<InputStream> stream(String path, Map<String, String> query, Map<String, String> headers,
      boolean bounded) {
    HttpRequest.Builder request = request(path, query);
    headers.forEach(request::header);
    if (bounded) {
      request.timeout(ANSWER_WAIT);
    }
    HttpResponse<InputStream> response = send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    if (response.statusCode() != 200) {
      String body;
      try (InputStream in = response.body()) {
        body = new String(in.readNBytes(64 * 1024), StandardCharsets.UTF_8);
      } catch (IOException e) {
        body = "";
      }
      throw refusal(response.statusCode(), body);
    }
    return response;
  }

  private HttpRequest.Builder request(String path, Map<String, String> query) {
    StringBuilder uri = new StringBuilder(server.toString().replaceAll("/+$", "")).append(path);
    Map<String, String> present = new LinkedHashMap<>();
    query.forEach((k, v) -> {
      if (v != null) {
        present.put(k, v);
      }
    });
    if (!present.isEmpty()) {
      uri.append('?');
      present.forEach((k, v) -> uri.append(uri.charAt(uri.length() - 1) == '?' ? "" : "&")
          .append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
          .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    }
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(uri.toString())).GET();
    token.ifPresent(t -> request.header("Authorization", "Bearer " + t));
    return request;
  }

  private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return HTTP.send(request, handler);
    } catch (IOException e) {
      throw BffFailure.local("cannot reach the Varroa server at " + server + ": "
          + Optional.ofNullable(e.getMessage()).orElse(e.getClass().getSimpleName())
          + "; check --server and that the BFF is running");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw BffFailure.local("interrupted while waiting for " + server);
    }
  }

  private static BffFailure refusal(int status, String body) {
    JsonNode parsed;
    try {
      parsed = body.isBlank() ? null : JSON.readTree(body);
    } catch (IOException e) {
      parsed = null;
    }
    return BffFailure.fromServer(status, parsed != null && parsed.isObject() ? parsed : null, body);
  }
}

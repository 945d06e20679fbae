package dev.varroa.dashboard.api;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A test's EventSource: reads a text/event-stream into events on its own thread until closed. */
final class SseClient implements AutoCloseable {

  record Event(String id, String name, String data) {}

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  final List<Event> events = new CopyOnWriteArrayList<>();
  final int status;
  private final InputStream body;
  private final Thread reader;
  private volatile boolean ended;

  private SseClient(int status, InputStream body) {
    this.status = status;
    this.body = body;
    this.reader = new Thread(this::read, "test-sse-reader");
    reader.setDaemon(true);
    reader.start();
  }

  static SseClient open(URI uri, String token, String lastEventId) throws IOException, InterruptedException {
    return open(uri, "Authorization", "Bearer " + token, lastEventId);
  }

  /** @param credentialHeader Authorization for a bearer token, Cookie for a browser's session */
  static SseClient open(URI uri, String credentialHeader, String credential, String lastEventId)
      throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).header(credentialHeader, credential)
        .header("Accept", "text/event-stream");
    if (lastEventId != null) {
      request.header("Last-Event-ID", lastEventId);
    }
    HttpResponse<InputStream> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    return new SseClient(response.statusCode(), response.body());
  }

  /** Whether the server ended the response (the reader saw its end). */
  boolean ended() {
    return ended;
  }

  List<Event> named(String name) {
    return events.stream().filter(e -> e.name().equals(name)).toList();
  }

  private void read() {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      String id = null;
      String name = "message";
      StringBuilder data = new StringBuilder();
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isEmpty()) {
          if (data.length() > 0) {
            events.add(new Event(id, name, data.substring(0, data.length() - 1)));
          }
          id = null;
          name = "message";
          data.setLength(0);
        } else if (line.startsWith("id: ")) {
          id = line.substring(4);
        } else if (line.startsWith("event: ")) {
          name = line.substring(7);
        } else if (line.startsWith("data: ")) {
          data.append(line.substring(6)).append('\n');
        }
      }
    } catch (IOException e) {
      // closed by the test or the server
    }
    ended = true;
  }

  @Override
  public void close() throws IOException {
    body.close();
  }
}

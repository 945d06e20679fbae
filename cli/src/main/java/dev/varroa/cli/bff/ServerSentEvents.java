package dev.varroa.cli.bff;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a text/event-stream (the WHATWG "event stream interpretation": event, data, id fields; a blank line
 * dispatches; lines starting with ':' are comments) and hands each event to a listener until it says stop.
 */
public final class ServerSentEvents {

  /** One dispatched event. */
  public record Event(String name, String data, String id) {}

  /** Returns false to stop reading. */
  public interface Listener {
    boolean on(Event event) throws IOException;
  }

  private ServerSentEvents() {}

  /** @return true if the listener stopped the stream, false if the server closed it first */
  public static boolean read(InputStream stream, Listener listener) throws IOException {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String name = "message";
      StringBuilder data = null;
      String id = null;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isEmpty()) {
          if (data != null && !listener.on(new Event(name, data.toString(), id))) {
            return true;
          }
          name = "message";
          data = null;
          continue;
        }
        if (line.startsWith(":")) {
          continue;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
          value = value.substring(1);
        }
        switch (field) {
          case "event" -> name = value;
          case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
          case "id" -> id = value;
          default -> { }
        }
      }
      return false;
    }
  }
}

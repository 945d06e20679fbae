package dev.varroa.operator.hooks;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;

/** A request body read with a bound, for the HTTP receivers anyone on the network can reach. */
public final class BoundedBody {
  private BoundedBody() {}

  /** The body, or null when it is over {@code max} bytes; never more than the bound and one byte is read. */
  public static byte[] read(HttpExchange exchange, int max) throws IOException {
    String length = exchange.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > max) {
          return null;
        }
      } catch (NumberFormatException e) {
        // the server itself refuses a malformed Content-Length before this runs; read bounded regardless
      }
    }
    try (InputStream in = exchange.getRequestBody()) {
      byte[] body = in.readNBytes(max + 1);
      return body.length > max ? null : body;
    }
  }
}

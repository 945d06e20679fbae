package dev.varroa.operator.hibernation;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** What kube-proxy would deliver to the waker: a request whose Host names a Controller's Service. */
final class WakerRequest {
  private WakerRequest() {}

  /** @param headers name, value, name, value, … */
  static String send(int port, String method, String host, String path, byte[] body, String... headers)
      throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
      for (int i = 0; i < headers.length; i += 2) {
        request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      request.append("Content-Length: ").append(body.length).append("\r\nConnection: close\r\n\r\n");
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(body);
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}

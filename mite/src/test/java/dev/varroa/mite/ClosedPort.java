package dev.varroa.mite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;

/** A loopback URL where nothing listens: Jenkins before it starts. */
final class ClosedPort {

  private ClosedPort() {
  }

  static URI jenkinsUrl() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

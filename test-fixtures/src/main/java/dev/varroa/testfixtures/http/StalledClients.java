package dev.varroa.testfixtures.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients that open connections to a listener, send part of a request and then neither finish nor leave: the slow
 * clients of a denial of service. Tests check that the listener still answers others and cuts these off in time.
 */
public final class StalledClients implements AutoCloseable {
  /** A request line and one header, without the blank line that ends the headers. */
  public static final String HALF_HEADERS = "GET /healthz HTTP/1.1\r\nHost: stalled.example\r\n";

  private final List<Socket> sockets;
  private final boolean[] closed;

  private StalledClients(List<Socket> sockets) {
    this.sockets = sockets;
    this.closed = new boolean[sockets.size()];
  }

  /** Opens {@code count} connections to the address and sends {@code partial} on each. */
  public static StalledClients open(InetSocketAddress address, int count, String partial) throws IOException {
    List<Socket> sockets = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Socket socket = new Socket(address.getAddress(), address.getPort());
      socket.getOutputStream().write(partial.getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().flush();
      sockets.add(socket);
    }
    return new StalledClients(sockets);
  }

  /** Opens connections to a loopback port; see {@link #open(InetSocketAddress, int, String)}. */
  public static StalledClients open(int loopbackPort, int count, String partial) throws IOException {
    return open(new InetSocketAddress("127.0.0.1", loopbackPort), count, partial);
  }

  /** Sends more of the request on every connection still open; false when a write failed (the server closed it). */
  public synchronized boolean sendMore(String more) {
    boolean sent = true;
    for (Socket socket : sockets) {
      try {
        socket.getOutputStream().write(more.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
      } catch (IOException e) {
        sent = false;
      }
    }
    return sent;
  }

  /** Whether the server has closed every one of these connections (end of stream or reset on read). */
  public synchronized boolean allClosedByServer() {
    boolean all = true;
    for (int i = 0; i < sockets.size(); i++) {
      if (!closed[i]) {
        closed[i] = closedByServer(sockets.get(i));
        all &= closed[i];
      }
    }
    return all;
  }

  /** How many of these connections the server has closed so far. */
  public synchronized int closedByServer() {
    allClosedByServer();
    int count = 0;
    for (boolean c : closed) {
      count += c ? 1 : 0;
    }
    return count;
  }

  private static boolean closedByServer(Socket socket) {
    try {
      socket.setSoTimeout(20);
      InputStream in = socket.getInputStream();
      while (true) {
        int b = in.read();
        if (b < 0) {
          return true;
        }
        // an error page the server sent before closing: read on to its end
      }
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true;
    }
  }

  /** The status of a GET, or an exception when no answer came within the time: what a kubelet probe sees. */
  public static int statusOf(String url, Duration within) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setConnectTimeout((int) within.toMillis());
    connection.setReadTimeout((int) within.toMillis());
    try {
      return connection.getResponseCode();
    } finally {
      connection.disconnect();
    }
  }

  @Override
  public void close() throws IOException {
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}

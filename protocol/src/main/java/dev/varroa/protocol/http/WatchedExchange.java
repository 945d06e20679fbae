package dev.varroa.protocol.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exchange a handler sees: the server's own, with a deadline on every read from the client, including the reads
 * the server makes of an unread body when the response or the exchange is closed.
 */
final class WatchedExchange extends HttpExchange {
  private static final Logger LOG = LoggerFactory.getLogger(WatchedExchange.class);

  @FunctionalInterface
  interface Read<T> {
    T run() throws IOException;
  }

  private final HttpExchange exchange;
  private final String listener;
  private final ReadDeadlines deadlines;
  private final ListenerLimits limits;
  private InputStream requestBody;
  private OutputStream responseBody;

  WatchedExchange(HttpExchange exchange, String listener, ReadDeadlines deadlines, ListenerLimits limits) {
    this.exchange = exchange;
    this.listener = listener;
    this.deadlines = deadlines;
    this.limits = limits;
  }

  /** Runs a read with a deadline; one that expires closes the connection and ends in a timeout exception. */
  <T> T watched(String phase, Duration limit, Read<T> read) throws IOException {
    ReadDeadlines.Deadline deadline = deadlines.start(limit);
    T result;
    try {
      result = read.run();
    } catch (IOException | RuntimeException e) {
      if (deadline.end()) {
        throw timedOut(phase, limit, e);
      }
      throw e;
    }
    if (deadline.end()) {
      throw timedOut(phase, limit, null);
    }
    return result;
  }

  ClientTimeoutException timedOut(String phase, Duration limit, Exception cause) {
    LOG.warn("event=http_request_timed_out listener={} phase={} limit_ms={} remote={} path={}", listener, phase,
        limit.toMillis(), remoteHost(), exchange.getRequestURI().getRawPath());
    ClientTimeoutException timeout = new ClientTimeoutException(
        "the client did not send the request " + phase + " within " + limit.toMillis() + " ms; connection closed");
    if (cause != null) {
      timeout.initCause(cause);
    }
    return timeout;
  }

  private String remoteHost() {
    InetSocketAddress remote = exchange.getRemoteAddress();
    return remote == null || remote.getAddress() == null ? "" : remote.getAddress().getHostAddress();
  }

  @Override
  public synchronized InputStream getRequestBody() {
    if (requestBody == null) {
      requestBody = new WatchedRequestBody(exchange.getRequestBody(), this, limits);
    }
    return requestBody;
  }

  @Override
  public synchronized OutputStream getResponseBody() {
    if (responseBody == null) {
      responseBody = new ResponseBody(exchange.getResponseBody());
    }
    return responseBody;
  }

  @Override
  public void close() {
    try {
      watched("drain", limits.bodyIdleTime(), () -> {
        exchange.close();
        return 0;
      });
    } catch (IOException e) {
      // close() cannot throw; the timeout is logged and the connection is already closed
    }
  }

  @Override
  public Headers getRequestHeaders() {
    return exchange.getRequestHeaders();
  }

  @Override
  public Headers getResponseHeaders() {
    return exchange.getResponseHeaders();
  }

  @Override
  public URI getRequestURI() {
    return exchange.getRequestURI();
  }

  @Override
  public String getRequestMethod() {
    return exchange.getRequestMethod();
  }

  @Override
  public HttpContext getHttpContext() {
    return exchange.getHttpContext();
  }

  @Override
  public void sendResponseHeaders(int code, long length) throws IOException {
    exchange.sendResponseHeaders(code, length);
  }

  @Override
  public InetSocketAddress getRemoteAddress() {
    return exchange.getRemoteAddress();
  }

  @Override
  public int getResponseCode() {
    return exchange.getResponseCode();
  }

  @Override
  public InetSocketAddress getLocalAddress() {
    return exchange.getLocalAddress();
  }

  @Override
  public String getProtocol() {
    return exchange.getProtocol();
  }

  @Override
  public Object getAttribute(String name) {
    return exchange.getAttribute(name);
  }

  @Override
  public void setAttribute(String name, Object value) {
    exchange.setAttribute(name, value);
  }

  @Override
  public synchronized void setStreams(InputStream in, OutputStream out) {
    exchange.setStreams(in, out);
    if (in != null) {
      requestBody = new WatchedRequestBody(in, this, limits);
    }
    if (out != null) {
      responseBody = new ResponseBody(out);
    }
  }

  @Override
  public HttpPrincipal getPrincipal() {
    return exchange.getPrincipal();
  }

  /** The response body; closing it makes the server read what is left of the request body, so that is watched. */
  private final class ResponseBody extends OutputStream {
    private final OutputStream out;

    private ResponseBody(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      watched("drain", limits.bodyIdleTime(), () -> {
        out.close();
        return 0;
      });
    }
  }
}

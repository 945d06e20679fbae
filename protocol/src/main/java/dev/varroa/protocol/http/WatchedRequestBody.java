package dev.varroa.protocol.http;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;

/** A request body whose every read has a deadline: the next bytes within the idle time, all of them within the body time. */
final class WatchedRequestBody extends InputStream {
  private final InputStream body;
  private final WatchedExchange exchange;
  private final ListenerLimits limits;
  private long firstReadNanos = -1;

  WatchedRequestBody(InputStream body, WatchedExchange exchange, ListenerLimits limits) {
    this.body = body;
    this.exchange = exchange;
    this.limits = limits;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    long now = System.nanoTime();
    if (firstReadNanos < 0) {
      firstReadNanos = now;
    }
    Duration left = limits.bodyTime().minusNanos(now - firstReadNanos);
    if (left.isZero() || left.isNegative()) {
      throw exchange.timedOut("body", limits.bodyTime(), null);
    }
    Duration limit = left.compareTo(limits.bodyIdleTime()) < 0 ? left : limits.bodyIdleTime();
    return exchange.watched("body", limit, () -> body.read(buffer, offset, length));
  }

  @Override
  public int available() throws IOException {
    return body.available();
  }

  @Override
  public void close() throws IOException {
    // the server reads what is left of an unread body before it closes it
    exchange.watched("drain", limits.bodyIdleTime(), () -> {
      body.close();
      return 0;
    });
  }
}

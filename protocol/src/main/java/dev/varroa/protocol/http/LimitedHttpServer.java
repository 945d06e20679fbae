package dev.varroa.protocol.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JDK HTTP server with {@link ListenerLimits}: its own bounded threads, a deadline on the request line and
 * headers, and on every read of a request body. A client that stops sending part-way is cut off after the limit, and
 * holds one of this listener's threads until then, never another listener's. Every HTTP listener of Varroa is one.
 */
public final class LimitedHttpServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LimitedHttpServer.class);
  private static final long REFUSAL_LOG_EVERY_NANOS = TimeUnit.SECONDS.toNanos(10);
  // the deadline on a request's line and headers, from the thread that reads them to the handler it calls
  private static final ThreadLocal<ReadDeadlines.Deadline> HEADERS = new ThreadLocal<>();

  private final String name;
  private final ListenerLimits limits;
  private final HttpServer server;
  private final ThreadPoolExecutor threads;
  private final ReadDeadlines deadlines;
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong refusalLoggedAt = new AtomicLong(System.nanoTime() - REFUSAL_LOG_EVERY_NANOS);

  private LimitedHttpServer(String name, ListenerLimits limits, HttpServer server) {
    this.name = name;
    this.limits = limits;
    this.server = server;
    this.deadlines = new ReadDeadlines(name);
    this.threads = new ThreadPoolExecutor(limits.threads(), limits.threads(), 30, TimeUnit.SECONDS,
        limits.queued() == 0 ? new SynchronousQueue<>() : new ArrayBlockingQueue<>(limits.queued()), runnable -> {
          Thread thread = new Thread(runnable, name);
          thread.setDaemon(true);
          return thread;
        }, (task, pool) -> refuse());
    threads.allowCoreThreadTimeOut(true);
    server.setExecutor(this::serveConnection);
  }

  /**
   * Binds the address (port 0 picks a free one); add routes, then {@link #start()}.
   *
   * @param name the listener's name in thread names and logs, e.g. {@code webhooks}
   */
  public static LimitedHttpServer bind(String name, InetSocketAddress address, ListenerLimits limits)
      throws IOException {
    return new LimitedHttpServer(name, limits, HttpServer.create(address, 0));
  }

  /** Serves a path (and everything under it) with the handler, which sees the exchange with its reads watched. */
  public void route(String path, HttpHandler handler) {
    server.createContext(path, exchange -> serve(exchange, handler));
  }

  public void start() {
    server.start();
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  public int port() {
    return server.getAddress().getPort();
  }

  public ListenerLimits limits() {
    return limits;
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
    deadlines.close();
  }

  /** The server hands each request to this executor before it reads the request line. */
  private void serveConnection(Runnable request) {
    threads.execute(() -> {
      ReadDeadlines.Deadline headers = deadlines.start(limits.requestHeaderTime());
      HEADERS.set(headers);
      try {
        request.run();
      } finally {
        HEADERS.remove();
        if (headers.end()) {
          LOG.warn("event=http_request_timed_out listener={} phase=headers limit_ms={}", name,
              limits.requestHeaderTime().toMillis());
        }
      }
    });
  }

  private void serve(HttpExchange exchange, HttpHandler handler) throws IOException {
    ReadDeadlines.Deadline headers = HEADERS.get();
    HEADERS.remove();
    if (headers != null && headers.end()) {
      // the headers came in just as their deadline expired: the connection is let go as any late one
      LOG.warn("event=http_request_timed_out listener={} phase=headers limit_ms={}", name,
          limits.requestHeaderTime().toMillis());
      exchange.close();
      return;
    }
    handler.handle(new WatchedExchange(exchange, name, deadlines, limits));
  }

  /** Both the threads and the queue are full: the server closes the connection unanswered. */
  private void refuse() {
    long total = refused.incrementAndGet();
    long now = System.nanoTime();
    long last = refusalLoggedAt.get();
    if (now - last >= REFUSAL_LOG_EVERY_NANOS && refusalLoggedAt.compareAndSet(last, now)) {
      LOG.warn("event=http_connection_refused listener={} reason=\"{} requests in service and {} waiting\""
          + " refused_total={}", name, limits.threads(), limits.queued(), total);
    }
    throw new RejectedExecutionException(name + ": " + limits.threads() + " requests in service and "
        + limits.queued() + " waiting");
  }
}

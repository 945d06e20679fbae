package dev.varroa.protocol.http;

import java.time.Duration;

/**
 * How long a client may take over a request, and how many requests one listener serves at once. The JDK HTTP server
 * reads a request's line and headers on a thread of its executor, with no time limit of its own: these limits are
 * what keeps a client that stops sending from holding that thread.
 *
 * @param requestHeaderTime from the first byte of a request to the end of its headers
 * @param bodyIdleTime the longest wait for the next bytes of a request body; also bounds the read of an unread body
 *     the server does before it answers on the same connection
 * @param bodyTime from the first read of a request body to its last byte
 * @param threads requests served at once: each holds one thread from its first byte until it is answered
 * @param queued requests waiting for a thread beyond those; a connection that finds both full is closed unanswered
 */
public record ListenerLimits(Duration requestHeaderTime, Duration bodyIdleTime, Duration bodyTime, int threads,
    int queued) {

  /** Kubelet probes and metrics scrapes: a few hundred bytes of headers and no body. */
  public static final ListenerLimits PROBES = new ListenerLimits(Duration.ofSeconds(5), Duration.ofSeconds(5),
      Duration.ofSeconds(10), 4, 16);
  /** Deliveries from the network (webhooks, kept wake-up requests): a body of at most a MiB. */
  public static final ListenerLimits DELIVERIES = new ListenerLimits(Duration.ofSeconds(10), Duration.ofSeconds(10),
      Duration.ofSeconds(30), 4, 32);

  public ListenerLimits {
    requirePositive(requestHeaderTime, "requestHeaderTime");
    requirePositive(bodyIdleTime, "bodyIdleTime");
    requirePositive(bodyTime, "bodyTime");
    if (threads < 1) {
      throw new IllegalArgumentException("listener limits: threads is " + threads + "; fix: at least 1");
    }
    if (queued < 0) {
      throw new IllegalArgumentException("listener limits: queued is " + queued + "; fix: 0 or more");
    }
  }

  public ListenerLimits withThreads(int threads) {
    return new ListenerLimits(requestHeaderTime, bodyIdleTime, bodyTime, threads, queued);
  }

  public ListenerLimits withBodyTime(Duration bodyIdleTime, Duration bodyTime) {
    return new ListenerLimits(requestHeaderTime, bodyIdleTime, bodyTime, threads, queued);
  }

  public ListenerLimits withRequestHeaderTime(Duration requestHeaderTime) {
    return new ListenerLimits(requestHeaderTime, bodyIdleTime, bodyTime, threads, queued);
  }

  private static void requirePositive(Duration duration, String field) {
    if (duration == null || duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException("listener limits: " + field + " is " + duration
          + "; fix: a positive duration");
    }
  }
}

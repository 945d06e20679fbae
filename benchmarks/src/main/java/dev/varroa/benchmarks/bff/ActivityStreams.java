package dev.varroa.benchmarks.bff;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Many clients of GET /activity/stream at once, each timing every activity event it receives against the harness
 * clock the publisher put in the event's attributes ({@value #SENT_NANOS}, this JVM's System.nanoTime, so sender and
 * receiver share one clock). Streams are spread over a few HttpClients (each has one selector thread) and read
 * asynchronously: 500 streams hold no thread each.
 */
public final class ActivityStreams implements AutoCloseable {

  /** The attribute carrying this JVM's System.nanoTime() at publish. */
  public static final String SENT_NANOS = "benchSentNanos";
  /** The attribute carrying the probe's number; warm-up probes are negative. */
  public static final String PROBE = "benchProbe";

  // The attributes map is rendered sorted, one level deep: a pattern finds a value without parsing the event.
  private static final Pattern SENT = Pattern.compile("\"" + SENT_NANOS + "\":\"(\\d+)\"");
  private static final Pattern NUMBER = Pattern.compile("\"" + PROBE + "\":\"(-?\\d+)\"");

  private final List<HttpClient> clients = new ArrayList<>();
  private final List<ExecutorService> executors = new ArrayList<>();
  private final List<Stream> streams = new ArrayList<>();

  /** One stream's deliveries: delay in nanoseconds per probe number, -1 until it arrives. */
  public static final class Stream implements Flow.Subscriber<String> {
    private final long[] delays;
    private final AtomicInteger received = new AtomicInteger();
    private volatile boolean opened;
    private volatile boolean warmed;
    private volatile String ended;
    private volatile Throwable failed;
    private volatile int duplicates;
    private volatile int status;
    private Flow.Subscription subscription;
    private String dataLine;

    Stream(int probes) {
      delays = new long[probes];
      java.util.Arrays.fill(delays, -1);
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
      this.subscription = subscription;
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(String line) {
      long now = System.nanoTime();
      if (line.startsWith(":")) {
        opened = true;
      } else if (line.startsWith("data: ")) {
        dataLine = line;
      } else if (line.startsWith("event: end")) {
        ended = "ended by the BFF";
      } else if (line.isEmpty() && dataLine != null) {
        delivered(dataLine, now);
        dataLine = null;
      }
    }

    private void delivered(String data, long now) {
      if (ended != null) {
        ended = "ended by the BFF: " + data;
        return;
      }
      Matcher sent = SENT.matcher(data);
      Matcher number = NUMBER.matcher(data);
      if (!sent.find() || !number.find()) {
        return;
      }
      int probe = Integer.parseInt(number.group(1));
      if (probe < 0) {
        warmed = true;
        return;
      }
      if (probe >= delays.length) {
        return;
      }
      if (delays[probe] >= 0) {
        duplicates++;
        return;
      }
      delays[probe] = now - Long.parseLong(sent.group(1));
      received.incrementAndGet();
    }

    @Override
    public void onError(Throwable throwable) {
      failed = throwable;
    }

    @Override
    public void onComplete() {
      if (ended == null) {
        ended = "the response ended";
      }
    }

    public boolean opened() {
      return opened;
    }

    public boolean warmed() {
      return warmed;
    }

    public int received() {
      return received.get();
    }

    public int duplicates() {
      return duplicates;
    }

    /** Why the stream stopped, or null while it is open. */
    public String problem() {
      if (failed != null) {
        return "failed: " + failed;
      }
      if (status != 0 && status != 200) {
        return "answered HTTP " + status;
      }
      return ended;
    }

    /** Delays of the probes received, in nanoseconds. */
    public List<Long> delays() {
      List<Long> out = new ArrayList<>();
      for (long delay : delays) {
        if (delay >= 0) {
          out.add(delay);
        }
      }
      return out;
    }

    void cancel() {
      if (subscription != null) {
        subscription.cancel();
      }
    }
  }

  /**
   * Opens {@code count} streams over {@code clientCount} HttpClients (HTTP/1.1: one connection a stream), each
   * expecting probes numbered 0 to probes - 1.
   */
  public ActivityStreams(URI stream, String bearer, int count, int clientCount, int probes) {
    for (int i = 0; i < clientCount; i++) {
      ExecutorService executor = Executors.newFixedThreadPool(2, runnable -> {
        Thread thread = new Thread(runnable, "bench-sse-client");
        thread.setDaemon(true);
        return thread;
      });
      executors.add(executor);
      clients.add(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).executor(executor)
          .connectTimeout(Duration.ofSeconds(10)).build());
    }
    HttpRequest request = HttpRequest.newBuilder(stream).header("Authorization", "Bearer " + bearer)
        .header("Accept", "text/event-stream").GET().build();
    for (int i = 0; i < count; i++) {
      Stream one = new Stream(probes);
      streams.add(one);
      clients.get(i % clientCount).sendAsync(request, HttpResponse.BodyHandlers.fromLineSubscriber(one))
          .whenComplete((response, error) -> {
            if (error != null) {
              one.onError(error);
            } else {
              one.status = response.statusCode();
            }
          });
    }
  }

  public List<Stream> streams() {
    return streams;
  }

  public long count(java.util.function.Predicate<Stream> which) {
    return streams.stream().filter(which).count();
  }

  /** The first stream that stopped, with why, or null. */
  public String firstProblem() {
    for (int i = 0; i < streams.size(); i++) {
      String problem = streams.get(i).problem();
      if (problem != null) {
        return "stream " + i + " " + problem;
      }
    }
    return null;
  }

  @Override
  public void close() {
    // Cancelling a body subscription closes its connection (Java 17's HttpClient has no close of its own).
    streams.forEach(Stream::cancel);
    executors.forEach(ExecutorService::shutdownNow);
  }
}

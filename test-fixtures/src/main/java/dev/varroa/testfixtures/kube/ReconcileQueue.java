package dev.varroa.testfixtures.kube;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The work queue of a controller stand-in: one worker thread runs every reconcile, so the parts of a stand-in never
 * race each other over one object; a key queued twice before it runs runs once; a failed reconcile is retried with
 * backoff (capped at 2 s) and logged.
 */
public final class ReconcileQueue implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReconcileQueue.class);
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);
  private static final Duration LAST_RETRY = Duration.ofSeconds(2);

  /** What to reconcile: a kind of object and its namespace (null when cluster-scoped) and name. */
  public record Key(String kind, String namespace, String name) {
    @Override
    public String toString() {
      return kind + " " + (namespace == null ? "" : namespace + "/") + name;
    }
  }

  private final ScheduledExecutorService worker;
  private final Consumer<Key> reconcile;
  private final Set<Key> queued = new LinkedHashSet<>();
  private final java.util.Map<Key, Integer> failures = new java.util.HashMap<>();

  public ReconcileQueue(String threadName, Consumer<Key> reconcile) {
    this.reconcile = reconcile;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, threadName);
      t.setDaemon(true);
      return t;
    });
  }

  public void add(Key key) {
    synchronized (queued) {
      if (!queued.add(key)) {
        return;
      }
    }
    submit(key, 0);
  }

  private void submit(Key key, long delayMillis) {
    if (worker.isShutdown()) {
      return;
    }
    try {
      worker.schedule(() -> run(key), delayMillis, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closing) {
      // the stand-in closed between the check and the schedule: nothing is left to reconcile for
    }
  }

  private void run(Key key) {
    synchronized (queued) {
      queued.remove(key);
    }
    try {
      reconcile.accept(key);
      failures.remove(key);
    } catch (RuntimeException e) {
      if (worker.isShutdown()) {
        return; // close() interrupted this reconcile; there is nothing to retry for
      }
      int attempt = failures.merge(key, 1, Integer::sum);
      long delay = Math.min(LAST_RETRY.toMillis(), FIRST_RETRY.toMillis() << Math.min(attempt - 1, 5));
      Throwable cause = e;
      while (cause.getCause() != null) {
        cause = cause.getCause();
      }
      LOG.warn("event=reconcile_failed object=\"{}\" attempt={} retry_in_ms={} error=\"{}\" cause=\"{}\"", key, attempt,
          delay, e.getMessage(), cause == e ? "" : cause.toString());
      synchronized (queued) {
        if (!queued.add(key)) {
          return;
        }
      }
      submit(key, delay);
    }
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

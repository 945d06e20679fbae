package dev.varroa.dashboard.activity;

import dev.varroa.dashboard.records.ControllerScope;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of {@link BusFanout}: its filter, its bounded queue, and its turn on a delivery thread. The sequence
 * of the last event taken is the seam between replay and live feed: nothing at or below it is queued again.
 */
public final class FanoutSubscription implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(FanoutSubscription.class);

  private final BusFanout fanout;
  private final Predicate<ControllerScope> filter;
  private final BusFanout.Listener listener;
  private final BlockingQueue<ActivityDelivery> queue;
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicBoolean endReported = new AtomicBoolean();
  private final AtomicBoolean replaced = new AtomicBoolean();
  private volatile long callStartedNanos;
  private volatile String endReason;
  private volatile boolean open = true;
  // Guarded by this.
  private long lastSequence;

  FanoutSubscription(BusFanout fanout, Predicate<ControllerScope> filter, BusFanout.Listener listener, int capacity) {
    this.fanout = fanout;
    this.filter = filter;
    this.listener = listener;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  synchronized void startAfter(long sequence) {
    lastSequence = sequence;
  }

  synchronized long lastSequence() {
    return lastSequence;
  }

  public boolean isOpen() {
    return open;
  }

  /** Why the fanout ended this subscription, or null while it is open or when the caller closed it. */
  public String endReason() {
    return endReason;
  }

  /** A live event: queued unless already seen or filtered out; a full queue ends the subscription as too slow. */
  synchronized void offer(ActivityDelivery delivery) {
    if (!open || !advance(delivery.sequence())) {
      return;
    }
    if (filter.test(delivery.event().scope())) {
      if (!queue.offer(delivery)) {
        end(fanout.slowReason());
        return;
      }
      signal();
    }
  }

  /** A replayed event: waits up to roomWait for room (the replay goes at the client's pace); false once ended. */
  boolean replayed(ActivityDelivery delivery, Duration roomWait) throws InterruptedException {
    synchronized (this) {
      if (!open) {
        return false;
      }
      if (!advance(delivery.sequence()) || !filter.test(delivery.event().scope())) {
        return true;
      }
    }
    // Outside the lock: a live offer never waits behind a replay that waits for room.
    if (!queue.offer(delivery, roomWait.toMillis(), TimeUnit.MILLISECONDS)) {
      end(fanout.slowReason());
      return false;
    }
    signal();
    return open;
  }

  /** An unreadable event still moves the seam past its sequence. */
  synchronized boolean skip(long sequence) {
    advance(sequence);
    return open;
  }

  // Guarded by this. Events without a sequence (core subscription) are never deduplicated.
  private boolean advance(long sequence) {
    if (sequence == ActivityDelivery.NO_SEQUENCE) {
      return true;
    }
    if (sequence <= lastSequence) {
      return false;
    }
    lastSequence = sequence;
    return true;
  }

  /** True once per stuck call: the listener has been in one call for longer than stall. */
  boolean stuckSince(long nowNanos, Duration stall) {
    long started = callStartedNanos;
    return started != 0 && nowNanos - started > stall.toNanos() && replaced.compareAndSet(false, true);
  }

  void settleIfReturned() {
    if (callStartedNanos == 0 && replaced.compareAndSet(true, false)) {
      fanout.unstuck();
    }
  }

  private void signal() {
    if (draining.compareAndSet(false, true)) {
      fanout.deliverLater(this::drain);
    }
  }

  private void drain() {
    try {
      ActivityDelivery next;
      while (open && (next = queue.poll()) != null) {
        callStartedNanos = System.nanoTime();
        try {
          listener.event(next);
        } catch (RuntimeException e) {
          end("the listener failed: " + e);
        } finally {
          callStartedNanos = 0;
          if (replaced.compareAndSet(true, false)) {
            fanout.unstuck();
          }
        }
      }
    } finally {
      draining.set(false);
    }
    if (!open) {
      reportEnd();
    } else if (!queue.isEmpty()) {
      signal();
    }
  }

  /** Ends the subscription for reason; the listener hears of it once, after the call it may be in. */
  void end(String reason) {
    synchronized (this) {
      if (!open) {
        return;
      }
      open = false;
      endReason = reason;
    }
    fanout.removed(this);
    queue.clear();
    LOG.info("event=activity_subscriber_ended reason=\"{}\"", reason);
    if (draining.compareAndSet(false, true)) {
      fanout.deliverLater(() -> {
        draining.set(false);
        reportEnd();
      });
    }
  }

  private void reportEnd() {
    if (endReason != null && endReported.compareAndSet(false, true)) {
      listener.ended(endReason);
    }
  }

  /** The caller is done (its client went away): no more events, and no {@code ended} call. */
  @Override
  public void close() {
    synchronized (this) {
      open = false;
    }
    fanout.removed(this);
    queue.clear();
  }
}

package dev.varroa.gateway.command;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.bus.BusConnection;
import dev.varroa.protocol.bus.BusListener;
import dev.varroa.gateway.stream.MiteSession;
import dev.varroa.gateway.stream.MiteSessions;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.ControllerRef;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides when the one-shot commands queued in JetStream for the mites this gateway holds are run:
 * when a mite connects, when the operator sends a notice on {@link QueuedCommandNotices}, and after a
 * NATS outage (notices sent meanwhile are lost, the queue is not), and again one ack wait after a drain that
 * left work it could not fetch (a command in flight on a gateway that died comes back after the ack wait).
 * One drain per controller at a time.
 */
public final class QueuedCommandRunner implements BusListener {

  private static final Logger LOG = LoggerFactory.getLogger(QueuedCommandRunner.class);

  private final String gatewayId;
  private final String clusterName;
  private final MiteSessions sessions;
  private final QueuedCommandDrain drain;
  private final ExecutorService pool;
  private final ScheduledExecutorService timers;
  private final Duration recheckAfter;
  private final Map<String, DrainState> drains = new ConcurrentHashMap<>();

  /** @param activity where a dropped (expired) Jenkins token grant is reported */
  public QueuedCommandRunner(String gatewayId, String clusterName, BusConnection bus, MiteSessions sessions,
      Duration ackWait, Duration progressInterval, ExecutorService pool, ScheduledExecutorService timers, Clock clock,
      ActivityPublisher activity) {
    this.gatewayId = gatewayId;
    this.clusterName = clusterName;
    this.sessions = sessions;
    this.drain = new QueuedCommandDrain(gatewayId, clusterName, bus, ackWait, progressInterval, timers,
        new QueuedTokenGrants(gatewayId, clusterName, bus, activity), clock);
    this.pool = pool;
    this.timers = timers;
    this.recheckAfter = ackWait;
  }

  @Override
  public void connected(Connection connection) {
    Dispatcher dispatcher = connection.createDispatcher(this::notice);
    dispatcher.subscribe(QueuedCommandNotices.subject(clusterName, gatewayId));
    checkAll();
  }

  @Override
  public void reconnected() {
    // Notices sent while the bus was away are lost; the queue itself is not.
    checkAll();
  }

  /** A mite's Hello was accepted: run what waited for it. */
  public void sessionStarted(MiteSession session) {
    check(session);
  }

  private void notice(Message message) {
    byte[] data = message.getData();
    if (data == null || data.length == 0) {
      checkAll();
      return;
    }
    try {
      ControllerIdentity controller = ControllerIdentity.of(ControllerRef.parseFrom(data));
      sessions.find(controller).ifPresent(this::check);
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      LOG.warn("event=queued_notice_unreadable gateway={}", gatewayId);
    }
  }

  private void checkAll() {
    sessions.all().forEach(this::check);
  }

  // One drain per controller at a time; a request during a drain makes it look once more at the end,
  // for the newest session (a reconnect during a drain must not be missed).
  private void check(MiteSession session) {
    DrainState state = drains.computeIfAbsent(session.identity().routeKey(), key -> new DrainState());
    synchronized (state) {
      state.newest = session;
      if (state.running) {
        state.again = true;
        return;
      }
      state.running = true;
      state.again = false;
    }
    pool.execute(() -> drainUntilQuiet(state));
  }

  private void drainUntilQuiet(DrainState state) {
    try {
      while (true) {
        MiteSession target;
        synchronized (state) {
          target = state.newest;
        }
        if (target.isOpen() && drain.drain(target)) {
          recheckLater(target);
        }
        synchronized (state) {
          if (!state.again) {
            state.running = false;
            return;
          }
          state.again = false;
        }
      }
    } catch (RuntimeException e) {
      synchronized (state) {
        state.running = false;
      }
      LOG.error("event=queued_drain_crashed gateway={} error=\"{}\"", gatewayId, e.toString());
    }
  }

  private void recheckLater(MiteSession session) {
    try {
      timers.schedule(() -> {
        if (session.isOpen()) {
          check(session);
        }
      }, recheckAfter.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      LOG.debug("event=queued_recheck_skipped gateway={} reason=stopping", gatewayId);
    }
  }

  private static final class DrainState {
    MiteSession newest;
    boolean running;
    boolean again;
  }
}

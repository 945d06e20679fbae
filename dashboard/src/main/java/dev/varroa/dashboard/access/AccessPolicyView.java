package dev.varroa.dashboard.access;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import io.nats.client.Connection;
import io.nats.client.api.KeyValueEntry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access policy the core's operator keeps in varroa_access, read again every second. Until one was read the
 * policy is empty, so nobody sees anything: a BFF that cannot read its policy fails closed.
 */
public final class AccessPolicyView implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AccessPolicyView.class);
  public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(1);

  private final Supplier<Connection> nats;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-access-policy-view");
    thread.setDaemon(true);
    return thread;
  });
  private volatile AccessPolicy policy = AccessPolicy.getDefaultInstance();
  private volatile long revision = -1;
  private volatile boolean readFailed;

  public AccessPolicyView(Supplier<Connection> nats) {
    this.nats = nats;
  }

  public AccessPolicyView start() {
    timer.scheduleWithFixedDelay(this::refresh, 0, REFRESH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  public AccessPolicy policy() {
    return policy;
  }

  /** Whether a policy was read at least once. */
  public boolean loaded() {
    return revision >= 0;
  }

  void refresh() {
    try {
      Connection connection = nats.get();
      if (!connection.keyValueManagement().getBucketNames().contains(BusNames.ACCESS_BUCKET)) {
        return;
      }
      KeyValueEntry entry = connection.keyValue(BusNames.ACCESS_BUCKET).get(BusNames.ACCESS_POLICY_KEY);
      if (entry == null || entry.getValue() == null) {
        return;
      }
      if (entry.getRevision() != revision) {
        policy = AccessPolicy.parseFrom(entry.getValue());
        revision = entry.getRevision();
        LOG.info("event=access_policy_read roles={} bindings={}", policy.getRolesCount(), policy.getBindingsCount());
      }
      readFailed = false;
    } catch (Exception e) {
      if (!readFailed) {
        LOG.warn("event=access_policy_read_failed bucket={} error=\"{}\"", BusNames.ACCESS_BUCKET, e.getMessage());
      }
      readFailed = true;
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

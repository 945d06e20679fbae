package dev.varroa.operator.cluster;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.ReleaseVersion;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers this operator's cluster in varroa_clusters and keeps the entry fresh; the bucket forgets a cluster
 * whose operator stops refreshing, so the BFF lists only clusters that are alive.
 */
public final class ClusterBeacon implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterBeacon.class);
  /** Well within the bucket's age (BusTopology.CLUSTER_PRESENCE_AGE): two refreshes may fail in a row. */
  public static final Duration REFRESH_INTERVAL = Duration.ofSeconds(10);

  private final Supplier<Connection> nats;
  private final String cluster;
  private final ClusterRole role;
  private final Supplier<String> kubernetesVersion;
  private final Supplier<Collection<Controller>> controllers;
  private final Clock clock;
  private final Instant startedAt;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-cluster-beacon");
    thread.setDaemon(true);
    return thread;
  });
  private volatile boolean lastWriteFailed;
  private final Supplier<String> drainState;

  public ClusterBeacon(Supplier<Connection> nats, String cluster, ClusterRole role, Supplier<String> kubernetesVersion,
      Supplier<Collection<Controller>> controllers, Clock clock) {
    this(nats, cluster, role, kubernetesVersion, controllers, () -> "", clock);
  }

  /** @param drainState the cluster's drain state as ClusterPresence.drain_state spells it (docs/actions.md) */
  public ClusterBeacon(Supplier<Connection> nats, String cluster, ClusterRole role, Supplier<String> kubernetesVersion,
      Supplier<Collection<Controller>> controllers, Supplier<String> drainState, Clock clock) {
    this.drainState = drainState;
    this.nats = nats;
    this.cluster = cluster;
    this.role = role;
    this.kubernetesVersion = kubernetesVersion;
    this.controllers = controllers;
    this.clock = clock;
    this.startedAt = clock.instant();
  }

  public void start() {
    timer.scheduleWithFixedDelay(this::refresh, 0, REFRESH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Writes the entry now; a failure is logged once until a write succeeds again. */
  public synchronized void refresh() {
    try {
      Collection<Controller> all = controllers.get();
      long connected = all.stream().filter(c -> c.getStatus() != null
          && c.getStatus().phase == ControllerStatus.Phase.Connected).count();
      ClusterPresence presence = ClusterPresence.newBuilder()
          .setName(cluster)
          .setRole(role.value())
          .setOperatorVersion(ReleaseVersion.CURRENT)
          .setKubernetesVersion(kubernetesVersion.get())
          .setConnectedControllers((int) connected)
          .setControllers(all.size())
          .setStartedAtEpochMillis(startedAt.toEpochMilli())
          .setRefreshedAtEpochMillis(clock.millis())
          .setDrainState(drainState.get())
          .build();
      Connection connection = nats.get();
      BusTopology.ensureClusters(connection);
      connection.keyValue(BusNames.CLUSTERS_BUCKET).put(BusNames.token(cluster), presence.toByteArray());
      if (lastWriteFailed) {
        LOG.info("event=cluster_presence_restored cluster={}", cluster);
      }
      lastWriteFailed = false;
    } catch (Exception e) {
      if (!lastWriteFailed) {
        LOG.warn("event=cluster_presence_write_failed cluster={} error=\"{}\"", cluster, e.getMessage());
      }
      lastWriteFailed = true;
    }
  }

  /** Stops refreshing and removes the entry, so a cluster that stops on purpose leaves the list at once. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      nats.get().keyValue(BusNames.CLUSTERS_BUCKET).delete(BusNames.token(cluster));
    } catch (Exception e) {
      LOG.warn("event=cluster_presence_withdraw_failed cluster={} error=\"{}\"", cluster, e.getMessage());
    }
  }
}

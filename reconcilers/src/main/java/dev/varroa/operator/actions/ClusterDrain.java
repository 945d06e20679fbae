package dev.varroa.operator.actions;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.protocol.bus.ActivityPublisher;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the cluster's Controllers one by one while the ledger says Draining: a Controller's JENKINS_HOME claims
 * first, then the Controller (its reconciler's cleanup and the owner references take the rest), and the next one
 * only once it is gone. The state is read from the ledger at every step, so a cancel stops the next deletion and an
 * operator that restarts mid-drain carries on where the last one stopped.
 */
public final class ClusterDrain implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterDrain.class);
  /** How often a step looks at the ledger and the Controllers while a drain runs. */
  public static final Duration STEP_INTERVAL = Duration.ofSeconds(1);
  /** How often it looks at the ledger otherwise: a drain another replica accepted is seen within this. */
  public static final Duration IDLE_INTERVAL = Duration.ofSeconds(5);
  public static final String DRAIN_DELETING = "cluster.drain_deleting";
  public static final String DRAINED = "cluster.drained";

  private final KubernetesClient client;
  private final ActionLedger ledger;
  private final DrainedVolumes volumes;
  private final ActivityPublisher activity;
  private final Runnable changed;
  private final AtomicLong steps = new AtomicLong();
  private volatile DrainState state = DrainState.NONE;
  private volatile int left;
  private volatile boolean stepFailed;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-cluster-drain");
    thread.setDaemon(true);
    return thread;
  });

  /** @param changed told when the state or the count of Controllers left changed (the cluster beacon) */
  public ClusterDrain(KubernetesClient client, ActionLedger ledger, ActivityPublisher activity, Runnable changed) {
    this.client = client;
    this.ledger = ledger;
    this.volumes = new DrainedVolumes(client);
    this.activity = activity;
    this.changed = changed;
  }

  public ClusterDrain start() {
    timer.execute(this::stepAndSchedule);
    return this;
  }

  /** Runs a step soon, not at the next interval: an action just changed the state. */
  public void nudge() {
    timer.execute(this::step);
  }

  // every second while draining, every IDLE_INTERVAL otherwise, so an idle cluster costs one GET in five seconds
  private void stepAndSchedule() {
    step();
    Duration next = state == DrainState.DRAINING ? STEP_INTERVAL : IDLE_INTERVAL;
    try {
      timer.schedule(this::stepAndSchedule, next.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException closed) {
      // closed: no more steps
    }
  }

  /** The state as the last step read it. */
  public DrainState state() {
    return state;
  }

  /** Steps completed so far, for tests that wait for the drain to have looked again. */
  public long steps() {
    return steps.get();
  }

  /** The volumes a drain releases, for a preview. */
  DrainedVolumes volumes() {
    return volumes;
  }

  public List<Controller> controllers() {
    return client.resources(Controller.class).inAnyNamespace().list().getItems().stream()
        .sorted(Comparator.comparing((Controller c) -> c.getMetadata().getNamespace())
            .thenComparing(c -> c.getMetadata().getName()))
        .toList();
  }

  synchronized void step() {
    try {
      DrainState read = ledger.drain().state();
      DrainState before = state;
      int leftBefore = left;
      state = read;
      if (read == DrainState.DRAINING) {
        drainOne();
      }
      if (state != before || left != leftBefore) {
        changed.run();
      }
      stepFailed = false;
    } catch (RuntimeException e) {
      if (!stepFailed) {
        LOG.warn("event=cluster_drain_step_failed namespace={} error=\"{}\"", ledger.namespace(), e.getMessage());
      }
      stepFailed = true;
    } finally {
      steps.incrementAndGet();
    }
  }

  private void drainOne() {
    List<Controller> all = controllers();
    left = all.size();
    if (all.isEmpty()) {
      ledger.setDrain(DrainState.DRAINED, ledger.drain().requestedBy());
      state = DrainState.DRAINED;
      LOG.info("event=cluster_drained namespace={}", ledger.namespace());
      activity.global(DRAINED, "every Controller of cluster " + activity.cluster() + " is deleted", Map.of());
      return;
    }
    if (all.stream().anyMatch(c -> c.getMetadata().getDeletionTimestamp() != null)) {
      // one by one: the next waits until this one's cleanup finished
      return;
    }
    Controller next = all.get(0);
    String namespace = next.getMetadata().getNamespace();
    String name = next.getMetadata().getName();
    List<PersistentVolumeClaim> claims = volumes.claims(next);
    // claims first: a restart between the two deletes finds the Controller still there and deletes both again
    claims.forEach(claim -> client.resource(claim).delete());
    client.resource(next).delete();
    LOG.info("event=cluster_drain_deleting controller={}/{} claims={} left={}", namespace, name, claims.size(),
        all.size() - 1);
    activity.controller(namespace, name, DRAIN_DELETING, "drain deletes Controller " + namespace + "/" + name,
        Map.of("claims", String.join(",", claims.stream().map(c -> c.getMetadata().getName()).toList()),
            "left", String.valueOf(all.size() - 1)));
  }

  /** Controllers left, as the last step counted them (0 before a drain). */
  public int left() {
    return left;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

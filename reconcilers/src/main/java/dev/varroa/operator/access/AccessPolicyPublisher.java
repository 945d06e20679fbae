package dev.varroa.operator.access;

import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.AccessPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.nats.client.Connection;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the access policy in varroa_access in step with the cluster's VarroaRoles and VarroaRoleBindings: written
 * on every change and re-checked every interval, so a write lost to a NATS outage is repaired without a change.
 * Only the core (or a local run) publishes it: the BFF authorizes with the core cluster's roles.
 */
public final class AccessPolicyPublisher implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AccessPolicyPublisher.class);
  public static final Duration RECHECK_INTERVAL = Duration.ofSeconds(30);

  private final Supplier<Connection> nats;
  private final KubernetesClient client;
  private final Clock clock;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "varroa-access-policy");
    thread.setDaemon(true);
    return thread;
  });
  private SharedIndexInformer<VarroaRole> roles;
  private SharedIndexInformer<VarroaRoleBinding> bindings;

  public AccessPolicyPublisher(Supplier<Connection> nats, KubernetesClient client, Clock clock) {
    this.nats = nats;
    this.client = client;
    this.clock = clock;
  }

  public synchronized void start() {
    ResourceEventHandler<Object> onChange = new ResourceEventHandler<>() {
      @Override
      public void onAdd(Object obj) {
        changed();
      }

      @Override
      public void onUpdate(Object oldObj, Object newObj) {
        changed();
      }

      @Override
      public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
        changed();
      }
    };
    roles = client.resources(VarroaRole.class).inform();
    bindings = client.resources(VarroaRoleBinding.class).inform();
    roles.addEventHandler(castHandler(onChange));
    bindings.addEventHandler(castHandler(onChange));
    timer.scheduleWithFixedDelay(this::publish, 0, RECHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
  }

  @SuppressWarnings("unchecked")
  private static <T> ResourceEventHandler<T> castHandler(ResourceEventHandler<Object> handler) {
    return (ResourceEventHandler<T>) (ResourceEventHandler<?>) handler;
  }

  private void changed() {
    timer.execute(this::publish);
  }

  /** Writes the policy when it differs from the stored one (or none is stored). */
  void publish() {
    if (roles == null || !roles.hasSynced() || !bindings.hasSynced()) {
      return;
    }
    AccessPolicy policy = AccessPolicyRenderer.render(roles.getStore().list(), bindings.getStore().list());
    try {
      Connection connection = nats.get();
      BusTopology.ensureAccess(connection);
      var kv = connection.keyValue(BusNames.ACCESS_BUCKET);
      var current = kv.get(BusNames.ACCESS_POLICY_KEY);
      if (current != null && sameRules(current.getValue(), policy)) {
        return;
      }
      kv.put(BusNames.ACCESS_POLICY_KEY,
          policy.toBuilder().setPublishedAtEpochMillis(clock.millis()).build().toByteArray());
      LOG.info("event=access_policy_published roles={} bindings={}", policy.getRolesCount(),
          policy.getBindingsCount());
    } catch (Exception e) {
      LOG.warn("event=access_policy_publish_failed error=\"{}\"", e.getMessage());
    }
  }

  private static boolean sameRules(byte[] stored, AccessPolicy policy) {
    try {
      return AccessPolicy.parseFrom(stored).toBuilder().clearPublishedAtEpochMillis().build().equals(policy);
    } catch (Exception e) {
      return false;
    }
  }

  @Override
  public synchronized void close() {
    timer.shutdownNow();
    if (roles != null) {
      roles.close();
      bindings.close();
    }
  }
}

package dev.varroa.operator.hibernation;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The deliveries the waker kept in every namespace, as this replica knows them: each one's bytes and Controller, from
 * an informer that holds no body, plus those this replica is creating and the informer has not shown yet. It admits a
 * new delivery only within the per-Controller count and the cluster-wide byte cap.
 */
public final class KeptDeliveryLedger implements AutoCloseable {
  /** A delivery this replica created is counted on its own until the informer shows it; by then it has. */
  static final Duration IN_FLIGHT_FOR = Duration.ofMinutes(1);

  private final Clock clock;
  private final Map<String, Entry> seen = new HashMap<>();
  private final Map<String, Entry> inFlight = new HashMap<>();
  private SharedIndexInformer<Secret> informer;

  /** One kept delivery: whose, how big, and (in flight) since when. */
  private record Entry(String controllerUid, long bytes, Instant at) {}

  /** What a delivery may do. */
  public sealed interface Admission {
    /** Counted as kept; create its Secret, or {@link #release} it when that fails. */
    record Admitted(String key) implements Admission {}

    /** {@code limit} deliveries already wait for this Controller. */
    record ControllerFull(int limit) implements Admission {}

    /** Keeping it would put the cluster's kept bytes over {@code capBytes}; {@code keptBytes} are kept now. */
    record OverCap(long capBytes, long keptBytes) implements Admission {}
  }

  KeptDeliveryLedger(Clock clock) {
    this.clock = clock;
  }

  /** Watches the delivery Secrets of every namespace (their sizes, not their bodies) and returns once listed. */
  public static KeptDeliveryLedger watching(KubernetesClient client, Clock clock) {
    KeptDeliveryLedger ledger = new KeptDeliveryLedger(clock);
    SharedIndexInformer<Secret> informer = client.secrets().inAnyNamespace()
        .withLabel(WakeRequests.KIND_LABEL, WakeRequests.DELIVERY).runnableInformer(0);
    informer.itemStore(ledger.new SizesOnly());
    informer.run();
    ledger.informer = informer;
    return ledger;
  }

  /** Admits a delivery Secret for a Controller when it fits both bounds, counting it from now on. */
  public synchronized Admission admit(Secret delivery, String controllerUid, int perController, long capBytes) {
    Instant now = clock.instant();
    inFlight.values().removeIf(e -> e.at().plus(IN_FLIGHT_FOR).isBefore(now));
    long count = seen.values().stream().filter(e -> controllerUid.equals(e.controllerUid())).count()
        + inFlight.values().stream().filter(e -> controllerUid.equals(e.controllerUid())).count();
    if (count >= perController) {
      return new Admission.ControllerFull(perController);
    }
    long kept = keptBytes();
    long bytes = bytes(delivery);
    if (kept + bytes > capBytes) {
      return new Admission.OverCap(capBytes, kept);
    }
    String key = Cache.metaNamespaceKeyFunc(delivery);
    inFlight.put(key, new Entry(controllerUid, bytes, now));
    return new Admission.Admitted(key);
  }

  /** Forgets an admitted delivery whose Secret could not be created. */
  public synchronized void release(String key) {
    inFlight.remove(key);
  }

  /** The bytes kept in the cluster as far as this replica knows. */
  public synchronized long keptBytes() {
    return seen.values().stream().mapToLong(Entry::bytes).sum() + inFlight.values().stream().mapToLong(Entry::bytes)
        .sum();
  }

  /** What a delivery Secret holds: the decoded size of its data (method, path, headers and body). */
  static long bytes(Secret secret) {
    if (secret.getData() == null) {
      return 0;
    }
    long bytes = 0;
    for (String value : secret.getData().values()) {
      if (value != null) {
        int padding = value.endsWith("==") ? 2 : value.endsWith("=") ? 1 : 0;
        bytes += value.length() / 4L * 3 - padding;
      }
    }
    return bytes;
  }

  private synchronized void saw(String key, Secret secret) {
    inFlight.remove(key);
    seen.put(key, new Entry(controllerUid(secret).orElse(""), bytes(secret), clock.instant()));
  }

  private synchronized void gone(String key) {
    seen.remove(key);
  }

  private static Optional<String> controllerUid(Secret secret) {
    return Optional.ofNullable(secret.getMetadata().getOwnerReferences()).flatMap(owners -> owners.stream()
        .filter(o -> Boolean.TRUE.equals(o.getController())).map(OwnerReference::getUid).findFirst());
  }

  @Override
  public void close() {
    if (informer != null) {
      informer.close();
    }
  }

  /** Keeps each delivery's metadata and records its size: the bodies stay in the API server. */
  private final class SizesOnly extends BasicItemStore<Secret> {
    SizesOnly() {
      super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Secret put(String key, Secret secret) {
      saw(key, secret);
      Secret stripped = new SecretBuilder().withMetadata(secret.getMetadata()).withType(secret.getType()).build();
      stripped.getMetadata().setManagedFields(null);
      return super.put(key, stripped);
    }

    @Override
    public Secret remove(String key) {
      gone(key);
      return super.remove(key);
    }
  }
}

package dev.varroa.operator.brood;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ControllerRows;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import io.nats.client.Message;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The other clusters as the core's operator reaches them over NATS: which are registered (varroa_clusters), and each
 * one's Controllers (the rows its operator answers the BFF with).
 */
public final class FleetRoster {
  /** How long a cluster has to send its Controller list before the selection names it as unresolved. */
  static final Duration LIST_WAIT = Duration.ofSeconds(2);

  private final Supplier<Connection> bus;

  public FleetRoster(Supplier<Connection> bus) {
    this.bus = bus;
  }

  /** The registered clusters' names; empty when no operator registered yet. */
  public Set<String> registered() throws Exception {
    Connection nats = bus.get();
    if (!nats.keyValueManagement().getBucketNames().contains(BusNames.CLUSTERS_BUCKET)) {
      return Set.of();
    }
    KeyValue bucket = nats.keyValue(BusNames.CLUSTERS_BUCKET);
    return new TreeSet<>(bucket.keys());
  }

  /** Asks each cluster for its Controllers at once and waits at most {@link #LIST_WAIT} for all. */
  public Map<String, TargetSelection.ClusterList> controllers(Set<String> clusters) {
    Connection nats = bus.get();
    Map<String, CompletableFuture<Message>> asked = new java.util.TreeMap<>();
    for (String cluster : clusters) {
      asked.put(cluster, nats.requestWithTimeout(BusNames.clusterControllers(cluster), new byte[0], LIST_WAIT));
    }
    long deadline = System.nanoTime() + LIST_WAIT.toNanos();
    Map<String, TargetSelection.ClusterList> lists = new java.util.TreeMap<>();
    for (Map.Entry<String, CompletableFuture<Message>> entry : asked.entrySet()) {
      try {
        Message reply = entry.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        List<ControllerFacts> facts = new ArrayList<>();
        ControllerRows.parseFrom(reply.getData()).getRowsList().forEach(row -> facts.add(
            new ControllerFacts(row.getNamespace(), row.getName(), row.getPhase(), row.getLabelsMap())));
        lists.put(entry.getKey(), new TargetSelection.ClusterList.Arrived(facts));
      } catch (InvalidProtocolBufferException e) {
        lists.put(entry.getKey(), new TargetSelection.ClusterList.Missing("invalid controller row: " + e.getMessage()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        lists.put(entry.getKey(), new TargetSelection.ClusterList.Missing("interrupted"));
      } catch (Exception e) {
        lists.put(entry.getKey(), new TargetSelection.ClusterList.Missing("list unavailable: no answer within "
            + LIST_WAIT.toMillis() + " ms"));
      }
    }
    return lists;
  }
}

package dev.varroa.operator.brood;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.BroodTargetReport;
import dev.varroa.protocol.bus.v1.BroodTargetRequest;
import io.nats.client.Connection;
import io.nats.client.Message;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** The other clusters, as the core's operator reaches them: their registry, their Controller lists, their passes. */
public interface RemoteClusters {
  /** How long a member has to answer one pass over its targets before they show as Unknown. */
  Duration PASS_WAIT = Duration.ofSeconds(10);

  Set<String> registered() throws Exception;

  Map<String, TargetSelection.ClusterList> controllers(Set<String> clusters);

  BroodTargetReport pass(String cluster, BroodTargetRequest request) throws Exception;

  /** Over NATS, as the core's operator user may (docs/brood-operations.md). */
  static RemoteClusters over(Supplier<Connection> bus) {
    FleetRoster roster = new FleetRoster(bus);
    return new RemoteClusters() {
      @Override
      public Set<String> registered() throws Exception {
        return roster.registered();
      }

      @Override
      public Map<String, TargetSelection.ClusterList> controllers(Set<String> clusters) {
        return roster.controllers(clusters);
      }

      @Override
      public BroodTargetReport pass(String cluster, BroodTargetRequest request) throws Exception {
        Message reply = bus.get().requestWithTimeout(BusNames.clusterBroodTargets(cluster), request.toByteArray(),
            PASS_WAIT).get(PASS_WAIT.toMillis() + 500, TimeUnit.MILLISECONDS);
        return BroodTargetReport.parseFrom(reply.getData());
      }
    };
  }
}

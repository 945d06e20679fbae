package dev.varroa.dashboard.clusters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerRow;
import dev.varroa.protocol.bus.v1.ControllerRows;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The BFF's view of every cluster on a real NATS. The clusters' operators are played by subscriptions that answer
 * as ControllerListResponder does (the operator side has its own IT against a real API server): one answers, one
 * is registered but silent, one sends a row the BFF cannot read.
 */
class ClusterRosterIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration WAIT = Duration.ofSeconds(2);

  @Test
  void mergesTheClustersThatAnswerAndNamesTheOthersWithTheirReason() throws Exception {
    try (Connection operators = NATS.server().connect(); Connection bff = NATS.server().connect()) {
      BusTopology.ensureClusters(operators);
      for (String name : new String[] {"core", "eu-member", "us-member"}) {
        operators.keyValue(BusNames.CLUSTERS_BUCKET).put(name, ClusterPresence.newBuilder().setName(name)
            .setRole(name.equals("core") ? "core" : "member").build().toByteArray());
      }
      Dispatcher dispatcher = operators.createDispatcher();
      dispatcher.subscribe(BusNames.clusterControllers("core"), m -> operators.publish(m.getReplyTo(),
          ControllerRows.newBuilder().setCluster("core")
              .addRows(ControllerRow.newBuilder().setNamespace("team-b").setName("ci").setPhase("Connected"))
              .addRows(ControllerRow.newBuilder().setNamespace("team-a").setName("ci").setPhase("Running"))
              .build().toByteArray()));
      dispatcher.subscribe(BusNames.clusterControllers("us-member"), m -> operators.publish(m.getReplyTo(),
          ControllerRows.newBuilder().setCluster("us-member")
              .addRows(ControllerRow.newBuilder().setNamespace("team-c").setName("ci").setPhase("Exploded"))
              .build().toByteArray()));
      operators.flush(WAIT);

      ClusterRoster.ControllerList list = new ClusterRoster(bff).controllers(WAIT);

      assertThat(list.rows()).extracting(r -> r.cluster() + ":" + r.row().getNamespace() + "/" + r.row().getName())
          .containsExactly("core:team-a/ci", "core:team-b/ci");
      assertThat(list.clusters()).extracting(ClusterRoster.ClusterAnswer::name, ClusterRoster.ClusterAnswer::ok,
          ClusterRoster.ClusterAnswer::reason).containsExactly(
              org.assertj.core.groups.Tuple.tuple("core", true, ""),
              org.assertj.core.groups.Tuple.tuple("eu-member", false, ClusterRoster.LIST_UNAVAILABLE),
              org.assertj.core.groups.Tuple.tuple("us-member", false, ClusterRoster.INVALID_CONTROLLER_ROW));
      assertThat(list.clusters().get(2).detail()).contains("team-c/ci").contains("Exploded");
    }
  }

  @Test
  void listsEachClusterOnceWhileItsOperatorsRefreshTheirPresence() throws Exception {
    try (Connection operators = NATS.server().connect(); Connection bff = NATS.server().connect()) {
      // this server is shared with the other tests: their clusters go first
      if (operators.keyValueManagement().getBucketNames().contains(BusNames.CLUSTERS_BUCKET)) {
        operators.keyValueManagement().delete(BusNames.CLUSTERS_BUCKET);
      }
      BusTopology.ensureClusters(operators);
      byte[] presence = ClusterPresence.newBuilder().setName("core").setRole("core").build().toByteArray();
      operators.keyValue(BusNames.CLUSTERS_BUCKET).put("core", presence);
      // two operator replicas keep the entry fresh: a put can land while the BFF reads the bucket's keys
      java.util.concurrent.atomic.AtomicBoolean refreshing = new java.util.concurrent.atomic.AtomicBoolean(true);
      Thread beacon = new Thread(() -> {
        try {
          while (refreshing.get()) {
            operators.keyValue(BusNames.CLUSTERS_BUCKET).put("core", presence);
          }
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      });
      beacon.start();
      try {
        ClusterRoster roster = new ClusterRoster(bff);
        for (int i = 0; i < 200; i++) {
          assertThat(roster.clusters()).extracting(ClusterPresence::getName).containsExactly("core");
        }
      } finally {
        refreshing.set(false);
        beacon.join();
      }
    }
  }

  @Test
  void noRegisteredClusterIsAnEmptyListNotAnError() throws Exception {
    try (Connection bff = NATS.server().connect()) {
      // a fresh server: nobody created varroa_clusters yet
      bff.keyValueManagement().getBucketNames().stream().filter(BusNames.CLUSTERS_BUCKET::equals).findAny()
          .ifPresent(bucket -> {
            try {
              bff.keyValueManagement().delete(bucket);
            } catch (Exception e) {
              throw new IllegalStateException(e);
            }
          });
      ClusterRoster.ControllerList list = new ClusterRoster(bff).controllers(WAIT);
      assertThat(list.rows()).isEmpty();
      assertThat(list.clusters()).isEmpty();
    }
  }
}

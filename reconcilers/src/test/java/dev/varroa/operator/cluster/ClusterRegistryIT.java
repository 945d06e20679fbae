package dev.varroa.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.bffresponders.ControllerListResponder;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerRow;
import dev.varroa.protocol.bus.v1.ControllerRows;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The cluster registry entry and the controller rows a BFF asks for, on a real API server and a real NATS. */
@WithKubeApiServer
class ClusterRegistryIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void registersTheClusterAndAnswersWithEveryControllersRow(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team-reg").endMetadata().build())
        .create();
    for (String name : new String[] {"orders", "billing"}) {
      client.resource(YAML.unmarshal("apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: " + name
          + ", namespace: team-reg, labels: {team: a}}\nspec: {}\n", Controller.class)).create();
    }
    Controller orders = client.resources(Controller.class).inNamespace("team-reg").withName("orders").get();
    ControllerStatus status = new ControllerStatus();
    status.phase = ControllerStatus.Phase.Connected;
    status.bundle = "team-a/ci";
    status.lastApplyResult = new ControllerStatus.ApplyResult();
    status.lastApplyResult.succeeded = true;
    status.lastApplyResult.bundleDigest = "sha256:abc";
    orders.setStatus(status);
    client.resource(orders).updateStatus();

    try (SharedIndexInformer<Controller> informer = client.resources(Controller.class).inAnyNamespace().inform();
        Connection operatorBus = NATS.server().connect(); Connection bff = NATS.server().connect()) {
      ControllerListResponder responder = new ControllerListResponder(operatorBus, "eu-1", informer.getStore()::list);
      responder.start();
      ClusterBeacon beacon = new ClusterBeacon(() -> operatorBus, "eu-1", ClusterRole.CORE, () -> "v1.34.4",
          informer.getStore()::list, Clock.systemUTC());
      try {
        await().atMost(DEADLINE).until(() -> informer.getStore().list().stream()
            .anyMatch(c -> c.getStatus() != null && c.getStatus().phase == ControllerStatus.Phase.Connected));
        beacon.start();
        operatorBus.flush(DEADLINE);

        // the bucket exists once the beacon's first refresh made sure of it
        await().atMost(DEADLINE).ignoreExceptions()
            .until(() -> bff.keyValue(BusNames.CLUSTERS_BUCKET).get("eu-1") != null);
        KeyValueEntry entry = bff.keyValue(BusNames.CLUSTERS_BUCKET).get("eu-1");
        ClusterPresence presence = ClusterPresence.parseFrom(entry.getValue());
        assertThat(presence.getRole()).isEqualTo("core");
        assertThat(presence.getKubernetesVersion()).isEqualTo("v1.34.4");
        assertThat(presence.getControllers()).isEqualTo(2);
        assertThat(presence.getConnectedControllers()).isEqualTo(1);

        Message reply = bff.request(BusNames.clusterControllers("eu-1"), new byte[0], DEADLINE);
        ControllerRows rows = ControllerRows.parseFrom(reply.getData());
        assertThat(rows.getCluster()).isEqualTo("eu-1");
        assertThat(rows.getRowsList()).extracting(ControllerRow::getName).containsExactly("billing", "orders");
        ControllerRow row = rows.getRows(1);
        assertThat(row.getPhase()).isEqualTo("Connected");
        assertThat(row.getBundle()).isEqualTo("team-a/ci");
        assertThat(row.getRevision()).isEqualTo("sha256:abc");
        assertThat(row.getLabelsMap()).containsEntry("team", "a");
      } finally {
        beacon.close();
        responder.close();
      }
      assertThat(bff.keyValue(BusNames.CLUSTERS_BUCKET).get("eu-1"))
          .as("a cluster that stops on purpose leaves the registry at once")
          .satisfiesAnyOf(e -> assertThat(e).isNull(),
              e -> assertThat(e.getOperation()).isNotEqualTo(io.nats.client.api.KeyValueOperation.PUT));
    }
  }
}

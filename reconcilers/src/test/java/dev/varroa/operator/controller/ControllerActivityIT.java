package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.protocol.activity.v1.ActivityEvent;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The operator publishes the Controller lifecycle as activity on a real API server and a real NATS. */
@WithKubeApiServer
class ControllerActivityIT {

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static List<ActivityEvent> of(List<ActivityEvent> seen, String kind) {
    return seen.stream().filter(e -> e.getKind().equals(kind)).toList();
  }

  @Test
  void publishesCreatedPhaseChangesAndDeletedOfAController(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team-act").endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    List<ActivityEvent> controllerEvents = new CopyOnWriteArrayList<>();
    List<ActivityEvent> globalEvents = new CopyOnWriteArrayList<>();
    try (Connection nats = NATS.server().connect(); Connection reader = NATS.server().connect()) {
      Dispatcher dispatcher = reader.createDispatcher();
      dispatcher.subscribe("activity.eu-1.team-act.*", m -> controllerEvents.add(parse(m.getData())));
      dispatcher.subscribe("activity.eu-1._global", m -> globalEvents.add(parse(m.getData())));
      reader.flush(DEADLINE);
      ActivityPublisher activity = new ActivityPublisher(() -> nats, "eu-1", "operator", Clock.systemUTC());
      VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null, activity,
          Optional.empty(), Clock.systemUTC());
      try {
        operator.start();
        await().atMost(DEADLINE).until(() -> !of(globalEvents, VarroaOperator.STARTED).isEmpty());
        assertThat(globalEvents.get(0).getActor()).isEqualTo("operator");

        Controller created = client.resource(YAML.unmarshal("""
            apiVersion: varroa.dev/v1alpha1
            kind: Controller
            metadata: {name: orders, namespace: team-act}
            spec: {}
            """, Controller.class)).create();
        await().atMost(DEADLINE).until(() -> !of(controllerEvents, ControllerActivity.CREATED).isEmpty());
        ActivityEvent first = of(controllerEvents, ControllerActivity.CREATED).get(0);
        assertThat(first.getNamespace()).isEqualTo("team-act");
        assertThat(first.getController()).isEqualTo("orders");
        assertThat(first.getCluster()).isEqualTo("eu-1");
        assertThat(first.getAttributesMap()).containsEntry("uid", created.getMetadata().getUid());

        StatefulSet sts = awaitStatefulSet(client);
        Pod pod = new KubeletStandIn(client).createPod(sts);
        new KubeletStandIn(client).ready(pod);
        await().atMost(DEADLINE).until(() -> of(controllerEvents, ControllerActivity.PHASE_CHANGED).stream()
            .anyMatch(e -> "Running".equals(e.getAttributesMap().get("to"))));
        ActivityEvent running = of(controllerEvents, ControllerActivity.PHASE_CHANGED).stream()
            .filter(e -> "Running".equals(e.getAttributesMap().get("to"))).findFirst().orElseThrow();
        assertThat(running.getAttributesMap().get("from")).isEqualTo(ControllerStatus.Phase.Provisioning.name());
        assertThat(running.getSummary()).isEqualTo("phase Provisioning -> Running");
        // Each change is published once, where it is written: a resync that changes nothing adds nothing.
        assertThat(of(controllerEvents, ControllerActivity.CREATED)).hasSize(1);

        client.resource(created).delete();
        await().atMost(DEADLINE).until(() -> !of(controllerEvents, ControllerActivity.DELETED).isEmpty());
        assertThat(of(controllerEvents, ControllerActivity.DELETED).get(0).getAttributesMap())
            .containsEntry("uid", created.getMetadata().getUid()).containsEntry("phase", "Running");
        assertThat(activity.dropped()).isZero();
      } finally {
        operator.close();
      }
    }
  }

  private static ActivityEvent parse(byte[] data) {
    try {
      return ActivityEvent.parseFrom(data);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError("not an ActivityEvent on an activity subject", e);
    }
  }

  private static StatefulSet awaitStatefulSet(KubernetesClient client) {
    await().atMost(DEADLINE).until(() -> {
      Controller c = client.resources(Controller.class).inNamespace("team-act").withName("orders").get();
      return c.getStatus() != null && c.getStatus().statefulSetName != null
          && client.apps().statefulSets().inNamespace("team-act").withName(c.getStatus().statefulSetName).get() != null;
    });
    String name = client.resources(Controller.class).inNamespace("team-act").withName("orders").get()
        .getStatus().statefulSetName;
    return client.apps().statefulSets().inNamespace("team-act").withName(name).get();
  }
}

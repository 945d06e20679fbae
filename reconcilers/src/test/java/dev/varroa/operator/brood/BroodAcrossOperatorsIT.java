package dev.varroa.operator.brood;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.KubeApiServerExtension;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wiring of brood operations in the operator itself: a core and a member VarroaOperator, each on its own real API
 * server, registered over one real NATS. A BroodOperation on the core selects Controllers on both (the member's
 * through its operator's Controller list), hands the member its targets, and finishes once a person resumes them.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BroodAcrossOperatorsIT {
  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private Connection bus;
  private VarroaOperator core;
  private VarroaOperator member;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path coreCache, @TempDir Path memberCache) throws Exception {
    bus = NATS.server().connect();
    BusTopology.ensure(bus);
    for (KubernetesClient client : List.of(kube.client(), MEMBER_API.server().client())) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build())
          .serverSideApply();
    }
    core = operator(kube.client(), coreCache, "core", ClusterRole.CORE);
    member = operator(MEMBER_API.server().client(), memberCache, "east", ClusterRole.MEMBER);
  }

  private VarroaOperator operator(KubernetesClient client, Path cache, String cluster, ClusterRole role) {
    VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null,
        new ActivityPublisher(() -> bus, cluster, "operator", Clock.systemUTC()), Optional.empty(), Clock.systemUTC());
    operator.start();
    operator.registerCluster(cluster, role, () -> bus);
    return operator;
  }

  @AfterAll
  void stop() throws Exception {
    for (VarroaOperator operator : new VarroaOperator[] {core, member}) {
      if (operator != null) {
        operator.close();
      }
    }
    if (bus != null) {
      bus.close();
    }
  }

  @Test
  void anOperationOnTheCoreRunsTargetsOnBothClustersThroughTheirOperators(KubeApiServer kube) {
    KubernetesClient coreClient = kube.client();
    KubernetesClient memberClient = MEMBER_API.server().client();
    controller(coreClient, "alpha");
    controller(memberClient, "beta");
    controller(memberClient, "gamma");
    BroodOperation operation = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: across, namespace: ci}
        spec:
          targets: {clusters: ["*"], selector: {matchLabels: {wave: one}}}
          steps: [{type: pause, note: look first}]
          strategy: {maxConcurrent: 3}
        """, BroodOperation.class);
    coreClient.resource(operation).create();

    BroodOperationStatus paused = await().atMost(DEADLINE).until(() -> status(coreClient),
        s -> s != null && s.targets.size() == 3 && s.targets.stream().allMatch(t -> t.phase == TargetPhase.Paused));
    assertThat(paused.targets).extracting(t -> t.cluster + "/" + t.name).containsExactly("core/alpha", "east/beta",
        "east/gamma");
    assertThat(paused.targets).allMatch(t -> t.message.contains("look first"));

    coreClient.resources(BroodOperation.class).inNamespace("ci").withName("across").edit(o -> {
      o.getMetadata().setAnnotations(Map.of(OperationContext.RESUME_ANNOTATION, "go"));
      return o;
    });
    BroodOperationStatus done = await().atMost(DEADLINE).until(() -> status(coreClient),
        s -> s.phase == BroodOperationStatus.Phase.Succeeded);
    assertThat(done.targets).allSatisfy(t -> assertThat(t.steps.get(0).message).isEqualTo("resumed"));
  }

  private static BroodOperationStatus status(KubernetesClient client) {
    BroodOperation operation = client.resources(BroodOperation.class).inNamespace("ci").withName("across").get();
    return operation == null ? null : operation.getStatus();
  }

  private static void controller(KubernetesClient client, String name) {
    Controller controller = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: ci, labels: {wave: one}}
        spec: {}
        """.formatted(name), Controller.class);
    client.resource(controller).create();
  }
}

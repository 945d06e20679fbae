package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.hibernation.InactivityPolicy;
import dev.varroa.operator.hibernation.PlayedGateway;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * varroa.dev/reapply end to end on a real API server and a real NATS (docs/controllers.md, "Pushing the desired state
 * again"): the operator (Controller reconciler) pushes the desired state the mite already holds once per new value,
 * names the value in status.lastApplyResult.trigger, serves a value that arrives during a push with the push after
 * it, and after a restart does not push again for the value it served. The gateway (answering pushes as applied,
 * or holding the answers) and the kubelet are played; the played gateway counts every push.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReapplyIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String NAMESPACE = "reapply";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private PlayedGateway gateway;
  private Operator operator;
  private ControllerReconciler reconciler;
  private final List<ControlChannel> channels = new java.util.ArrayList<>();

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    gateway = new PlayedGateway(NATS.server().connect());
    startOperator(client);
  }

  /** An operator as it starts in a fresh process: its own reconciler, its own control channel, nothing in memory. */
  private void startOperator(KubernetesClient client) throws Exception {
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:9090", "", JenkinsTokenIssuer.generate(), Clock.systemUTC());
    channels.add(channel);
    reconciler = new ControllerReconciler(Clock.systemUTC(), ControllerSettings.defaults(), channel,
        new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)),
        (controller, zone, after) -> new InactivityPolicy.Timers.Known(Optional.empty()));
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(Clock.systemUTC()));
    operator.register(reconciler);
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (operator != null) {
      operator.stop();
    }
    for (ControlChannel channel : channels) {
      channel.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void pushesTheAppliedStateAgainOncePerNewValueAndNotAgainAfterARestart(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller created = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: app, namespace: %s}
        spec: {}
        """.formatted(NAMESPACE), Controller.class)).create();
    ControllerIdentity id = new ControllerIdentity(NAMESPACE, "app", created.getMetadata().getUid());
    String sts = "app-" + id.uid().substring(0, 8);
    await().atMost(DEADLINE).until(() -> statefulSet(client, sts) != null);
    KubeletStandIn kubelet = new KubeletStandIn(client);
    Pod pod = kubelet.createPod(statefulSet(client, sts));
    kubelet.ready(pod);

    // the mite connects: the desired state goes once; the mite then reports it applied
    gateway.connect(id, Instant.now(), observed("2.479.3", ""));
    ControllerStatus first = awaitStatus(client, s -> s.lastApplyResult != null);
    assertThat(first.lastApplyResult.trigger).as("a push for a new connection names no reapply value").isNull();
    List<DesiredState> pushes = gateway.desiredStates(id);
    assertThat(pushes).hasSize(1);
    String digest = pushes.get(0).getBundleDigest();
    reportsAt(client, id, "2.479.4", digest);
    assertThat(gateway.desiredStates(id)).as("the mite holds it: no second push").hasSize(1);

    // a reapply value: the same state again, answered with the value
    annotate(client, "wave-1");
    ControllerStatus reapplied = awaitStatus(client, s -> s.lastApplyResult != null
        && "wave-1".equals(s.lastApplyResult.trigger));
    assertThat(reapplied.lastApplyResult.succeeded).isTrue();
    assertThat(reapplied.lastApplyResult.message).isEqualTo("applied");
    assertThat(gateway.desiredStates(id)).hasSize(2).extracting(DesiredState::getBundleDigest).containsOnly(digest);
    // passes that see the same value push nothing more
    reportsAt(client, id, "2.479.5", digest);
    assertThat(gateway.desiredStates(id)).hasSize(2);

    // a value that arrives while a push is under way is served by a push after it
    gateway.holdDesiredStates();
    try {
      annotate(client, "wave-2");
      await().atMost(DEADLINE).until(() -> gateway.desiredStates(id).size() == 3);
      annotate(client, "wave-3");
      assertThat(status(client).lastApplyResult.trigger).as("nothing answered yet").isEqualTo("wave-1");
    } finally {
      gateway.releaseDesiredStates();
    }
    awaitStatus(client, s -> s.lastApplyResult != null && "wave-3".equals(s.lastApplyResult.trigger));
    assertThat(gateway.desiredStates(id)).as("one push for wave-2, one after it for wave-3").hasSize(4);

    // the operator restarts: the value it served is in status, so it pushes nothing for it again
    operator.stop();
    startOperator(client);
    reportsAt(client, id, "2.479.6", digest);
    await().atMost(DEADLINE).until(() -> reconciler.completedPasses() >= 1);
    assertThat(gateway.desiredStates(id)).as("wave-3 was served before the restart").hasSize(4);
    assertThat(status(client).lastApplyResult.trigger).isEqualTo("wave-3");

    // and it does serve a new value
    annotate(client, "wave-4");
    awaitStatus(client, s -> s.lastApplyResult != null && "wave-4".equals(s.lastApplyResult.trigger));
    assertThat(gateway.desiredStates(id)).hasSize(5);
  }

  /** The mite reports anew (a new Jenkins version, the digest it holds); returns once status shows that report. */
  private void reportsAt(KubernetesClient client, ControllerIdentity id, String jenkinsVersion, String digest)
      throws Exception {
    gateway.connect(id, Instant.now(), observed(jenkinsVersion, digest));
    awaitStatus(client, s -> s.miteStatus != null && jenkinsVersion.equals(s.miteStatus.jenkinsVersion));
  }

  private static ObservedState observed(String jenkinsVersion, String appliedDigest) {
    return ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion(jenkinsVersion)
        .setAppliedBundleDigest(appliedDigest).build();
  }

  /** A merge patch without resourceVersion: the operator writes status at the same time. */
  private static void annotate(KubernetesClient client, String value) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName("app").patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + ControllerAnnotations.REAPPLY + "\":\"" + value + "\"}}}");
  }

  private static StatefulSet statefulSet(KubernetesClient client, String name) {
    return client.apps().statefulSets().inNamespace(NAMESPACE).withName(name).get();
  }

  private static ControllerStatus status(KubernetesClient client) {
    return client.resources(Controller.class).inNamespace(NAMESPACE).withName("app").get().getStatus();
  }

  private static ControllerStatus awaitStatus(KubernetesClient client, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> status(client), s -> s != null && wanted.test(s));
  }
}

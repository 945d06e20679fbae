package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.controller.ControllerSettings;
import dev.varroa.operator.controller.KubeletStandIn;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * varroa.dev/hibernate-now end to end on a real API server and a real NATS (docs/hibernation.md, "Hibernate now"): the
 * operator (the Controller reconciler, as the chart's ServiceAccount under the chart's RBAC) refuses a request while
 * builds run and answers it once, parks a recently used controller on a new value by the inactivity policy's own path
 * (replicas 0, the Service's traffic to the waker), answers "Parked" for a parked one, names the missing
 * spec.hibernation.idleMinutes, and after a restart does not act on a value it answered. The gateway and the kubelet
 * are played.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HibernateNowIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String NAMESPACE = "hibernate-now";
  private static final String WAKER_NAMESPACE = ChartRbac.NAMESPACE;
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String OPERATOR_POD_IP = "10.244.1.18";

  private final MovableClock clock = new MovableClock();
  private final List<ControlChannel> channels = new ArrayList<>();
  private ServiceAccountClient account;
  private PlayedGateway gateway;
  private Waker waker;
  private Operator operator;
  private ControllerReconciler reconciler;
  private KubeletStandIn kubelet;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(admin, null);
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "operator-hibernate-now");
    kubelet = new KubeletStandIn(admin);
    gateway = new PlayedGateway(NATS.server().connect());
    waker = Waker.start(account.client(), 0, HibernationSettings.withoutWakerService(), clock);
    // the EndpointSlice controller's part: the chart's varroa-waker Service lists the operator replica's pod
    admin.resource(new EndpointSliceBuilder().withNewMetadata().withName("varroa-waker-h8m2q")
        .withNamespace(WAKER_NAMESPACE).withLabels(Map.of(WakerRoute.SERVICE_NAME_LABEL, "varroa-waker",
            WakerRoute.MANAGED_BY_LABEL, WakerRoute.KUBERNETES_MANAGER)).endMetadata()
        .withAddressType("IPv4")
        .addNewEndpoint().withAddresses(OPERATOR_POD_IP).withNewConditions().withReady(true).endConditions().endEndpoint()
        .addNewPort().withName("waker").withPort(waker.port()).withProtocol("TCP").endPort()
        .build()).create();
    startOperator();
  }

  /** An operator as it starts in a fresh process: its own reconciler and control channel, nothing in memory. */
  private void startOperator() throws Exception {
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:9090", "", JenkinsTokenIssuer.generate(), java.time.Clock.systemUTC());
    channels.add(channel);
    reconciler = new ControllerReconciler(clock, ControllerSettings.defaults().withHibernation(new HibernationSettings(0,
        Optional.of(new HibernationSettings.WakerService(WAKER_NAMESPACE, "varroa-waker")))), channel,
        new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)),
        (controller, zone, after) -> new InactivityPolicy.Timers.Known(Optional.empty()));
    operator = new Operator(o -> o.withKubernetesClient(account.client()).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(clock));
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
    if (waker != null) {
      waker.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    assertThat(account.forbidden()).as("requests the chart's RBAC refused to " + account.user()).isEmpty();
  }

  @Test
  void parksOnlyWithNoBuildRunningAnswersEachValueOnceAndNotAgainAfterARestart(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    Controller created = create(admin, "nightly", "{hibernation: {idleMinutes: 30}}");
    ControllerIdentity id = identity(created);
    String service = "nightly-" + id.uid().substring(0, 8);
    runPod(admin, service);
    // used a minute ago: the inactivity policy alone would not park it for another 29 minutes
    gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), observed("2.479.3", 2));
    awaitStatus(admin, "nightly", s -> s.phase == ControllerStatus.Phase.Connected);

    annotate(admin, "nightly", ControllerAnnotations.HIBERNATE_NOW, "h1");
    ControllerStatus refused = awaitStatus(admin, "nightly", s -> "h1".equals(s.hibernation.lastHibernateRequest));
    assertThat(refused.hibernation.lastHibernateOutcome).startsWith("2 builds running on Controller " + NAMESPACE
        + "/nightly").contains("fix: ask again with a new varroa.dev/hibernate-now value");
    assertThat(refused.phase).isEqualTo(ControllerStatus.Phase.Connected);

    // the builds end: h1 was answered, it is not retried
    reportsAt(admin, id, "nightly", "2.479.4", 0);
    ControllerStatus idle = status(admin, "nightly");
    assertThat(idle.phase).isEqualTo(ControllerStatus.Phase.Connected);
    assertThat(idle.hibernation.since).isNull();
    assertThat(idle.hibernation.lastHibernateOutcome).isEqualTo(refused.hibernation.lastHibernateOutcome);
    assertThat(statefulSet(admin, service).getSpec().getReplicas()).isEqualTo(1);

    // a new value parks it by the policy's own path: no replica, the Service's traffic to the waker
    annotate(admin, "nightly", ControllerAnnotations.HIBERNATE_NOW, "h2");
    ControllerStatus parked = awaitStatus(admin, "nightly", s -> s.phase == ControllerStatus.Phase.Hibernated);
    assertThat(parked.hibernation.lastHibernateRequest).isEqualTo("h2");
    assertThat(parked.hibernation.lastHibernateOutcome).isEqualTo("Parked");
    assertThat(parked.hibernation.since).isNotNull();
    assertThat(parked.hibernation.reason).startsWith("parked on request (varroa.dev/hibernate-now h2)");
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 0);
    EndpointSlice slice = await().atMost(DEADLINE).until(() -> admin.discovery().v1().endpointSlices()
        .inNamespace(NAMESPACE).withName(service + "-waker").get(), s -> s != null);
    assertThat(slice.getEndpoints()).flatExtracting(e -> e.getAddresses()).containsExactly(OPERATOR_POD_IP);
    await().atMost(DEADLINE).until(() -> admin.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
        .anyMatch(e -> "Hibernated".equals(e.getReason()) && e.getMessage().contains("hibernate-now h2")));
    admin.pods().inNamespace(NAMESPACE).withName(service + "-0").withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> admin.pods().inNamespace(NAMESPACE).withName(service + "-0").get() == null);
    gateway.disconnect(id);

    // asked again while parked: it already is
    annotate(admin, "nightly", ControllerAnnotations.HIBERNATE_NOW, "h3");
    ControllerStatus again = awaitStatus(admin, "nightly", s -> "h3".equals(s.hibernation.lastHibernateRequest));
    assertThat(again.hibernation.lastHibernateOutcome).isEqualTo("Parked");
    assertThat(again.hibernation.since).isEqualTo(parked.hibernation.since);

    // woken and up again, then the operator restarts: h3 was answered, so the new operator does not park it
    annotate(admin, "nightly", ControllerAnnotations.WAKE, "w1");
    awaitStatus(admin, "nightly", s -> s.hibernation.since == null);
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 1);
    runPod(admin, service);
    gateway.connect(id, clock.instant(), observed("2.479.4", 0));
    awaitStatus(admin, "nightly", s -> s.phase == ControllerStatus.Phase.Connected);
    operator.stop();
    startOperator();
    reportsAt(admin, id, "nightly", "2.479.5", 0);
    ControllerStatus restarted = status(admin, "nightly");
    assertThat(restarted.phase).isEqualTo(ControllerStatus.Phase.Connected);
    assertThat(restarted.hibernation.since).isNull();
    assertThat(restarted.hibernation.lastHibernateRequest).isEqualTo("h3");
    assertThat(statefulSet(admin, service).getSpec().getReplicas()).isEqualTo(1);
  }

  @Test
  void namesTheMissingIdleMinutesAndTheFix(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    Controller created = create(admin, "plain", "{}");
    ControllerIdentity id = identity(created);
    runPod(admin, "plain-" + id.uid().substring(0, 8));
    gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), observed("2.479.3", 0));
    awaitPhase(admin, "plain", ControllerStatus.Phase.Connected);

    annotate(admin, "plain", ControllerAnnotations.HIBERNATE_NOW, "now");

    ControllerStatus answered = await().atMost(DEADLINE).until(() -> status(admin, "plain"),
        s -> s.hibernation != null && "now".equals(s.hibernation.lastHibernateRequest));
    assertThat(answered.hibernation.lastHibernateOutcome).isEqualTo("Controller " + NAMESPACE + "/plain has no"
        + " spec.hibernation.idleMinutes, so it cannot hibernate; fix: set spec.hibernation.idleMinutes");
    assertThat(answered.phase).isEqualTo(ControllerStatus.Phase.Connected);
    assertThat(answered.hibernation.since).isNull();
  }

  /** The mite reports anew (a new Jenkins version, running builds); returns once status shows that report. */
  private void reportsAt(KubernetesClient admin, ControllerIdentity id, String name, String jenkinsVersion,
      int runningBuilds) throws Exception {
    gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), observed(jenkinsVersion, runningBuilds));
    await().atMost(DEADLINE).until(() -> status(admin, name), s -> s != null && s.miteStatus != null
        && jenkinsVersion.equals(s.miteStatus.jenkinsVersion));
  }

  /** Jenkins as the mite reports it: used a minute ago, with this many builds running. */
  private ObservedState observed(String jenkinsVersion, int runningBuilds) {
    return ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion(jenkinsVersion)
        .setRunningBuilds(runningBuilds)
        .setLastUserRequestEpochMillis(clock.instant().minus(Duration.ofMinutes(1)).toEpochMilli()).build();
  }

  private void runPod(KubernetesClient admin, String service) {
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service) != null);
    Pod pod = kubelet.createPod(statefulSet(admin, service));
    kubelet.ready(pod);
  }

  /** A merge patch without resourceVersion: the operator writes status at the same time. */
  private static void annotate(KubernetesClient client, String name, String annotation, String value) {
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + annotation + "\":\"" + value + "\"}}}");
  }

  private static Controller create(KubernetesClient client, String name, String spec) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s}
        spec: %s
        """.formatted(name, NAMESPACE, spec), Controller.class)).create();
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(NAMESPACE, controller.getMetadata().getName(), controller.getMetadata().getUid());
  }

  private static StatefulSet statefulSet(KubernetesClient client, String name) {
    return client.apps().statefulSets().inNamespace(NAMESPACE).withName(name).get();
  }

  private static ControllerStatus status(KubernetesClient client, String name) {
    return client.resources(Controller.class).inNamespace(NAMESPACE).withName(name).get().getStatus();
  }

  private static void awaitPhase(KubernetesClient client, String name, ControllerStatus.Phase phase) {
    await().atMost(DEADLINE).until(() -> status(client, name), s -> s != null && s.phase == phase);
  }

  private static ControllerStatus awaitStatus(KubernetesClient client, String name,
      Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> status(client, name), s -> s != null && s.hibernation != null
        && wanted.test(s));
  }
}

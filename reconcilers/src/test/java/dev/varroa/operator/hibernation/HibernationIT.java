package dev.varroa.operator.hibernation;

import dev.varroa.operator.controller.ControllerSettings;
import dev.varroa.gateway.GatewaySettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.controller.KubeletStandIn;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.CommandResult;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
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
 * Hibernation end to end on a real API server and a real NATS: the operator (the Controller reconciler, acting as
 * the chart's ServiceAccount under the chart's RBAC) parks an idle Controller, its Service goes to the waker, a
 * browser visit wakes it, a webhook that arrives while it starts is kept and, once it is Connected, replayed
 * through the control channel and deleted. The gateway and the kubelet are played; the clock is moved ahead, so an
 * idle period passes at once.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HibernationIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final String NAMESPACE = "nightly-builds";
  private static final String WAKER_NAMESPACE = ChartRbac.NAMESPACE;
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  /** The next timer-triggered job of every controller here: far enough to park, near enough to see its wake. */
  private static final Duration NEXT_TIMER = Duration.ofHours(6);
  private static final String OPERATOR_POD_IP = "10.244.1.17";

  private final MovableClock clock = new MovableClock();
  private ServiceAccountClient account;
  private PlayedGateway gateway;
  private Waker waker;
  private Operator operator;
  private KubeletStandIn kubelet;

  @BeforeAll
  void start(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(admin, null);
    account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "operator-hibernation");
    KubernetesClient client = account.client();
    kubelet = new KubeletStandIn(admin);
    gateway = new PlayedGateway(NATS.server().connect());
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:9090", "",
        JenkinsTokenIssuer.generate(), java.time.Clock.systemUTC());

    waker = Waker.start(client, 0, HibernationSettings.withoutWakerService(), clock);
    // the EndpointSlice controller's part: the chart's varroa-waker Service lists the operator replica's pod (the
    // API server refuses loopback addresses in a slice; the test itself reaches the waker on loopback)
    admin.resource(new EndpointSliceBuilder().withNewMetadata().withName("varroa-waker-x7k2p")
        .withNamespace(WAKER_NAMESPACE).withLabels(Map.of(WakerRoute.SERVICE_NAME_LABEL, "varroa-waker",
            WakerRoute.MANAGED_BY_LABEL, WakerRoute.KUBERNETES_MANAGER)).endMetadata()
        .withAddressType("IPv4")
        .addNewEndpoint().withAddresses(OPERATOR_POD_IP).withNewConditions().withReady(true).endConditions().endEndpoint()
        .addNewPort().withName("waker").withPort(waker.port()).withProtocol("TCP").endPort()
        .build()).create();

    JobSchedules schedules = (controller, zone, after) ->
        new InactivityPolicy.Timers.Known(Optional.of(after.plus(NEXT_TIMER)));
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(clock));
    operator.register(new ControllerReconciler(clock, ControllerSettings.defaults().withHibernation(new HibernationSettings(0,
            Optional.of(new HibernationSettings.WakerService(WAKER_NAMESPACE, "varroa-waker")))),
        channel, new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)), schedules));
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (operator != null) {
      operator.stop();
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
  void parksAnIdleControllerWakesItOnAVisitAndReplaysTheWebhookKeptMeanwhile(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    Controller created = create(admin, "nightly");
    ControllerIdentity id = identity(created);
    String service = "nightly-" + id.uid().substring(0, 8);
    connectedAndIdle(admin, created);

    // an idle period later (the clock moves; the mite's next report starts the pass)
    clock.advance(Duration.ofMinutes(31));
    gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), idleLongEnough());
    Controller parked = awaitStatus(admin, "nightly", s -> s.phase == ControllerStatus.Phase.Hibernated);

    assertThat(parked.getStatus().hibernation.since).isNotNull();
    assertThat(parked.getStatus().hibernation.reason).contains("no UI or API use for 30 min");
    assertThat(Instant.parse(parked.getStatus().hibernation.nextTimerWakeAt))
        .isAfter(clock.instant().plus(NEXT_TIMER).minus(Duration.ofMinutes(10)));
    assertThat(parked.getStatus().condition(Condition.READY)).get().extracting(c -> c.status)
        .isEqualTo(Condition.Status.True);
    assertThat(parked.getStatus().attention).as("a parked mite is away, not lost").isNull();
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 0);
    Service routed = awaitService(admin, service, s -> s.getSpec().getSelector() == null
        || s.getSpec().getSelector().isEmpty());
    assertThat(routed.getSpec().getPorts()).extracting(p -> p.getName()).contains("http", "agent");
    EndpointSlice slice = await().atMost(DEADLINE).until(() -> admin.discovery().v1().endpointSlices()
        .inNamespace(NAMESPACE).withName(service + "-waker").get(), s -> s != null);
    assertThat(slice.getMetadata().getLabels()).containsEntry(WakerRoute.SERVICE_NAME_LABEL, service);
    assertThat(slice.getEndpoints()).flatExtracting(e -> e.getAddresses()).containsExactly(OPERATOR_POD_IP);
    assertThat(slice.getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("http");
      assertThat(p.getPort()).isEqualTo(waker.port());
    });
    // the StatefulSet controller's part: the pod goes; the mite's stream with it
    admin.pods().inNamespace(NAMESPACE).withName(service + "-0").withGracePeriod(0).delete();
    gateway.disconnect(id);

    // a browser at the Service's name gets the waker's page, and wakes the controller
    String page = http("GET", service + "." + NAMESPACE + ".svc.cluster.local:8080", "/job/nightly/", new byte[0]);
    assertThat(page).startsWith("HTTP/1.1 503").contains("Jenkins nightly is starting");
    Controller waking = awaitStatus(admin, "nightly", s -> s.hibernation.since == null
        && "browser".equals(s.hibernation.lastWakeSource));
    assertThat(waking.getStatus().phase).isEqualTo(ControllerStatus.Phase.Provisioning);
    assertThat(waking.getStatus().hibernation.lastWakeAt).isNotNull();
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 1);
    assertThat(admin.services().inNamespace(NAMESPACE).withName(service).get().getSpec().getSelector())
        .as("the waker keeps the traffic until the woken pod is ready").isNullOrEmpty();

    // a webhook while Jenkins starts is kept
    byte[] push = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
    String accepted = http("POST", service + "." + NAMESPACE + ".svc:8080", "/github-webhook/", push,
        "X-GitHub-Event", "push", "X-Hub-Signature-256", "sha256=feed", "Content-Type", "application/json");
    assertThat(accepted).startsWith("HTTP/1.1 202");
    awaitStatus(admin, "nightly", s -> s.hibernation.pendingDeliveries != null && s.hibernation.pendingDeliveries == 1);

    // Jenkins is up: the Service selects it again, the visit is consumed, the delivery replayed and deleted
    Pod pod = kubelet.createPod(statefulSet(admin, service));
    kubelet.ready(pod);
    gateway.connect(id, clock.instant(), idle());
    Controller connected = awaitStatus(admin, "nightly", s -> s.phase == ControllerStatus.Phase.Connected
        && s.hibernation.pendingDeliveries == null);
    assertThat(connected.getStatus().hibernation.lastWakeSource).isEqualTo("browser");
    awaitService(admin, service, s -> s.getSpec().getSelector() != null && !s.getSpec().getSelector().isEmpty());
    await().atMost(DEADLINE).until(() -> admin.discovery().v1().endpointSlices().inNamespace(NAMESPACE)
        .withName(service + "-waker").get() == null);
    assertThat(gateway.replayed()).filteredOn(r -> r.getPath().startsWith("/github-webhook/"))
        .singleElement().satisfies(replay -> {
      assertThat(replay.getMethod()).isEqualTo("POST");
      assertThat(replay.getPath()).isEqualTo("/github-webhook/");
      assertThat(replay.getBody().toByteArray()).isEqualTo(push);
      assertThat(replay.getHeadersList()).anySatisfy(h -> {
        assertThat(h.getName()).isEqualToIgnoringCase("X-Hub-Signature-256");
        assertThat(h.getValue()).isEqualTo("sha256=feed");
      });
    });
    await().atMost(DEADLINE).until(() -> wakeRequests(admin).isEmpty());
  }

  @Test
  void wakesOnANewWakeAnnotationAndAheadOfItsNextTimerJob(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    Controller created = create(admin, "weekly");
    ControllerIdentity id = identity(created);
    String service = "weekly-" + id.uid().substring(0, 8);
    connectedAndIdle(admin, created);
    park(admin, id, service, "weekly");

    // a merge patch without resourceVersion: the operator writes status at the same time
    admin.resources(Controller.class).inNamespace(NAMESPACE).withName("weekly").patch(
        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + ControllerAnnotations.WAKE + "\":\"2026-06-01T09:00\"}}}");
    Controller woken = awaitStatus(admin, "weekly", s -> s.hibernation.since == null);
    assertThat(woken.getStatus().hibernation.lastWakeSource).isEqualTo("annotation");
    assertThat(woken.getStatus().hibernation.lastWakeRequest).isEqualTo("2026-06-01T09:00");
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 1);

    // up again, idle again, parked again: then its timer comes due
    Pod pod = kubelet.createPod(statefulSet(admin, service));
    kubelet.ready(pod);
    gateway.connect(id, clock.instant(), idle());
    awaitStatus(admin, "weekly", s -> s.phase == ControllerStatus.Phase.Connected);
    park(admin, id, service, "weekly");
    Instant timerWake = Instant.parse(admin.resources(Controller.class).inNamespace(NAMESPACE).withName("weekly")
        .get().getStatus().hibernation.nextTimerWakeAt);

    clock.advance(Duration.between(clock.instant(), timerWake).plusSeconds(5));
    gateway.connect(id, clock.instant(), idle());
    gateway.disconnect(id);
    Controller timer = awaitStatus(admin, "weekly", s -> s.hibernation.since == null);
    assertThat(timer.getStatus().hibernation.lastWakeSource).isEqualTo("timer");
    assertThat(timer.getStatus().hibernation.lastWakeRequest).as("the annotation is not acted on twice")
        .isEqualTo("2026-06-01T09:00");
  }

  @Test
  void dropsADeliveryJenkinsRefusesAndSaysSoInAnEvent(KubeApiServer kube) throws Exception {
    KubernetesClient admin = kube.client();
    Controller created = create(admin, "refusing");
    ControllerIdentity id = identity(created);
    String service = "refusing-" + id.uid().substring(0, 8);
    connectedAndIdle(admin, created);
    park(admin, id, service, "refusing");
    gateway.answerReplays(d -> CommandResult.newBuilder().setOutcome(CommandResult.Outcome.FAILED)
        .setJenkinsStatus(403).setMessage("No valid crumb was included in the request"));
    try {
      assertThat(http("POST", "refusing-" + id.uid().substring(0, 8) + "." + NAMESPACE, "/generic-webhook-trigger/invoke",
          new byte[] {'{', '}'})).startsWith("HTTP/1.1 202");
      awaitStatus(admin, "refusing", s -> "webhook".equals(s.hibernation.lastWakeSource));

      Pod pod = kubelet.createPod(statefulSet(admin, service));
      kubelet.ready(pod);
      gateway.connect(id, clock.instant(), idle());

      await().atMost(DEADLINE).until(() -> admin.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
          .anyMatch(e -> "DeliveryDropped".equals(e.getReason()) && e.getMessage().contains("HTTP 403")));
      awaitStatus(admin, "refusing", s -> s.phase == ControllerStatus.Phase.Connected
          && s.hibernation.pendingDeliveries == null);
    } finally {
      gateway.answerReplays(d -> CommandResult.newBuilder().setOutcome(CommandResult.Outcome.SUCCEEDED)
          .setJenkinsStatus(200));
    }
  }

  /** Runs the controller's pod; its mite reports Jenkins connected for two hours, and used just now. */
  private void connectedAndIdle(KubernetesClient admin, Controller created) throws Exception {
    String service = created.getMetadata().getName() + "-" + created.getMetadata().getUid().substring(0, 8);
    await().atMost(DEADLINE).until(() -> admin.apps().statefulSets().inNamespace(NAMESPACE).withName(service).get()
        != null);
    Pod pod = kubelet.createPod(statefulSet(admin, service));
    kubelet.ready(pod);
    gateway.connect(identity(created), clock.instant().minus(Duration.ofHours(2)), idle());
    awaitStatus(admin, created.getMetadata().getName(), s -> s.phase == ControllerStatus.Phase.Connected);
  }

  /** Moves an idle period ahead and waits for the park; plays the pod's and the stream's end. */
  private void park(KubernetesClient admin, ControllerIdentity id, String service, String name) throws Exception {
    clock.advance(Duration.ofMinutes(31));
    gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), idleLongEnough());
    awaitStatus(admin, name, s -> s.phase == ControllerStatus.Phase.Hibernated);
    await().atMost(DEADLINE).until(() -> statefulSet(admin, service).getSpec().getReplicas() == 0);
    admin.pods().inNamespace(NAMESPACE).withName(service + "-0").withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> admin.pods().inNamespace(NAMESPACE).withName(service + "-0").get() == null);
    gateway.disconnect(id);
  }

  /** Nothing runs or waits; someone last used the UI or API at {@code lastUse}. */
  private static ObservedState idleSince(Instant lastUse) {
    return ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion("2.479.3")
        .setLastUserRequestEpochMillis(lastUse.toEpochMilli()).build();
  }

  /** Idle since just now. */
  private ObservedState idle() {
    return idleSince(clock.instant());
  }

  /** Idle for longer than the controllers' 30 idle minutes. */
  private ObservedState idleLongEnough() {
    return idleSince(clock.instant().minus(Duration.ofMinutes(31)));
  }

  private static Controller create(KubernetesClient client, String name) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s, annotations: {team: ci}}
        spec: {hibernation: {idleMinutes: 30}}
        """.formatted(name, NAMESPACE), Controller.class)).create();
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(NAMESPACE, controller.getMetadata().getName(), controller.getMetadata().getUid());
  }

  private static StatefulSet statefulSet(KubernetesClient client, String name) {
    return client.apps().statefulSets().inNamespace(NAMESPACE).withName(name).get();
  }

  private static List<Secret> wakeRequests(KubernetesClient client) {
    return client.secrets().inNamespace(NAMESPACE).withLabel(WakeRequests.KIND_LABEL).list().getItems();
  }

  private static Controller awaitStatus(KubernetesClient client, String name, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName(name).get(), c -> c.getStatus() != null && c.getStatus().hibernation != null
        && wanted.test(c.getStatus()));
  }

  private static Service awaitService(KubernetesClient client, String name, Predicate<Service> wanted) {
    return await().atMost(DEADLINE).until(() -> client.services().inNamespace(NAMESPACE).withName(name).get(),
        s -> s != null && wanted.test(s));
  }

  private String http(String method, String host, String path, byte[] body, String... headers) throws IOException {
    return WakerRequest.send(waker.port(), method, host, path, body, headers);
  }

}

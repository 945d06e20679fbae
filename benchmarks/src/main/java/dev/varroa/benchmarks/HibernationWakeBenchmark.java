package dev.varroa.benchmarks;

import dev.varroa.operator.controller.ControllerSettings;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.benchmarks.latency.Percentiles;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.controller.KubeletStandIn;
import dev.varroa.operator.hibernation.HibernationSettings;
import dev.varroa.operator.hibernation.InactivityPolicy;
import dev.varroa.operator.hibernation.JobSchedules;
import dev.varroa.operator.hibernation.MovableClock;
import dev.varroa.operator.hibernation.PlayedGateway;
import dev.varroa.operator.hibernation.Waker;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.protocol.mite.v1.ObservedState;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * Wake time of a hibernated controller (issue 15): parks and wakes one Controller N times (default 30) on a real API
 * server and NATS, with the operator's Controller reconciler and its waker in this JVM. Each wake starts with a
 * browser's GET at the waker and ends when the Controller is Connected again and its Service selects the pod, with
 * the StatefulSet controller, the kubelet and the mite played at once (a pod is created and ready, and its mite
 * connected, the moment the StatefulSet asks for one): the operator's part of a wake, without Jenkins' own boot.
 * Prints p50 and p95 of the scale-up and of the whole wake, the p95 last. Run: make bench-hibernation.
 */
public final class HibernationWakeBenchmark {
  private static final int WAKES = 30;
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String NAMESPACE = "bench-hibernation";
  private static final String WAKER_NAMESPACE = "varroa-system";
  private static final String OPERATOR_POD_IP = "10.244.1.17";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();

  private HibernationWakeBenchmark() {}

  public static void main(String[] args) throws Exception {
    int wakes = args.length > 0 ? Integer.parseInt(args[0]) : WAKES;
    new HibernationWakeBenchmark().run(wakes);
    // JOSDK's and fabric8's pools keep no JVM alive for long, but the figures are out: end now
    System.exit(0);
  }

  private void run(int wakes) throws Exception {
    MovableClock clock = new MovableClock();
    List<Duration> scaled = new ArrayList<>();
    List<Duration> woken = new ArrayList<>();
    List<Duration> parked = new ArrayList<>();
    try (KubeApiServer kube = KubeApiServer.start(); NatsServerProcess nats = NatsServerProcess.start()) {
      kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
      KubernetesClient client = kube.client();
      for (String namespace : List.of(NAMESPACE, WAKER_NAMESPACE)) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
            .build()).create();
      }
      StarterProfile.install(client, null);
      PlayedGateway gateway = new PlayedGateway(nats.value().connect());
      ControlChannel channel = new ControlChannel(nats.value().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
          "127.0.0.1:9090", "",
          JenkinsTokenIssuer.generate(), Clock.systemUTC());
      Waker waker = Waker.start(client, 0, HibernationSettings.withoutWakerService(), clock);
      client.resource(new EndpointSliceBuilder().withNewMetadata().withName("varroa-waker-bench")
          .withNamespace(WAKER_NAMESPACE).withLabels(Map.of("kubernetes.io/service-name", "varroa-waker")).endMetadata()
          .withAddressType("IPv4")
          .addNewEndpoint().withAddresses(OPERATOR_POD_IP).withNewConditions().withReady(true).endConditions()
          .endEndpoint()
          .addNewPort().withName("waker").withPort(waker.port()).withProtocol("TCP").endPort().build()).create();
      JobSchedules schedules = (controller, zone, after) ->
          new InactivityPolicy.Timers.Known(Optional.of(after.plus(Duration.ofDays(1))));
      Operator operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
      operator.register(new JenkinsVersionProfileReconciler(clock));
      operator.register(new ControllerReconciler(clock, ControllerSettings.defaults().withHibernation(new HibernationSettings(0,
              Optional.of(new HibernationSettings.WakerService(WAKER_NAMESPACE, "varroa-waker")))),
          channel, new ControllerActivity(ActivityPublisher.withoutBus("bench", ControllerReconciler.ACTOR)), schedules));
      operator.start();

      Controller controller = client.resource(YAML.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: Controller
          metadata: {name: sleeper, namespace: %s}
          spec: {hibernation: {idleMinutes: 30}}
          """.formatted(NAMESPACE), Controller.class)).create();
      ControllerIdentity id = new ControllerIdentity(NAMESPACE, "sleeper", controller.getMetadata().getUid());
      String name = "sleeper-" + id.uid().substring(0, 8);
      KubeletStandIn kubelet = new KubeletStandIn(client);

      SharedIndexInformer<StatefulSet> statefulSets = client.apps().statefulSets().inNamespace(NAMESPACE).inform();
      SharedIndexInformer<Pod> pods = client.pods().inNamespace(NAMESPACE).inform();
      SharedIndexInformer<Controller> controllers = client.resources(Controller.class).inNamespace(NAMESPACE).inform();
      SharedIndexInformer<Service> services = client.services().inNamespace(NAMESPACE).inform();
      // the StatefulSet controller, the kubelet and the mite, played the moment the StatefulSet asks for a pod
      statefulSets.addEventHandler(handler(() -> {
        StatefulSet sts = statefulSets.getStore().getByKey(NAMESPACE + "/" + name);
        if (sts != null && sts.getSpec().getReplicas() == 1 && pods.getStore().getByKey(NAMESPACE + "/" + name + "-0")
            == null && client.pods().inNamespace(NAMESPACE).withName(name + "-0").get() == null) {
          Pod pod = kubelet.createPod(sts);
          kubelet.ready(pod);
          try {
            gateway.connect(id, clock.instant(), used(clock));
          } catch (Exception e) {
            throw new IllegalStateException("the played mite could not connect: " + e.getMessage(), e);
          }
        }
      }));
      pods.addEventHandler(handler(() -> { }));
      controllers.addEventHandler(handler(() -> { }));
      services.addEventHandler(handler(() -> { }));
      awaitUntil("the first Connected", () -> phase(controllers, ControllerStatus.Phase.Connected));

      for (int i = 0; i < wakes; i++) {
        long parkStart = System.nanoTime();
        clock.advance(Duration.ofMinutes(31));
        gateway.connect(id, clock.instant().minus(Duration.ofHours(2)), usedAt(clock.instant().minus(
            Duration.ofMinutes(31))));
        awaitUntil("Hibernated", () -> phase(controllers, ControllerStatus.Phase.Hibernated)
            && replicas(statefulSets, name) == 0 && !selects(services, name));
        parked.add(Duration.ofNanos(System.nanoTime() - parkStart));
        client.pods().inNamespace(NAMESPACE).withName(name + "-0").withGracePeriod(0).delete();
        awaitUntil("the parked pod gone", () -> pods.getStore().getByKey(NAMESPACE + "/" + name + "-0") == null);
        gateway.disconnect(id);

        long start = System.nanoTime();
        String page = visit(waker.port(), name + "." + NAMESPACE + ".svc.cluster.local:8080");
        if (!page.startsWith("HTTP/1.1 503")) {
          throw new IllegalStateException("the waker did not answer with its page: " + page.lines().findFirst());
        }
        awaitUntil("the StatefulSet scaled up", () -> replicas(statefulSets, name) == 1);
        scaled.add(Duration.ofNanos(System.nanoTime() - start));
        awaitUntil("Connected with the Service on the pod", () -> phase(controllers, ControllerStatus.Phase.Connected)
            && selects(services, name));
        woken.add(Duration.ofNanos(System.nanoTime() - start));
        System.out.printf("wake %2d: scaled up after %4d ms, Connected and served by the pod after %4d ms%n", i + 1,
            scaled.get(i).toMillis(), woken.get(i).toMillis());
      }
      operator.stop();
      waker.close();
      gateway.close();
      channel.close();
    }
    System.out.printf("%d parks and wakes; load average %.2f on %d cores%n", wakes,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
        Runtime.getRuntime().availableProcessors());
    figure("hibernation_park_p50", Percentiles.of(parked, 0.5));
    figure("hibernation_wake_scale_p50", Percentiles.of(scaled, 0.5));
    figure("hibernation_wake_scale_p95", Percentiles.of(scaled, 0.95));
    figure("hibernation_wake_p50", Percentiles.of(woken, 0.5));
    figure("hibernation_wake_p95", Percentiles.of(woken, 0.95));
  }

  private static ObservedState used(MovableClock clock) {
    return usedAt(clock.instant());
  }

  private static ObservedState usedAt(java.time.Instant lastUse) {
    return ObservedState.newBuilder().setJenkinsReachable(true).setJenkinsVersion("2.479.3")
        .setLastUserRequestEpochMillis(lastUse.toEpochMilli()).build();
  }

  private static boolean phase(SharedIndexInformer<Controller> controllers, ControllerStatus.Phase phase) {
    Controller c = controllers.getStore().getByKey(NAMESPACE + "/sleeper");
    return c != null && c.getStatus() != null && c.getStatus().phase == phase;
  }

  private static int replicas(SharedIndexInformer<StatefulSet> statefulSets, String name) {
    StatefulSet sts = statefulSets.getStore().getByKey(NAMESPACE + "/" + name);
    return sts == null ? -1 : sts.getSpec().getReplicas();
  }

  private static boolean selects(SharedIndexInformer<Service> services, String name) {
    Service service = services.getStore().getByKey(NAMESPACE + "/" + name);
    return service != null && service.getSpec().getSelector() != null && !service.getSpec().getSelector().isEmpty();
  }

  /** A browser's GET at the waker, as kube-proxy delivers it for the Controller's Service. */
  private static String visit(int port, String host) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + host + "\r\nAccept: text/html\r\n"
          + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Runs the action, then wakes every waiter, on each informer event. */
  private <T> ResourceEventHandler<T> handler(Runnable action) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changed();
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        changed();
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        changed();
      }

      private void changed() {
        action.run();
        lock.lock();
        try {
          HibernationWakeBenchmark.this.changed.signalAll();
        } finally {
          lock.unlock();
        }
      }
    };
  }

  /** Waits for the condition, re-checked on every informer event (no polling), at most DEADLINE. */
  private void awaitUntil(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    lock.lock();
    try {
      while (!condition.getAsBoolean()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new IllegalStateException("no " + what + " within " + DEADLINE.toSeconds() + " s");
        }
        changed.await(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
      }
    } finally {
      lock.unlock();
    }
  }

  private static void figure(String name, Duration value) {
    System.out.printf("figure: %s %d ms%n", name, value.toMillis());
  }
}

package dev.varroa.benchmarks;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.BroodOperationStatus.TargetPhase;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.benchmarks.channel.FleetPhase;
import dev.varroa.benchmarks.channel.Teardown;
import dev.varroa.operator.bffresponders.ControllerListResponder;
import dev.varroa.operator.brood.BroodOperationReconciler;
import dev.varroa.operator.brood.BroodTargetResponder;
import dev.varroa.operator.brood.JenkinsOfController;
import dev.varroa.operator.brood.RemoteClusters;
import dev.varroa.operator.brood.TargetStepExecutor;
import dev.varroa.operator.cluster.ClusterBeacon;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.protocol.BusTopology;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import io.nats.client.Connection;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Issue 28's brood operation figures: one BroodOperation with a single reapplyConfiguration step over every Controller
 * of two clusters (each its own real kube-apiserver and etcd, one nats-server between them), maxConcurrent 50. The
 * core's operator (BroodOperationReconciler on a real JOSDK Operator, reaching the member over NATS) and the member's
 * operator side (its Controller list and BroodTargetResponder) run in this JVM, as BroodOperationIT assembles them.
 * The Controller reconciler's answer is played: a watch on each cluster's Controllers writes status.lastApplyResult
 * {succeeded, trigger, bundleDigest, appliedAt} for every new varroa.dev/reapply value, as the real operator does once
 * Jenkins applied the push. Prints its figures last, as {@code figure: NAME VALUE UNIT}.
 */
public final class BroodOperationBenchmark {

  private static final int CONTROLLERS_PER_CLUSTER = 500;
  private static final int MAX_CONCURRENT = 50;
  private static final int NAMESPACES = 10;
  private static final String CORE = "core";
  private static final String MEMBER = "member-1";
  private static final String OPS = "fleet-ops";
  private static final String OPERATION = "reapply-fleet";
  private static final Duration RUN_DEADLINE = Duration.ofMinutes(20);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(10);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private BroodOperationBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int perCluster = args.length > 0 ? Integer.parseInt(args[0]) : CONTROLLERS_PER_CLUSTER;
    int maxConcurrent = args.length > 1 ? Integer.parseInt(args[1]) : MAX_CONCURRENT;
    Map<String, String> figures = new LinkedHashMap<>();
    try (Teardown teardown = new Teardown()) {
      run(teardown, perCluster, maxConcurrent, figures);
    }
    System.out.println();
    figures.forEach((name, value) -> System.out.println("figure: " + name + " " + value));
    // the fabric8, JOSDK and NATS clients leave non-daemon threads behind; the teardown has stopped what matters.
    System.exit(0);
  }

  /** One cluster as the benchmark sees it: admin client, the engine's counting client, the Controller cache. */
  private record Cluster(String name, KubernetesClient admin, KubernetesClient engine, WriteCounter writes,
      SharedIndexInformer<Controller> controllers) {
  }

  private static void run(Teardown teardown, int perCluster, int maxConcurrent, Map<String, String> figures)
      throws Exception {
    System.out.printf("machine: %d cores, %s, load average %s (other work on this machine shares the cores)%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.version"), loadAverage());
    NatsServerProcess natsServer = teardown.add(NatsServerProcess.start());
    Connection coreBus = natsServer.value().connect();
    teardown.then(coreBus::close);
    Connection memberBus = natsServer.value().connect();
    teardown.then(memberBus::close);
    BusTopology.ensureClusters(coreBus);

    Cluster core = cluster(teardown, CORE, perCluster);
    Cluster member = cluster(teardown, MEMBER, perCluster);
    core.admin().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(OPS).endMetadata().build())
        .create();

    // the Controller reconciler's part, played: not what is measured
    PlayedApply coreApply = new PlayedApply(core);
    PlayedApply memberApply = new PlayedApply(member);
    teardown.then(coreApply::close);
    teardown.then(memberApply::close);

    // the member's operator side of the bus: its beacon, its Controller list, the targets the core hands it
    for (Cluster c : List.of(core, member)) {
      String version = c.admin().getKubernetesVersion().getGitVersion();
      ClusterBeacon beacon = new ClusterBeacon(() -> c == core ? coreBus : memberBus, c.name(),
          c == core ? ClusterRole.CORE : ClusterRole.MEMBER, () -> version, c.controllers().getStore()::list,
          Clock.systemUTC());
      beacon.start();
      teardown.then(beacon::close);
    }
    ControllerListResponder memberRows = new ControllerListResponder(memberBus, MEMBER,
        member.controllers().getStore()::list);
    memberRows.start();
    teardown.then(memberRows::close);
    BroodTargetResponder memberTargets = new BroodTargetResponder(memberBus, MEMBER, executor(member));
    memberTargets.start();
    teardown.then(memberTargets::close);

    // the core's operator: the engine under measurement
    BroodOperationReconciler reconciler = new BroodOperationReconciler(Clock.systemUTC(), () -> CORE,
        core.controllers().getStore()::list, executor(core));
    reconciler.reach(RemoteClusters.over(() -> coreBus));
    Operator operator = new Operator(o -> o.withKubernetesClient(core.engine()).withCloseClientOnStop(false));
    operator.register(reconciler);
    operator.start();
    teardown.then(operator::stop);

    OperationWatch watch = new OperationWatch();
    SharedIndexInformer<BroodOperation> informer = core.admin().resources(BroodOperation.class).inNamespace(OPS)
        .inform(watch);
    teardown.then(informer::close);

    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long heapBefore = heapAfterGc(memory);
    System.out.printf("heap used before the operation, after a GC: %.1f MiB (both clusters' caches, the played apply,"
        + " the idle operator)%n", heapBefore / 1048576.0);

    int total = 2 * perCluster;
    BroodOperation operation = YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: BroodOperation
        metadata: {name: %s, namespace: %s}
        spec:
          targets: {clusters: ["*"]}
          steps: [{type: reapplyConfiguration}]
          strategy: {maxConcurrent: %d}
        """.formatted(OPERATION, OPS, maxConcurrent), BroodOperation.class);
    watch.createdAt.set(System.nanoTime());
    core.admin().resource(operation).create();
    System.out.printf("BroodOperation %s/%s created: reapplyConfiguration over %d Controllers on 2 clusters,"
        + " maxConcurrent %d%n", OPS, OPERATION, total, maxConcurrent);

    long deadline = System.nanoTime() + RUN_DEADLINE.toNanos();
    long nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
    while (watch.finishedAt.get() == 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not finished within " + RUN_DEADLINE + "; last status: "
            + YAML.asYaml(watch.last.get() == null ? null : watch.last.get().counts));
      }
      if (System.nanoTime() > nextReport) {
        BroodOperationStatus last = watch.last.get();
        System.out.printf("  after %.0f s: %s%n", seconds(System.nanoTime() - watch.createdAt.get()),
            last == null || last.counts == null ? "no status yet" : "phase " + last.phase + ", succeeded "
                + last.counts.succeeded + ", running " + last.counts.running + ", pending " + last.counts.pending
                + ", status writes seen " + watch.statusWrites.get());
        nextReport += PROGRESS_EVERY.toNanos();
      }
      Thread.sleep(50);
    }
    long heapAfter = heapAfterGc(memory);

    BroodOperationStatus done = watch.last.get();
    if (done.phase != BroodOperationStatus.Phase.Succeeded || done.counts.succeeded != total) {
      throw new IllegalStateException("the operation ended " + done.phase + " (" + done.message + "), "
          + done.counts.succeeded + " of " + total + " targets succeeded");
    }
    int applied = coreApply.verifiedTriggers() + memberApply.verifiedTriggers();
    if (applied != total) {
      throw new IllegalStateException(applied + " of " + total + " Controllers hold a lastApplyResult whose trigger is"
          + " their varroa.dev/reapply value");
    }
    double wall = seconds(watch.finishedAt.get() - watch.createdAt.get());
    double firstRunning = (watch.firstRunningAt.get() - watch.createdAt.get()) / 1e6;
    long annotationPatches = core.writes().controllerPatches.get() + member.writes().controllerPatches.get();
    System.out.printf("%nphase Succeeded after %.1f s (%.1f targets/s); first target Running after %.0f ms"
        + " (target <= 2000 ms)%n", wall, total / wall, firstRunning);
    System.out.printf("BroodOperation status writes: %d seen by the watch (%d status PATCH requests sent by the"
        + " operator); Controller annotation patches by the engine: %d on %s, %d on %s; played lastApplyResult"
        + " writes: %d%n", watch.statusWrites.get(), core.writes().operationStatusPatches.get(), core.writes()
        .controllerPatches.get(), CORE, member.writes().controllerPatches.get(), MEMBER,
        coreApply.writes.get() + memberApply.writes.get());
    List<Duration> gaps = new java.util.ArrayList<>();
    for (int i = 1; i < watch.writeTimes.size(); i++) {
      gaps.add(Duration.ofNanos(watch.writeTimes.get(i) - watch.writeTimes.get(i - 1)));
    }
    System.out.printf("between status writes: p50 %.0f ms, max %.0f ms (the engine looks again 1 s after a pass with"
        + " targets in flight); status at the end: %d bytes of JSON%n", DashboardBenchmark.millis(
        dev.varroa.benchmarks.latency.Percentiles.of(gaps, 0.5)), DashboardBenchmark.millis(
        dev.varroa.benchmarks.latency.Percentiles.of(gaps, 1.0)), watch.lastStatusBytes.get());
    System.out.printf("most targets in flight at any status write: %d (limit %d)%n", watch.mostInFlight.get(),
        maxConcurrent);
    System.out.printf("heap used after the run, after a GC: %.1f MiB (%.1f MiB more than before the operation)%n",
        heapAfter / 1048576.0, (heapAfter - heapBefore) / 1048576.0);
    if (watch.mostInFlight.get() > maxConcurrent) {
      throw new IllegalStateException(watch.mostInFlight.get() + " targets in flight at one status write, over"
          + " maxConcurrent " + maxConcurrent);
    }

    figures.put("brood_wall_time_" + total + "_targets", String.format("%.1f s", wall));
    figures.put("brood_first_target_running", String.format("%.0f ms", firstRunning));
    figures.put("brood_operator_heap_after_run", String.format("%.1f MiB", heapAfter / 1048576.0));
    figures.put("brood_operator_heap_growth_over_run", String.format("%.1f MiB", (heapAfter - heapBefore) / 1048576.0));
    figures.put("brood_status_writes_per_target", String.format("%.3f count", watch.statusWrites.get()
        / (double) total));
    figures.put("brood_controller_writes_per_target", String.format("%.3f count", annotationPatches / (double) total));
    figures.put("brood_status_write_interval_p50", String.format("%.0f ms", DashboardBenchmark.millis(
        dev.varroa.benchmarks.latency.Percentiles.of(gaps, 0.5))));
    figures.put("brood_most_in_flight", watch.mostInFlight.get() + " targets");
    figures.put("brood_load_average_after", loadAverage() + " 1/5/15-min");
  }

  /** A real API server with the CRDs, its Controllers (status phase Connected) created in parallel, and a cache. */
  private static Cluster cluster(Teardown teardown, String name, int count) throws Exception {
    KubeApiServer kube = teardown.add(KubeApiServer.start());
    kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
    KubernetesClient admin = kube.client();
    for (int n = 0; n < NAMESPACES; n++) {
      admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace(n)).endMetadata()
          .build()).create();
    }
    long start = System.nanoTime();
    FleetPhase.run("create Controllers on " + name, count, 16, i -> {
      Controller controller = admin.resource(YAML.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: Controller
          metadata: {name: %s, namespace: %s, labels: {fleet: bench}}
          spec: {}
          """.formatted(String.format("jenkins-%04d", i), namespace(i % NAMESPACES)), Controller.class)).create();
      ControllerStatus status = new ControllerStatus();
      status.phase = ControllerStatus.Phase.Connected;
      ControllerStatus.ApplyResult apply = new ControllerStatus.ApplyResult();
      apply.succeeded = true;
      apply.bundleDigest = digest(controller);
      apply.appliedAt = "2026-12-01T19:59:00Z";
      status.lastApplyResult = apply;
      controller.setStatus(status);
      admin.resource(controller).updateStatus();
    }).requireAllDone();
    System.out.printf("%s: %d Controllers (phase Connected) in %d namespaces created in %.1f s%n", name, count,
        NAMESPACES, seconds(System.nanoTime() - start));
    SharedIndexInformer<Controller> cache = admin.resources(Controller.class).inAnyNamespace().inform();
    teardown.then(cache::close);
    DashboardBenchmark.await("the cache of " + name + " holds every Controller, Connected", () ->
        cache.getStore().list().stream().filter(c -> c.getStatus() != null
            && c.getStatus().phase == ControllerStatus.Phase.Connected).count() == count);
    WriteCounter writes = new WriteCounter();
    KubernetesClient engine = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(kube.kubeconfigYaml()))
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("brood-bench-writes", writes)).build();
    teardown.then(engine::close);
    return new Cluster(name, admin, engine, writes, cache);
  }

  private static TargetStepExecutor executor(Cluster cluster) {
    // reapplyConfiguration needs nothing of Jenkins beyond the Controller's status, which the played apply writes
    return new TargetStepExecutor(cluster.engine(), (ns, n) -> Optional.ofNullable(cluster.controllers().getStore()
        .getByKey(ns + "/" + n)), JenkinsOfController.NONE, Clock.systemUTC());
  }

  /** Counts the writes the engine's client sends: Controller patches, and BroodOperation status patches. */
  private static final class WriteCounter implements Interceptor {
    final AtomicLong controllerPatches = new AtomicLong();
    final AtomicLong operationStatusPatches = new AtomicLong();

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
      if (!"PATCH".equals(request.method())) {
        return;
      }
      String path = request.uri().getPath();
      if (path.contains("/controllers/") && !path.endsWith("/status")) {
        controllerPatches.incrementAndGet();
      } else if (path.contains("/broodoperations/") && path.endsWith("/status")) {
        operationStatusPatches.incrementAndGet();
      }
    }
  }

  /**
   * The Controller reconciler's answer to varroa.dev/reapply, played: once a Controller carries a value its
   * lastApplyResult does not name, status.lastApplyResult gets {succeeded: true, trigger: value, bundleDigest,
   * appliedAt} (docs/controllers.md, "Pushing the desired state again"). Writes go out on a small pool, off the
   * informer's thread, each value once.
   */
  private static final class PlayedApply implements ResourceEventHandler<Controller>, AutoCloseable {
    private final Cluster cluster;
    private final ExecutorService writers = Executors.newFixedThreadPool(4);
    private final Map<String, String> served = new ConcurrentHashMap<>();
    final AtomicInteger writes = new AtomicInteger();

    PlayedApply(Cluster cluster) {
      this.cluster = cluster;
      cluster.controllers().addEventHandler(this);
    }

    @Override
    public void onAdd(Controller controller) {
      answer(controller);
    }

    @Override
    public void onUpdate(Controller before, Controller after) {
      answer(after);
    }

    @Override
    public void onDelete(Controller controller, boolean unknown) {
    }

    private void answer(Controller controller) {
      Map<String, String> annotations = controller.getMetadata().getAnnotations();
      String value = annotations == null ? null : annotations.get(ControllerAnnotations.REAPPLY);
      if (value == null || appliedTrigger(controller).filter(value::equals).isPresent()) {
        return;
      }
      String key = controller.getMetadata().getNamespace() + "/" + controller.getMetadata().getName();
      if (value.equals(served.put(key, value))) {
        return;
      }
      writers.execute(() -> {
        String patch = YAML.asJson(Map.of("status", Map.of("lastApplyResult", Map.of("succeeded", true,
            "trigger", value, "bundleDigest", digest(controller), "appliedAt", Instant.now().toString()))));
        for (int attempt = 1; ; attempt++) {
          try {
            cluster.admin().resources(Controller.class).inNamespace(controller.getMetadata().getNamespace())
                .withName(controller.getMetadata().getName()).subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            writes.incrementAndGet();
            return;
          } catch (RuntimeException e) {
            if (attempt == 5) {
              System.err.println("played apply of " + key + " failed 5 times: " + e.getMessage());
              return;
            }
          }
        }
      });
    }

    /** Controllers whose lastApplyResult names their current varroa.dev/reapply value. */
    int verifiedTriggers() {
      return (int) cluster.admin().resources(Controller.class).inAnyNamespace().list().getItems().stream()
          .filter(c -> c.getMetadata().getAnnotations() != null
              && c.getMetadata().getAnnotations().get(ControllerAnnotations.REAPPLY) != null
              && appliedTrigger(c).filter(c.getMetadata().getAnnotations().get(ControllerAnnotations.REAPPLY)::equals)
              .isPresent())
          .count();
    }

    @Override
    public void close() {
      writers.shutdownNow();
    }

    private static Optional<String> appliedTrigger(Controller controller) {
      return Optional.ofNullable(controller.getStatus()).map(s -> s.lastApplyResult).map(r -> r.trigger);
    }
  }

  /**
   * What a watch on the BroodOperation sees: every new resourceVersion after the create is a status write (nothing
   * else writes the object during the run); targets in flight at each, the first Running target, the end.
   */
  private static final class OperationWatch implements ResourceEventHandler<BroodOperation> {
    final AtomicLong createdAt = new AtomicLong();
    final AtomicLong firstRunningAt = new AtomicLong();
    final AtomicLong finishedAt = new AtomicLong();
    final AtomicInteger statusWrites = new AtomicInteger();
    final AtomicInteger mostInFlight = new AtomicInteger();
    final AtomicReference<BroodOperationStatus> last = new AtomicReference<>();
    /** When each status write arrived: their spacing is the engine's pass period plus its pass time. */
    final List<Long> writeTimes = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicInteger lastStatusBytes = new AtomicInteger();

    @Override
    public void onAdd(BroodOperation operation) {
      seen(operation);
    }

    @Override
    public void onUpdate(BroodOperation before, BroodOperation after) {
      if (!before.getMetadata().getResourceVersion().equals(after.getMetadata().getResourceVersion())) {
        statusWrites.incrementAndGet();
        writeTimes.add(System.nanoTime());
      }
      seen(after);
    }

    @Override
    public void onDelete(BroodOperation operation, boolean unknown) {
    }

    private void seen(BroodOperation operation) {
      long now = System.nanoTime();
      BroodOperationStatus status = operation.getStatus();
      if (status == null) {
        return;
      }
      last.set(status);
      lastStatusBytes.set(YAML.asJson(status).length());
      int inFlight = (int) status.targets.stream().filter(t -> t.phase == TargetPhase.Running
          || t.phase == TargetPhase.Paused || t.phase == TargetPhase.Unknown).count();
      mostInFlight.accumulateAndGet(inFlight, Math::max);
      if (inFlight > 0) {
        firstRunningAt.compareAndSet(0, now);
      }
      if (status.phase == BroodOperationStatus.Phase.Succeeded || status.phase == BroodOperationStatus.Phase.Failed
          || status.phase == BroodOperationStatus.Phase.Cancelled) {
        finishedAt.compareAndSet(0, now);
      }
    }
  }

  private static String digest(Controller controller) {
    return "sha256:" + "%064x".formatted(Math.abs(controller.getMetadata().getName().hashCode()));
  }

  private static long heapAfterGc(MemoryMXBean memory) {
    memory.gc();
    memory.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static String namespace(int n) {
    return String.format("team-%02d", n);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (Exception e) {
      return "unknown";
    }
  }
}

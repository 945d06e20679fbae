package dev.varroa.benchmarks;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ProvisioningDefaults;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.StarterProfile;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * The operator's fleet benchmark (P3): N Controllers (default 1,000) in one namespace on a real API
 * server, the operator in this JVM on a client that counts every request. Measures the time until all
 * are reconciled with the writes, GETs and LISTs per Controller; a forced resync (a restarted operator)
 * with nothing changed; one patch of ProvisioningDefaults until every StatefulSet carries it, with its
 * writes; and the operator's heap after. Prints its figures last. Run: make bench-controllers.
 */
public final class ControllerFleetBenchmark {
  private static final Duration DEADLINE = Duration.ofMinutes(20);
  /** P3's fleet; the fixture's API server has a /16 Service range for it. */
  private static final int CONTROLLERS = 1000;
  /** The defaults patch sets this drain timeout; the grace period is 60 s more. */
  private static final int PATCHED_DRAIN_SECONDS = 300;
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private ControllerFleetBenchmark() {}

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : CONTROLLERS;
    Path cache = Files.createTempDirectory("varroa-bench-fleet");
    List<String> figures = new ArrayList<>();
    try (KubeApiServer kube = KubeApiServer.start()) {
      kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
      KubernetesClient client = kube.client();
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("fleet").endMetadata().build())
          .create();
      StarterProfile.install(client, "fleet-jobs");

      RequestCounter counter = new RequestCounter();
      KubernetesClient counted = counter.client(kube);
      Instant start = Instant.now();
      try (VarroaOperator operator = new VarroaOperator(counted, OperatorSettings.defaults(cache), null)) {
        operator.start();
        for (int i = 0; i < count; i++) {
          client.resource(YAML.unmarshal("""
              apiVersion: varroa.dev/v1alpha1
              kind: Controller
              metadata: {name: jenkins-%04d, namespace: fleet}
              spec: {}
              """.formatted(i), GenericKubernetesResource.class)).create();
        }
        await("all reconciled", () -> reconciled(client) >= count
            && client.apps().statefulSets().inNamespace("fleet").list().getItems().size() >= count);
        Duration elapsed = Duration.between(start, Instant.now());
        System.out.printf("%d Controllers reconciled (StatefulSet and status) in %.1f s: %s%n", count,
            elapsed.toMillis() / 1000.0, summary(counter, count));
        figures.add(figure("fleet_reconciled_seconds", elapsed.toMillis() / 1000.0, "s"));
        figures.add(figure("fleet_writes_per_controller", per(counter, RequestCounter.Kind.WRITE, count), "writes"));
        figures.add(figure("fleet_gets_per_controller", per(counter, RequestCounter.Kind.GET, count), "gets"));
        figures.add(figure("fleet_lists_per_controller", per(counter, RequestCounter.Kind.LIST, count), "lists"));
        figures.add(figure("fleet_passes_per_controller", operator.controllers().completedPasses() / (double) count,
            "passes"));
        writesByResource(counter).forEach((what, n) -> figures.add(figure("fleet_writes_per_controller "
            + what.replace(' ', ':'), n / (double) count, "writes")));
      }

      counter.reset();
      try (VarroaOperator resync = new VarroaOperator(counted, OperatorSettings.defaults(cache), null)) {
        Instant resyncStart = Instant.now();
        resync.start();
        await("resync", () -> resync.controllers().completedPasses() >= count);
        Duration resyncTime = Duration.between(resyncStart, Instant.now());
        System.out.printf("forced resync (restarted operator, nothing changed): %d passes in %.1f s: %s%n",
            resync.controllers().completedPasses(), resyncTime.toMillis() / 1000.0, summary(counter, count));
        figures.add(figure("resync_seconds", resyncTime.toMillis() / 1000.0, "s"));
        figures.add(figure("resync_writes", counter.of(RequestCounter.Kind.WRITE).size(), "writes"));
        figures.add(figure("resync_gets", counter.of(RequestCounter.Kind.GET).size(), "gets"));
        writesByResource(counter).forEach((what, n) -> figures.add(figure("resync_writes " + what.replace(' ', ':'),
            n, "writes")));

        counter.reset();
        Instant patched = Instant.now();
        client.resources(ProvisioningDefaults.class).withName(ProvisioningDefaults.DEFAULT_NAME)
            .patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"reconciliation\":{\"drainTimeoutSeconds\":" + PATCHED_DRAIN_SECONDS + "}}}");
        await("defaults patch", () -> carryingPatch(client) >= count);
        Duration patchTime = Duration.between(patched, Instant.now());
        System.out.printf("one ProvisioningDefaults patch until all %d StatefulSets carry it: %.1f s: %s%n", count,
            patchTime.toMillis() / 1000.0, summary(counter, count));
        figures.add(figure("defaults_patch_to_all_statefulsets_seconds", patchTime.toMillis() / 1000.0, "s"));
        figures.add(figure("defaults_patch_writes_per_controller", per(counter, RequestCounter.Kind.WRITE, count),
            "writes"));
        figures.add(figure("defaults_patch_gets_per_controller", per(counter, RequestCounter.Kind.GET, count), "gets"));
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        figures.add(figure("operator_heap_after_gc", heap / 1048576.0, "MiB"));
      }
      counted.close();
    }
    // the harness JVM holds the operator only (the API server is another process), so its heap is the operator's
    figures.forEach(System.out::println);
  }

  private static long reconciled(KubernetesClient client) {
    return client.resources(Controller.class).inNamespace("fleet").list().getItems().stream()
        .filter(c -> c.getStatus() != null && c.getStatus().statefulSetName != null).count();
  }

  private static long carryingPatch(KubernetesClient client) {
    return client.apps().statefulSets().inNamespace("fleet").list().getItems().stream()
        .map(StatefulSet::getSpec).filter(s -> Long.valueOf(PATCHED_DRAIN_SECONDS + 60L)
            .equals(s.getTemplate().getSpec().getTerminationGracePeriodSeconds()))
        .count();
  }

  /** Writes by method and resource (with its subresource: status), so a figure says where the writes come from. */
  static SortedMap<String, Long> writesByResource(RequestCounter counter) {
    return counter.of(RequestCounter.Kind.WRITE).stream().collect(Collectors.groupingBy(
        r -> r.method() + " " + resource(r.path()), TreeMap::new, Collectors.counting()));
  }

  /** /api/v1/namespaces/NS/RESOURCE[/NAME[/SUB]] or /apis/GROUP/VERSION/...: RESOURCE[/SUB], the query left out. */
  static String resource(String path) {
    String[] parts = path.replaceAll("\\?.*$", "").replaceAll("^/+", "").split("/");
    int at = "api".equals(parts[0]) ? 2 : 3;
    if (parts.length > at + 2 && "namespaces".equals(parts[at])) {
      at += 2;
    }
    return parts.length > at + 2 ? parts[at] + "/" + parts[at + 2] : parts[at];
  }

  private static String summary(RequestCounter counter, int count) {
    return String.format("%d writes (%.1f a Controller), %d GETs (%.2f), %d LISTs (%.2f), %d WATCHes",
        counter.of(RequestCounter.Kind.WRITE).size(), per(counter, RequestCounter.Kind.WRITE, count),
        counter.of(RequestCounter.Kind.GET).size(), per(counter, RequestCounter.Kind.GET, count),
        counter.of(RequestCounter.Kind.LIST).size(), per(counter, RequestCounter.Kind.LIST, count),
        counter.of(RequestCounter.Kind.WATCH).size());
  }

  private static double per(RequestCounter counter, RequestCounter.Kind kind, int count) {
    return counter.of(kind).size() / (double) count;
  }

  private static String figure(String name, double value, String unit) {
    return value == Math.rint(value) ? String.format("figure: %s %d %s", name, (long) value, unit)
        : String.format("figure: %s %.2f %s", name, value, unit);
  }

  private static void await(String what, BooleanSupplier done) throws InterruptedException {
    Instant start = Instant.now();
    while (!done.getAsBoolean()) {
      if (Duration.between(start, Instant.now()).compareTo(DEADLINE) > 0) {
        throw new IllegalStateException(what + " did not finish in " + DEADLINE);
      }
      Thread.sleep(250);
    }
  }
}

package dev.varroa.benchmarks;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WriteCounter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * Issue 4's benchmark: N Controllers (default 500, the figure) in one namespace on a real API server, the
 * operator in this JVM. Prints the time until every Controller is reconciled (StatefulSet rendered,
 * status written), the operator's heap after a GC, and the writes of a forced resync (a restarted
 * operator reconciling everything) with nothing changed. Run: make bench-controllers.
 */
public final class ControllerFleetBenchmark {
  private static final Duration DEADLINE = Duration.ofMinutes(20);
  /** "500 Controllers in one namespace"; the fixture's API server has a /16 Service range for them. */
  private static final int CONTROLLERS = 500;
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private ControllerFleetBenchmark() {}

  public static void main(String[] args) throws Exception {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : CONTROLLERS;
    Path cache = Files.createTempDirectory("varroa-bench-fleet");
    try (KubeApiServer kube = KubeApiServer.start()) {
      kube.installCrds(ProjectLayout.root().resolve("chart/crds"));
      KubernetesClient client = kube.client();
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("fleet").endMetadata().build())
          .create();
      StarterProfile.install(client, "fleet-jobs");

      WriteCounter counter = new WriteCounter();
      KubernetesClient counted = counter.client(kube);
      Instant start = Instant.now();
      try (VarroaOperator operator = new VarroaOperator(counted, cache, null)) {
        operator.start();
        for (int i = 0; i < count; i++) {
          client.resource(YAML.unmarshal("""
              apiVersion: varroa.dev/v1alpha1
              kind: Controller
              metadata: {name: jenkins-%03d, namespace: fleet}
              spec: {}
              """.formatted(i), GenericKubernetesResource.class)).create();
        }
        awaitAllReconciled(client, count);
        Duration elapsed = Duration.between(start, Instant.now());
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf("%d Controllers reconciled (StatefulSet and status) in %.1f s; %d writes in all (%.1f a Controller)%n",
            count, elapsed.toMillis() / 1000.0, counter.writes().size(), counter.writes().size() / (double) count);
        System.out.printf("heap used after GC (API client, informers, operator; the API server runs outside this JVM): %.1f MiB%n",
            heap / 1048576.0);
      }

      counter.reset();
      try (VarroaOperator resync = new VarroaOperator(counted, cache, null)) {
        Instant resyncStart = Instant.now();
        resync.start();
        while (resync.controllers().completedPasses() < count) {
          if (Duration.between(resyncStart, Instant.now()).compareTo(DEADLINE) > 0) {
            throw new IllegalStateException("resync did not finish in " + DEADLINE);
          }
          Thread.sleep(100);
        }
        System.out.printf("forced resync (restarted operator, nothing changed): %d passes in %.1f s, %d writes%n",
            resync.controllers().completedPasses(), Duration.between(resyncStart, Instant.now()).toMillis() / 1000.0,
            counter.writes().size());
      }
      counted.close();
    }
  }

  private static void awaitAllReconciled(KubernetesClient client, int count) throws InterruptedException {
    Instant start = Instant.now();
    while (true) {
      long done = client.resources(Controller.class).inNamespace("fleet").list().getItems().stream()
          .filter(c -> c.getStatus() != null && c.getStatus().statefulSetName != null).count();
      if (done >= count && client.apps().statefulSets().inNamespace("fleet").list().getItems().size() >= count) {
        return;
      }
      if (Duration.between(start, Instant.now()).compareTo(DEADLINE) > 0) {
        throw new IllegalStateException(done + " of " + count + " Controllers reconciled in " + DEADLINE);
      }
      Thread.sleep(500);
    }
  }
}

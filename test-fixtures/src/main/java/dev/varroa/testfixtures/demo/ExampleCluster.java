package dev.varroa.testfixtures.demo;

import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * The local run behind `make demo`: a real API server with Varroa's CRDs and the objects of
 * gitops-examples/varroa/ applied as Argo CD or Flux would. With --check it verifies and exits.
 */
public final class LocalRun {
  private static final Path KUBECONFIG = Path.of(".demo", "kubeconfig");
  private static final String FIELD_MANAGER = "varroa-demo";

  private LocalRun() {}

  /** Every kind the examples use; fully qualified, since core Kubernetes also has a PodTemplate. */
  private static final String KINDS = String.join(",",
      "provisioningdefaults.varroa.dev", "controllerclasses.varroa.dev", "jenkinsversionprofiles.varroa.dev",
      "catalogsources.varroa.dev", "composedbundles.varroa.dev", "podtemplates.varroa.dev", "controllers.varroa.dev");

  public static void main(String[] args) {
    try {
      run(List.of(args).contains("--check"));
    } catch (Exception e) {
      System.err.println("demo: FAILED: " + e.getMessage());
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static void run(boolean check) throws Exception {
    Path root = ProjectLayout.root();
    KubeApiServer kube = KubeApiServer.start();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      kube.close();
      stopped.countDown();
    }, "demo-shutdown"));

    Path kubeconfig = kube.writeKubeconfig(root.resolve(KUBECONFIG));
    say("API server up; kubeconfig written to " + kubeconfig);
    say("installed " + kube.installCrds(root.resolve("chart/crds")).size() + " CRDs from chart/crds/");
    List<HasMetadata> applied = apply(kube.client(), root.resolve("gitops-examples/varroa"));
    say("applied " + applied.size() + " objects from gitops-examples/varroa/");

    String listing = kube.kubectl("get", KINDS, "--all-namespaces");
    System.out.println(listing);
    List<String> missing = missingFromListing(applied, listing);

    if (check) {
      if (!missing.isEmpty()) {
        say("FAILED: not listed by kubectl: " + missing);
        System.exit(1);
      }
      say("OK: every example object is stored and listed");
      System.exit(0);
    }
    say("running; use it with: export KUBECONFIG=" + kubeconfig + " and " + kube.kubectlBinary() + " get " + KINDS + " -A");
    say("press Ctrl-C to stop");
    stopped.await();
  }

  private static List<HasMetadata> apply(KubernetesClient client, Path folder) throws IOException {
    List<HasMetadata> applied = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          for (HasMetadata item : client.load(in).items()) {
            applied.add(client.resource(item).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply());
          }
        }
      }
    }
    return applied;
  }

  private static List<String> missingFromListing(List<HasMetadata> applied, String listing) {
    return applied.stream()
        .filter(o -> o.getApiVersion().startsWith("varroa.dev/"))
        .filter(o -> !listing.contains(o.getKind().toLowerCase() + ".varroa.dev/" + o.getMetadata().getName() + " "))
        .map(o -> o.getKind() + "/" + o.getMetadata().getName())
        .toList();
  }

  private static void say(String line) {
    System.out.println("demo: " + line);
  }
}

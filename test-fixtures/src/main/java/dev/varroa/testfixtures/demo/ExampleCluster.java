package dev.varroa.testfixtures.demo;

import dev.varroa.testfixtures.kube.KubeApiServer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * The cluster half of `make demo`: a real API server with Varroa's CRDs from chart/crds/ and the
 * objects of gitops-examples/varroa/ applied as Argo CD or Flux would.
 *
 * @param kube the API server; the caller closes it
 * @param kubeconfig where its kubeconfig was written, for kubectl
 * @param applied every example object as stored
 */
public record ExampleCluster(KubeApiServer kube, Path kubeconfig, List<HasMetadata> applied) {
  private static final Path KUBECONFIG = Path.of(".demo", "kubeconfig");
  private static final String FIELD_MANAGER = "varroa-demo";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Every kind the examples use; fully qualified, since core Kubernetes also has a PodTemplate. */
  public static final String KINDS = String.join(",",
      "provisioningdefaults.varroa.dev", "controllerclasses.varroa.dev", "jenkinsversionprofiles.varroa.dev",
      "catalogsources.varroa.dev", "composedbundles.varroa.dev", "podtemplates.varroa.dev", "controllers.varroa.dev");

  /** Starts the API server, installs the CRDs and applies the examples, saying each step on stdout. */
  public static ExampleCluster start(Path root) throws IOException {
    return start(root, List.of(), UnaryOperator.identity());
  }

  /**
   * Like {@link #start(Path)}, applying {@code first} before the examples, and each example object
   * through {@code rewrite} (the demo points the example repository URLs at local servers).
   */
  public static ExampleCluster start(Path root, List<HasMetadata> first, UnaryOperator<HasMetadata> rewrite)
      throws IOException {
    KubeApiServer kube = KubeApiServer.start();
    Path kubeconfig = kube.writeKubeconfig(root.resolve(KUBECONFIG));
    say("API server up; kubeconfig written to " + kubeconfig);
    say("installed " + kube.installCrds(root.resolve("chart/crds")).size() + " CRDs from chart/crds/");
    List<HasMetadata> objects = exampleObjects(root);
    List<HasMetadata> applied = new ArrayList<>();
    // namespaces first, so what goes before the examples has somewhere to live
    for (HasMetadata namespace : objects.stream().filter(o -> o.getKind().equals("Namespace")).toList()) {
      applied.add(apply(kube.client(), namespace));
    }
    for (HasMetadata object : first) {
      apply(kube.client(), object);
    }
    for (HasMetadata object : objects.stream().filter(o -> !o.getKind().equals("Namespace")).toList()) {
      applied.add(apply(kube.client(), rewrite.apply(object)));
    }
    say("applied " + applied.size() + " objects from gitops-examples/varroa/");
    return new ExampleCluster(kube, kubeconfig, applied);
  }

  /** The example Varroa objects `kubectl get` does not list (empty when all are stored). */
  public List<String> missingFromListing() {
    String listing = kube.kubectl("get", KINDS, "--all-namespaces");
    return applied.stream()
        .filter(o -> o.getApiVersion().startsWith("varroa.dev/"))
        .filter(o -> !listing.contains(o.getKind().toLowerCase() + ".varroa.dev/" + o.getMetadata().getName() + " "))
        .map(o -> o.getKind() + "/" + o.getMetadata().getName())
        .toList();
  }

  /** Every object of gitops-examples/varroa/, file by file in name order, as Argo CD or Flux would sync them. */
  public static List<HasMetadata> exampleObjects(Path root) throws IOException {
    List<HasMetadata> objects = new ArrayList<>();
    try (Stream<Path> files = Files.list(root.resolve("gitops-examples/varroa"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          Object parsed = SERIALIZATION.unmarshal(in);
          if (parsed instanceof List<?> many) {
            many.forEach(o -> objects.add((HasMetadata) o));
          } else {
            objects.add((HasMetadata) parsed);
          }
        }
      }
    }
    return objects;
  }

  private static HasMetadata apply(KubernetesClient client, HasMetadata object) {
    return client.resource(object).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }

  public static void say(String line) {
    System.out.println("demo: " + line);
  }
}

package dev.varroa.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Names;
import dev.varroa.api.v1alpha1.VarroaKinds;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every object under gitops-examples/ is accepted by the real API server and reads back as written. */
@WithKubeApiServer
class GitopsExamplesIT {
  private static final Path EXAMPLES = ProjectLayout.root().resolve("gitops-examples");
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  @BeforeAll
  static void installStandInsForArgoAndFluxKinds(KubeApiServer kube) {
    kube.installCrds(Path.of("src/test/resources/external-crds"));
  }

  @Test
  void appliesEveryExampleAndReadsItBackUnchanged(KubeApiServer kube) throws IOException {
    KubernetesClient client = kube.client();
    List<HasMetadata> examples = examples(client);
    assertThat(examples).extracting(HasMetadata::getKind)
        .contains("Namespace", "ProvisioningDefaults", "ControllerClass", "JenkinsVersionProfile", "CatalogSource",
            "ComposedBundle", "PodTemplate", "Controller", "BroodSchedule", "BroodOperation", "Application",
            "GitRepository", "Kustomization");

    for (HasMetadata example : examples) {
      ensureNamespace(client, example.getMetadata().getNamespace());
      client.resource(example).fieldManager("gitops-examples-it").serverSideApply();
    }

    for (HasMetadata example : examples) {
      HasMetadata stored = client.resource(example).get();
      assertThat(stored).as("%s/%s stored", example.getKind(), example.getMetadata().getName()).isNotNull();
      Map<String, Object> written = JSON.convertValue(example, Map.class);
      Map<String, Object> read = JSON.convertValue(stored, Map.class);
      new SubsetAssertion(example.getKind() + "/" + example.getMetadata().getName())
          .assertContains("spec", written.get("spec"), read.get("spec"));

      if (example.getApiVersion().equals(Names.API_VERSION)) {
        // The typed model must carry every field the example sets, or the operator would drop it.
        Class<? extends HasMetadata> type = VarroaKinds.byKind(example.getKind());
        String namespace = example.getMetadata().getNamespace();
        HasMetadata typed = (namespace == null ? client.resources(type) : client.resources(type).inNamespace(namespace))
            .withName(example.getMetadata().getName()).get();
        Map<String, Object> typedMap = JSON.convertValue(typed, Map.class);
        new SubsetAssertion(example.getKind() + "/" + example.getMetadata().getName() + " via " + type.getSimpleName())
            .assertContains("spec", written.get("spec"), typedMap.get("spec"));
      }
    }
  }

  @Test
  void kubectlShowsTheControllerPrinterColumns(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    ensureNamespace(client, "columns");
    client.resource(JSON.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: printed, namespace: columns}
        spec: {}
        """, GenericKubernetesResource.class)).create();

    String out = kube.kubectl("get", "controllers", "-n", "columns");

    assertThat(out.lines().findFirst().orElseThrow().split("\\s+"))
        .containsExactly("NAME", "PHASE", "ATTENTION", "BUNDLE", "AGE");
    assertThat(out).contains("printed");
  }

  private static List<HasMetadata> examples(KubernetesClient client) throws IOException {
    List<HasMetadata> all = new ArrayList<>();
    try (Stream<Path> files = Files.walk(EXAMPLES)) {
      // argocd/health/ holds Argo CD's health scripts and their test data, and bundles/ the content of
      // example bundle repositories: neither is objects to sync.
      for (Path file : files.filter(f -> f.toString().endsWith(".yaml"))
          .filter(f -> !f.startsWith(EXAMPLES.resolve("argocd/health")))
          .filter(f -> !f.startsWith(EXAMPLES.resolve("bundles"))).sorted().toList()) {
        try (InputStream in = Files.newInputStream(file)) {
          all.addAll(client.load(in).items());
        }
      }
    }
    return all;
  }

  private static void ensureNamespace(KubernetesClient client, String namespace) {
    if (namespace != null && client.namespaces().withName(namespace).get() == null) {
      client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
          .withNewMetadata().withName(namespace).endMetadata().build()).create();
    }
  }
}

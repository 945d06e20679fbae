package dev.varroa.operator.node;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.testfixtures.node.RealNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.awaitility.Awaitility.await;

/**
 * Varroa installed on the real node as the real-node tests and `make demo` run it: the test services, then the chart
 * with helm (full mode, Varroa's images from the loopback registry), then the minimal example Controller
 * {@code ci/sandbox} applied as Argo CD would, its version profile's image the Jenkins stand-in.
 */
final class NodeInstall {
  static final String NAMESPACE = "varroa-system";
  /** The example Controller that runs on the node; its bundle comes from no outside repository. */
  static final String CONTROLLER_NAMESPACE = "ci";
  static final String CONTROLLER = "sandbox";
  /** operator 2, gateway 2, NATS 1, recorder 2, dashboard 1, and the test services: PostgreSQL, OIDC, S3. */
  static final int COMPONENT_PODS = 11;
  private static final Duration INSTALL_DEADLINE = Duration.ofMinutes(8);

  private NodeInstall() {}

  /**
   * Installs afresh: what an earlier run left (a developer's node from `make node-up`) goes first, and the images are
   * forgotten by containerd so that rebuilt ones of the same tag are pulled again. Returns how long helm install took
   * until every pod was Ready.
   */
  static Duration install(RealNode node, KubernetesClient client, NodeImages images, VarroaRelease release,
      TestServices.Login login) throws Exception {
    return install(node, client, images, release, login, List.of());
  }

  /** As above, with values of the caller's on top (the demo's member cluster). */
  static Duration install(RealNode node, KubernetesClient client, NodeImages images, VarroaRelease release,
      TestServices.Login login, List<String> extraValues) throws Exception {
    if (client.secrets().inNamespace(NAMESPACE).withLabel("owner", "helm").list().getItems().stream()
        .anyMatch(s -> s.getMetadata().getName().startsWith("sh.helm.release.v1." + VarroaRelease.NAME + "."))) {
      deleteExampleControllers(client);
      release.uninstall();
    }
    for (String namespace : List.of(CONTROLLER_NAMESPACE, NAMESPACE)) {
      client.namespaces().withName(namespace).delete();
      await("namespace " + namespace + " gone").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
          .until(() -> client.namespaces().withName(namespace).get() == null);
    }
    node.forgetImages(images.all());
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    TestServices.apply(client, images, NAMESPACE, login);
    long started = System.nanoTime();
    List<String> values = new ArrayList<>(VarroaRelease.imageValues(images));
    values.addAll(TestServices.chartValues(NAMESPACE));
    values.addAll(extraValues);
    release.install(values);
    VarroaRelease.awaitPodsReady(client, NAMESPACE, COMPONENT_PODS, INSTALL_DEADLINE);
    Duration took = Duration.ofNanos(System.nanoTime() - started);
    // after the install: on a new node the VarroaRole kinds exist once helm installed the chart's CRDs
    TestServices.grantReader(client, login);
    return took;
  }

  /** A user removing Varroa prunes their Controllers first (Argo CD or Flux); their pods go with them. */
  static void deleteExampleControllers(KubernetesClient client) {
    client.resources(Controller.class).inNamespace(CONTROLLER_NAMESPACE).delete();
    await("the example Controllers' pods gone").atMost(Duration.ofMinutes(3)).until(() ->
        client.pods().inNamespace(CONTROLLER_NAMESPACE).list().getItems().isEmpty());
  }

  /** Applies the example objects as Argo CD would (server-side, its field manager). */
  static void applyExamples(KubernetesClient client, NodeImages images) throws Exception {
    for (HasMetadata object : exampleObjects(client, images)) {
      client.resource(object).fieldManager("argocd-controller").forceConflicts().serverSideApply();
    }
  }

  /** gitops-examples/varroa/, the minimal Controller only, its version profile's image the Jenkins stand-in. */
  private static List<HasMetadata> exampleObjects(KubernetesClient client, NodeImages images) throws Exception {
    Set<String> kinds = Set.of("Namespace", "ProvisioningDefaults", "JenkinsVersionProfile");
    List<HasMetadata> objects = new ArrayList<>();
    for (HasMetadata example : ExampleCluster.exampleObjects(ProjectLayout.root())) {
      HasMetadata object = example;
      if (example.getKind().equals("JenkinsVersionProfile")) {
        JenkinsVersionProfile profile = client.getKubernetesSerialization().convertValue(example,
            JenkinsVersionProfile.class);
        profile.getSpec().image = images.test("jenkins");
        object = profile;
      }
      if (kinds.contains(object.getKind()) || object.getMetadata().getName().equals(CONTROLLER)) {
        objects.add(object);
      }
    }
    return objects;
  }

  static ControllerStatus status(KubernetesClient client) {
    Controller controller = client.resources(Controller.class).inNamespace(CONTROLLER_NAMESPACE).withName(CONTROLLER)
        .get();
    return controller == null ? null : controller.getStatus();
  }

  static boolean connected(KubernetesClient client) {
    ControllerStatus status = status(client);
    return status != null && status.phase == ControllerStatus.Phase.Connected;
  }

  /** The Jenkins pod of the example Controller. */
  static Pod controllerPod(KubernetesClient client) {
    return client.pods().inNamespace(CONTROLLER_NAMESPACE).list().getItems().stream()
        .filter(p -> p.getMetadata().getName().startsWith(CONTROLLER + "-")).findFirst()
        .orElseThrow(() -> new IllegalStateException("no pod of Controller " + CONTROLLER_NAMESPACE + "/" + CONTROLLER));
  }
}

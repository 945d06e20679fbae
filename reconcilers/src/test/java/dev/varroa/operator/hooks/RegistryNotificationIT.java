package dev.varroa.operator.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.bundle.BundleConfigMap;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.registry.NotificationEndpoint;
import dev.varroa.testfixtures.registry.OciRegistry;
import dev.varroa.testfixtures.registry.OciRegistryProcess;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import land.oras.Config;
import land.oras.ContainerRef;
import land.oras.Layer;
import land.oras.Manifest;
import land.oras.Registry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real distribution registry, configured with a notifications endpoint at the receiver, tells the
 * operator of a new artifact under a tag; the hourly ComposedBundle following that tag re-renders.
 */
@WithKubeApiServer
class RegistryNotificationIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  /** Far below the bundle's 1h interval: only the registry's notification can explain a re-render this fast. */
  private static final Duration NOTIFICATION_DEADLINE = Duration.ofSeconds(30);
  private static final String NAMESPACE = "ci";
  private static final String SECRET = "registry-notification-token";
  private static final String REPOSITORY = "ci/bundles/team-a";
  private static final String TITLE = "org.opencontainers.image.title";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void aPushedTagReRendersTheHourlyBundleThatFollowsIt(KubeApiServer kube, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.installGitOnly(client);
    // The registry must know the receiver's address when it starts, so the receiver's port is chosen first.
    int receiverPort = LoopbackPort.pickFree();
    URI endpoint = URI.create("http://127.0.0.1:" + receiverPort + WebhookReceiver.REGISTRY_PATH);
    try (OciRegistryProcess process = OciRegistryProcess.start(
            List.of(NotificationEndpoint.withBearer("varroa", endpoint, SECRET)));
        VarroaOperator operator = new VarroaOperator(client,
            OperatorSettings.defaults(cache).withPlainHttpRegistries(Set.of(process.value().host())), null)) {
      OciRegistry registry = process.value();
      operator.serveWebhooks(receiverPort, WebhookSecret.of(SECRET));
      operator.start();
      pushBundle(registry, "stable", "jenkins:\n  systemMessage: first\n");
      createBundle(client, "team-a", "oci://" + registry.host() + "/" + REPOSITORY);
      await().atMost(DEADLINE).until(() -> ready(client, "team-a"));
      String before = bundle(client, "team-a").getStatus().artifact.digest;

      String pushed = pushBundle(registry, "stable", "jenkins:\n  systemMessage: second\n");

      await().atMost(NOTIFICATION_DEADLINE).until(() -> !before.equals(bundle(client, "team-a").getStatus().artifact.digest));
      assertThat(bundle(client, "team-a").getStatus().inputs.get(0).revision).isEqualTo("stable@" + pushed);
      assertThat(client.configMaps().inNamespace(NAMESPACE).withName(BundleConfigMap.name("team-a")).get()
          .getData().get("jcasc.yaml")).contains("systemMessage: second");
      await().atMost(DEADLINE).until(() -> client.v1().events().inNamespace(NAMESPACE).list().getItems().stream()
          .anyMatch(e -> "team-a".equals(e.getInvolvedObject().getName())
              && ReconcilerPushTargets.PUSH_RECEIVED.equals(e.getReason())
              && e.getMessage().contains(REPOSITORY + ":stable")));
    }
  }

  private static void createBundle(KubernetesClient client, String name, String url) {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: %s}
        spec:
          interval: 1h
          versionProfileRef: {name: lts}
          inputs:
            - oci: {url: "%s", ref: {tag: stable}}
        """.formatted(name, NAMESPACE, url), GenericKubernetesResource.class)).create();
  }

  private static ComposedBundle bundle(KubernetesClient client, String name) {
    return client.resources(ComposedBundle.class).inNamespace(NAMESPACE).withName(name).get();
  }

  private static boolean ready(KubernetesClient client, String name) {
    ComposedBundle bundle = bundle(client, name);
    return bundle != null && bundle.getStatus() != null && bundle.getStatus().condition(Condition.READY)
        .filter(c -> c.status == Condition.Status.True).isPresent();
  }

  /** Pushes one layer per file, titled with its path, as oras push does; returns the manifest digest. */
  private static String pushBundle(OciRegistry registry, String tag, String jcasc) {
    Registry oras = Registry.builder().withInsecure(true).build();
    ContainerRef ref = ContainerRef.parse(registry.reference(REPOSITORY, tag));
    Layer layer = oras.pushBlob(ref, jcasc.getBytes(StandardCharsets.UTF_8))
        .withMediaType("application/vnd.oci.image.layer.v1.tar").withAnnotations(Map.of(TITLE, "jcasc/00.yaml"));
    Config config = Config.empty();
    oras.pushBlob(ref, config.getDataBytes());
    return oras.pushManifest(ref, Manifest.empty().withConfig(config).withLayers(List.of(layer))).getDescriptor()
        .getDigest();
  }
}

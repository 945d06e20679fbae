package dev.varroa.operator.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.UpdateCenter;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.updatesite.FixturePlugin;
import dev.varroa.testfixtures.updatesite.UpdateSiteFixture;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.UpdateCenterServer;
import dev.varroa.updatecenter.UpdateCenterSettings;
import dev.varroa.updatecenter.UpstreamSite;
import dev.varroa.updatecenter.archive.PluginExport;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertPathValidator;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A managed UpdateCenter against the real API server. No kubelet runs here, so the test plays its
 * part: it runs the real update center in this JVM on loopback, writes the wanted-list ConfigMap and
 * the signing Secret where their volumes would put them, and points the operator at the service
 * through the status-URL annotation. The steps build on each other, in order.
 */
@WithKubeApiServer
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UpdateCenterReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String DEFAULT_OPERATOR_NAMESPACE = "uc-system";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Four of the five plugins the starter profile lists are on the volume from the start; git 5.8.0 is not. */
  private static final List<FixturePlugin> PRESENT = List.of(
      FixturePlugin.of("configuration-as-code", "2006.v001a_2ca_6b_574"),
      FixturePlugin.of("kubernetes", "4384.v1b_6367f393d9"),
      FixturePlugin.of("workflow-aggregator", "608.v67378e9d3db_1"),
      FixturePlugin.of("credentials", "1453.v9b_a_29777a_b_fd"));
  private static final FixturePlugin GIT = FixturePlugin.of("git", "5.8.0");

  @TempDir static Path work;
  private static VarroaOperator operator;
  private static UpdateCenterServer updateCenter;
  private static UpdateSiteFixture connected;

  @BeforeAll
  void startOperator(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(operatorNamespace())
        .addToLabels("pod-security.kubernetes.io/enforce", "restricted").endMetadata().build()).create();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build()).create();
    StarterProfile.install(client, null);
    for (FixturePlugin plugin : PRESENT) {
      Path file = work.resolve("storage/plugins/" + plugin.id() + "/" + plugin.version() + "/" + plugin.id() + ".hpi");
      Files.createDirectories(file.getParent());
      Files.write(file, plugin.bytes());
    }
    // the service answers before the operator has made its Secret: it signs with a key of its own until then
    updateCenter = new UpdateCenterServer(UpdateCenterSettings.local(work.resolve("storage"),
        work.resolve("wanted/plugins.txt"), work.resolve("signing"), 0).withBaseUrl("http://varroa-uc-default."
        + operatorNamespace() + ".svc").withSyncInterval(Duration.ofMillis(500)));
    updateCenter.start();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata:
          name: default
          annotations: {"varroa.dev/update-center-status-url": "http://127.0.0.1:%d/status.json"}
        spec:
          managed: {storage: {size: 5Gi}}
        """.formatted(updateCenter.port()));
    operator = new VarroaOperator(operatorClient(kube), OperatorSettings.defaults(work.resolve("cache"))
        .withUpdateCenters(new ManagedUpdateCenterSettings(operatorNamespace(), "ghcr.io/varroa/update-center:test",
            Duration.ofSeconds(1))), null);
    operator.start();
    connected = UpdateSiteFixture.start(GIT);
  }

  /** The client the operator runs with; a subclass runs it as the chart's ServiceAccount. */
  protected KubernetesClient operatorClient(KubeApiServer kube) {
    return kube.client();
  }

  /** Where the operator runs its managed UpdateCenters. */
  protected String operatorNamespace() {
    return DEFAULT_OPERATOR_NAMESPACE;
  }

  @AfterAll
  void stop() {
    if (operator != null) {
      operator.close();
    }
    if (updateCenter != null) {
      updateCenter.close();
    }
    if (connected != null) {
      connected.close();
    }
  }

  @Test
  @Order(1)
  void rendersTheUpdateCenterInTheOperatorNamespaceWithARestrictedPod(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    await().atMost(DEADLINE).until(() -> client.apps().deployments().inNamespace(operatorNamespace())
        .withName("varroa-uc-default").get() != null);
    Deployment deployment = client.apps().deployments().inNamespace(operatorNamespace()).withName("varroa-uc-default").get();
    assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage())
        .isEqualTo("ghcr.io/varroa/update-center:test");
    assertThat(deployment.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("UpdateCenter"));
    assertThat(client.services().inNamespace(operatorNamespace()).withName("varroa-uc-default").get()).isNotNull();
    assertThat(client.persistentVolumeClaims().inNamespace(operatorNamespace()).withName("varroa-uc-default").get()
        .getSpec().getResources().getRequests().get("storage").toString()).isEqualTo("5Gi");
    Secret signing = client.secrets().inNamespace(operatorNamespace()).withName("varroa-uc-default-signing").get();
    assertThat(signing.getData()).containsKeys("ca.crt", "signer.crt", "signer.key", "import-token");

    // the namespace enforces the restricted Pod Security Standard: the API server admits the pod as rendered
    Pod pod = client.pods().inNamespace(operatorNamespace()).resource(new PodBuilder().withNewMetadata()
        .withName("varroa-uc-default-admission-check").endMetadata()
        .withSpec(deployment.getSpec().getTemplate().getSpec()).build()).create();
    assertThat(pod.getMetadata().getUid()).isNotBlank();
    client.resource(pod).delete();
    // and the namespace does enforce it: the same pod without the security contexts is refused
    io.fabric8.kubernetes.api.model.PodSpec loose = new io.fabric8.kubernetes.api.model.PodSpecBuilder(
        deployment.getSpec().getTemplate().getSpec()).withSecurityContext(null).build();
    loose.getContainers().get(0).setSecurityContext(null);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> client.pods().inNamespace(operatorNamespace())
        .resource(new PodBuilder().withNewMetadata().withName("loose").endMetadata().withSpec(loose).build()).create())
        .hasMessageContaining("restricted");
  }

  @Test
  @Order(2)
  void theWantedListIsExactlyWhatTheProfilesAndBundleLocksName(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    await().atMost(DEADLINE).until(() -> wanted(client).equals("""
        configuration-as-code:2006.v001a_2ca_6b_574
        credentials:1453.v9b_a_29777a_b_fd
        git:5.8.0
        kubernetes:4384.v1b_6367f393d9
        workflow-aggregator:608.v67378e9d3db_1
        """));
    client.resource(bundleRender("ci", "team-a", "plugins:\n  - id: git\n  - id: ssh-agent\n    version: \"376.v8933585c69d3\"\n",
        client)).serverSideApply();
    await().atMost(DEADLINE).until(() -> wanted(client).contains("ssh-agent:376.v8933585c69d3\n"));
    client.configMaps().inNamespace("ci").withName("varroa-bundle-team-a").delete();
    await().atMost(DEADLINE).until(() -> !wanted(client).contains("ssh-agent"));
  }

  @Test
  @Order(3)
  void reportsTheLockedPluginItLacksAndBlocksTheControllerNamingIt(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    playKubelet(client);
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: app, namespace: ci}
        spec: {}
        """);

    await().atMost(DEADLINE).untilAsserted(() -> {
      UpdateCenter uc = client.resources(UpdateCenter.class).withName("default").get();
      assertThat(uc.getStatus().missing).singleElement().satisfies(m -> {
        assertThat(m.id).isEqualTo("git");
        assertThat(m.version).isEqualTo("5.8.0");
        assertThat(m.reason).contains("no upstream update site is configured");
      });
      assertThat(uc.getStatus().condition(Condition.READY).orElseThrow().reason).isEqualTo("PluginsMissing");
    });
    await().atMost(DEADLINE).untilAsserted(() -> {
      Controller app = client.resources(Controller.class).inNamespace("ci").withName("app").get();
      assertThat(app.getStatus().condition(Condition.RECONCILE_BLOCKED)).hasValueSatisfying(c -> {
        assertThat(c.status).isEqualTo(Condition.Status.True);
        assertThat(c.message).contains("UpdateCenter default does not hold plugin git 5.8.0").contains("fix:")
            .contains("varroactl updatecenter import");
      });
    });
  }

  @Test
  @Order(4)
  void anImportWithTheOperatorsTokenUnblocksTheControllerWhichInstallsFromTheService(KubeApiServer kube)
      throws Exception {
    KubernetesClient client = kube.client();
    Path archive = work.resolve("git.tar");
    new PluginExport(new UpstreamSite(connected.updateCenterUrl(), Optional.empty()))
        .export(new TreeSet<>(Set.of(new PluginCoordinates("git", "5.8.0"))), archive);
    String token = decode(client.secrets().inNamespace(operatorNamespace()).withName("varroa-uc-default-signing").get(),
        "import-token");
    HttpResponse<String> imported = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + updateCenter.port() + "/import")).header("Authorization", "Bearer " + token)
        .POST(HttpRequest.BodyPublishers.ofFile(archive)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);

    await().atMost(DEADLINE).untilAsserted(() -> assertThat(client.resources(UpdateCenter.class).withName("default").get()
        .getStatus().condition(Condition.READY).orElseThrow().reason).isEqualTo("AllPluginsHeld"));
    await().atMost(DEADLINE).until(() -> statefulSet(client) != null);
    Container plugins = statefulSet(client).getSpec().getTemplate().getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals("plugins")).findFirst().orElseThrow();
    String service = "http://varroa-uc-default." + operatorNamespace() + ".svc";
    assertThat(plugins.getArgs()).containsSequence("--jenkins-update-center", service + "/update-center.json")
        .containsSequence("--jenkins-plugin-info", service + "/plugin-versions.json");
    assertThat(plugins.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("JENKINS_UC_DOWNLOAD_URL");
      assertThat(e.getValue()).isEqualTo(service + "/download/plugins");
    });
  }

  @Test
  @Order(5)
  void theControllerTrustsTheCaTheServedUpdateCenterIsSignedUnder(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    await().atMost(DEADLINE).until(() -> caConfigMap(client) != null);
    String ca = caConfigMap(client).getData().get("varroa-update-center.crt");
    assertThat(ca).isEqualTo(decode(client.secrets().inNamespace(operatorNamespace())
        .withName("varroa-uc-default-signing").get(), "ca.crt"));

    JsonNode served = JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + updateCenter.port() + "/update-center.actual.json")).build(),
        HttpResponse.BodyHandlers.ofString()).body());
    // the certificate path Jenkins validates (jenkins.util.JSONSignatureValidator): the signer's, to the delivered CA
    CertificateFactory factory = CertificateFactory.getInstance("X509");
    X509Certificate signer = (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(
        Base64.getDecoder().decode(served.path("signature").path("certificates").get(0).asText())));
    X509Certificate root = (X509Certificate) factory.generateCertificate(
        new ByteArrayInputStream(ca.getBytes(StandardCharsets.US_ASCII)));
    PKIXParameters parameters = new PKIXParameters(Set.of(new TrustAnchor(root, null)));
    parameters.setRevocationEnabled(false);
    CertPathValidator.getInstance("PKIX").validate(factory.generateCertPath(List.of(signer)), parameters);
    assertThat(served.path("plugins").path("git").path("url").asText())
        .isEqualTo("http://varroa-uc-default." + operatorNamespace() + ".svc/download/plugins/git/5.8.0/git.hpi");
  }

  @Test
  @Order(6)
  void anExternalUpdateCenterOnlyGetsItsUrlInStatus(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: mirror}
        spec: {url: "https://mirror.example.com/update-center.json"}
        """);
    await().atMost(DEADLINE).untilAsserted(() -> {
      UpdateCenter mirror = client.resources(UpdateCenter.class).withName("mirror").get();
      assertThat(mirror.getStatus().url).isEqualTo("https://mirror.example.com/update-center.json");
      assertThat(mirror.getStatus().condition(Condition.READY).orElseThrow().reason).isEqualTo("External");
    });
    assertThat(client.apps().deployments().inNamespace(operatorNamespace()).withName("varroa-uc-mirror").get()).isNull();
  }

  /** What the kubelet would do: project the Secret and the ConfigMap into the update center's folders. */
  private void playKubelet(KubernetesClient client) throws Exception {
    await().atMost(DEADLINE).until(() -> client.secrets().inNamespace(operatorNamespace())
        .withName("varroa-uc-default-signing").get() != null);
    Secret signing = client.secrets().inNamespace(operatorNamespace()).withName("varroa-uc-default-signing").get();
    Path folder = Files.createDirectories(work.resolve("signing"));
    for (String key : List.of("ca.crt", "signer.crt", "signer.key", "import-token")) {
      Files.writeString(folder.resolve(key), decode(signing, key));
    }
    Path wanted = work.resolve("wanted/plugins.txt");
    Files.createDirectories(wanted.getParent());
    Files.writeString(wanted, wanted(client));
    updateCenter.syncNow();
  }

  private String wanted(KubernetesClient client) {
    ConfigMap wanted = client.configMaps().inNamespace(operatorNamespace()).withName("varroa-uc-default-wanted").get();
    return wanted == null || wanted.getData() == null ? "" : wanted.getData().getOrDefault("plugins.txt", "");
  }

  /** A bundle's render in force, laid out as the ComposedBundle reconciler stores it. */
  private static ConfigMap bundleRender(String namespace, String bundle, String plugins, KubernetesClient client)
      throws Exception {
    JenkinsVersionProfile profile = client.resources(JenkinsVersionProfile.class).withName("lts").get();
    RenderedBundle rendered = new BundleRenderer().render(new RenderRequest(bundle, List.of(new ResolvedInput(
        new InputRef(0, "git", "https://git.example.com/b.git", null, Map.of("branch", "main"), ""),
        "main@sha1:" + "a".repeat(40), BundleFiles.ofText(Map.of("plugins.yaml", plugins)))),
        VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
    ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withName("varroa-bundle-" + bundle)
        .withNamespace(namespace).addToLabels("varroa.dev/composed-bundle", bundle)
        .addToLabels("app.kubernetes.io/managed-by", "varroa").endMetadata();
    rendered.files().forEach((file, bytes) -> builder.addToData(file, new String(bytes, StandardCharsets.UTF_8)));
    return builder.build();
  }

  private static StatefulSet statefulSet(KubernetesClient client) {
    Controller app = client.resources(Controller.class).inNamespace("ci").withName("app").get();
    if (app == null || app.getStatus() == null || app.getStatus().statefulSetName == null) {
      return null;
    }
    return client.apps().statefulSets().inNamespace("ci").withName(app.getStatus().statefulSetName).get();
  }

  private static ConfigMap caConfigMap(KubernetesClient client) {
    StatefulSet sts = statefulSet(client);
    return sts == null ? null : client.configMaps().inNamespace("ci")
        .withName(sts.getMetadata().getName() + "-update-center-ca").get();
  }

  private static String decode(Secret secret, String key) {
    return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
  }

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(YAML.unmarshal(yaml, GenericKubernetesResource.class)).serverSideApply();
  }
}

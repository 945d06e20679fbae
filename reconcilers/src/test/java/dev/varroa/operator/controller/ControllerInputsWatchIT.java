package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each input a Controller resolves from, patched, reaches its StatefulSet or rendered configuration
 * through a watch. No periodic pass can be what delivered it: a Controller without a mite has no
 * recheck, and java-operator-sdk's own resync is hours away. A pass reads its inputs from the caches.
 */
@WithKubeApiServer
class ControllerInputsWatchIT {
  /** Far below any periodic pass the operator could make, and above a loaded CI machine's watch delay. */
  private static final Duration DEADLINE = Duration.ofSeconds(30);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final RequestCounter REQUESTS = new RequestCounter();
  private static KubernetesClient counted;
  private static VarroaOperator operator;

  @BeforeAll
  static void startOperator(KubeApiServer kube, @TempDir Path cache) {
    KubernetesClient client = kube.client();
    for (String namespace : new String[] {"watch", "classy"}) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    StarterProfile.install(client, null);
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: ControllerClass
        metadata: {name: small}
        spec: {jenkins: {javaOpts: "-Xmx1g"}}
        """);
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: plain, namespace: watch}
        spec: {}
        """);
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: classy, namespace: classy}
        spec: {classRef: {name: small}}
        """);
    counted = REQUESTS.client(kube);
    operator = new VarroaOperator(counted, OperatorSettings.defaults(cache), null);
    operator.start();
    await().atMost(DEADLINE).until(() -> statefulSet(client, "watch", "plain") != null
        && statefulSet(client, "classy", "classy") != null);
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
    counted.close();
  }

  @Test
  void aProvisioningDefaultsPatchReachesEveryStatefulSet(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    patch(client, "provisioningdefaults", "default", "{\"spec\":{\"reconciliation\":{\"drainTimeoutSeconds\":300}}}");
    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(statefulSet(client, "watch", "plain").getSpec().getTemplate().getSpec()
          .getTerminationGracePeriodSeconds()).isEqualTo(360L);
      assertThat(statefulSet(client, "classy", "classy").getSpec().getTemplate().getSpec()
          .getTerminationGracePeriodSeconds()).isEqualTo(360L);
    });
  }

  @Test
  void aControllerClassPatchReachesItsControllersOnly(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    String plainBefore = YAML.asJson(statefulSet(client, "watch", "plain").getSpec().getTemplate());
    patch(client, "controllerclasses", "small", "{\"spec\":{\"jenkins\":{\"javaOpts\":\"-Xmx2g\"}}}");
    await().atMost(DEADLINE).until(() -> env(statefulSet(client, "classy", "classy"), "JAVA_OPTS").contains("-Xmx2g"));
    assertThat(YAML.asJson(statefulSet(client, "watch", "plain").getSpec().getTemplate())).isEqualTo(plainBefore);
  }

  @Test
  void aVersionProfilePatchReachesControllersThatInheritItFromTheDefaults(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    patch(client, "jenkinsversionprofiles", "lts", "{\"spec\":{\"image\":\"jenkins/jenkins:2.555.3-lts-jdk21\"}}");
    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(jenkins(statefulSet(client, "watch", "plain")).getImage()).isEqualTo("jenkins/jenkins:2.555.3-lts-jdk21");
      assertThat(jenkins(statefulSet(client, "classy", "classy")).getImage()).isEqualTo("jenkins/jenkins:2.555.3-lts-jdk21");
    });
  }

  @Test
  void aNewPodTemplateReachesTheCloudOfItsNamespace(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: PodTemplate
        metadata: {name: gradle-watched, namespace: watch}
        spec:
          label: gradle
          pod:
            containers:
              - {name: gradle, image: "gradle:8-jdk21"}
        """);
    await().atMost(DEADLINE).until(() -> casc(client, "watch", "plain").contains("gradle-watched"));
    assertThat(casc(client, "classy", "classy")).doesNotContain("gradle-watched");
  }

  @Test
  void anUpdateCenterReachesThePluginsInitContainer(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: default}
        spec: {url: "https://updates.example.com/update-center.json"}
        """);
    await().atMost(DEADLINE).until(() -> statefulSet(client, "watch", "plain").getSpec().getTemplate().getSpec()
        .getInitContainers().stream().anyMatch(c -> c.getArgs().contains("https://updates.example.com/update-center.json")));
  }

  @Test
  void aPassReadsEveryInputFromTheCachesAndSendsNoGet(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    long before = operator.controllers().completedPasses();
    REQUESTS.reset();
    // a change of the defaults that renders the same objects: every Controller is passed, nothing is written
    patch(client, "provisioningdefaults", "default", "{\"metadata\":{\"labels\":{\"touched\":\"" + System.nanoTime() + "\"}}}");
    await().atMost(DEADLINE).until(() -> operator.controllers().completedPasses() >= before + 2);
    assertThat(REQUESTS.of(RequestCounter.Kind.GET)).as("GETs during the passes").isEmpty();
    assertThat(REQUESTS.of(RequestCounter.Kind.LIST)).as("LISTs during the passes").isEmpty();
  }

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(YAML.unmarshal(yaml, GenericKubernetesResource.class)).serverSideApply();
  }

  private static void patch(KubernetesClient client, String plural, String name, String mergePatch) {
    client.genericKubernetesResources("varroa.dev/v1alpha1", kind(plural)).withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
  }

  private static String kind(String plural) {
    return switch (plural) {
      case "provisioningdefaults" -> "ProvisioningDefaults";
      case "controllerclasses" -> "ControllerClass";
      case "jenkinsversionprofiles" -> "JenkinsVersionProfile";
      default -> throw new IllegalArgumentException(plural);
    };
  }

  private static StatefulSet statefulSet(KubernetesClient client, String namespace, String name) {
    Controller controller = client.resources(Controller.class).inNamespace(namespace).withName(name).get();
    if (controller == null || controller.getStatus() == null || controller.getStatus().statefulSetName == null) {
      return null;
    }
    return client.apps().statefulSets().inNamespace(namespace).withName(controller.getStatus().statefulSetName).get();
  }

  private static Container jenkins(StatefulSet sts) {
    return sts.getSpec().getTemplate().getSpec().getContainers().stream().filter(c -> c.getName().equals("jenkins"))
        .findFirst().orElseThrow();
  }

  private static String env(StatefulSet sts, String name) {
    return jenkins(sts).getEnv().stream().filter(e -> e.getName().equals(name)).findFirst()
        .map(e -> e.getValue()).orElse("");
  }

  private static String casc(KubernetesClient client, String namespace, String name) {
    StatefulSet sts = statefulSet(client, namespace, name);
    ConfigMap casc = client.configMaps().inNamespace(namespace).withName(sts.getMetadata().getName() + "-casc").get();
    Function<ConfigMap, String> all = c -> c.getData() == null ? "" : String.join("\n", c.getData().values());
    return casc == null ? "" : all.apply(casc);
  }
}

package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.render.RestartHash;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.RequestCounter;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Change classes end to end: a JCasC-only change keeps the pod template, a plugin change rolls it. */
@WithKubeApiServer
@ExtendWith(GitServerExtension.class)
class ControllerChangeClassesIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void jcascOnlyChangeKeepsThePodTemplateAndAPluginChangeRollsIt(KubeApiServer kube, GitServer git,
      @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: first\n",
        "plugins.yaml", "plugins:\n  - id: git\n"), "first");
    setUp(client, git.httpUrl("team"));

    RequestCounter counter = new RequestCounter();
    try (KubernetesClient counted = counter.client(kube);
        VarroaOperator operator = new VarroaOperator(counted, OperatorSettings.defaults(cache), null)) {
      operator.start();
      StatefulSet before = awaitStatefulSet(client);
      await().atMost(DEADLINE).untilAsserted(() -> assertThat(casc(client, before)).contains("systemMessage: first"));

      repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: second\n"), "jcasc only");
      requestReconcile(client, "1");
      await().atMost(DEADLINE).until(() -> casc(client, before).contains("systemMessage: second"));
      StatefulSet afterJcasc = client.apps().statefulSets().inNamespace("team").withName(before.getMetadata().getName()).get();
      assertThat(YAML.asJson(afterJcasc.getSpec().getTemplate())).isEqualTo(YAML.asJson(before.getSpec().getTemplate()));

      repo.commit(Map.of("plugins.yaml", "plugins:\n  - id: git\n  - {id: ansicolor, version: \"1.0.6\"}\n"), "plugin");
      requestReconcile(client, "2");
      await().atMost(DEADLINE).untilAsserted(() -> assertThat(hash(client, before))
          .as("restart hash; bundle status %s; controller status %s",
              YAML.asJson(client.resources(ComposedBundle.class).inNamespace("team").withName("team").get().getStatus()),
              YAML.asJson(status(client, "team")))
          .isNotEqualTo(restartHash(before)));

      // the plugin change settles first (its bundle, the roll and the status that follows): no write for 3 s
      java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger(-1);
      await().atMost(DEADLINE).during(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(500))
          .until(() -> writes.getAndSet(counter.of(RequestCounter.Kind.WRITE).size())
              == counter.of(RequestCounter.Kind.WRITE).size());
      // A forced resync of an unchanged Controller: a fresh operator reconciles everything once.
      operator.close();
      counter.reset();
      try (VarroaOperator resync = new VarroaOperator(counted, OperatorSettings.defaults(cache), null)) {
        resync.start();
        await().atMost(DEADLINE).until(() -> resync.controllers().completedPasses() >= 1);
        assertThat(counter.of(RequestCounter.Kind.WRITE)).as("writes on a resync with nothing changed").isEmpty();
      }
    }
  }

  @Test
  void bundleConflictBlocksTheControllersThatUseIt(KubeApiServer kube, GitServer git, @TempDir Path cache)
      throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("blocked");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: fine\n",
        "plugins.yaml", "plugins:\n  - id: git\n"), "fine");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("blk").endMetadata().build()).create();
    apply(client, bundleYaml("blk", git.httpUrl("blocked")), controllerYaml("blk"));
    try (VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null)) {
      operator.start();
      await().atMost(DEADLINE).until(() -> status(client, "blk") != null && status(client, "blk").statefulSetName != null);

      repo.commit(Map.of("plugins.yaml", "plugins:\n  - {id: git, version: \"5.7.0\"}\n"), "pin");
      requestReconcile(client, "blk", "x");

      await().atMost(DEADLINE).until(() -> "Blocked".equals(status(client, "blk").attention));
      assertThat(status(client, "blk").condition(Condition.RECONCILE_BLOCKED)).get()
          .satisfies(c -> assertThat(c.message).contains("team").contains("5.7.0").contains("fix"));
    }
  }

  private static dev.varroa.api.v1alpha1.ControllerStatus status(KubernetesClient client, String namespace) {
    Controller c = client.resources(Controller.class).inNamespace(namespace).withName("jenkins").get();
    return c == null ? null : c.getStatus();
  }

  private static void setUp(KubernetesClient client, String url) {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("team").endMetadata().build()).create();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: lts}
        spec:
          jenkinsVersion: "2.555.2"
          image: jenkins/jenkins:2.555.2-lts-jdk21
          plugins:
            - {id: git, version: "5.8.0"}
            - {id: timestamper, version: "1.30"}
        """, bundleYaml("team", url), controllerYaml("team"));
  }

  private static String bundleYaml(String namespace, String url) {
    return """
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: team, namespace: %s}
        spec:
          interval: 1h
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {branch: main}}
        """.formatted(namespace, url);
  }

  private static String controllerYaml(String namespace) {
    return """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: jenkins, namespace: %s}
        spec:
          composedBundleRef: {name: team}
        """.formatted(namespace);
  }

  private static void apply(KubernetesClient client, String... yamls) {
    for (String yaml : yamls) {
      GenericKubernetesResource object = YAML.unmarshal(yaml, GenericKubernetesResource.class);
      if (client.resource(object).get() == null) {
        client.resource(object).create();
      }
    }
  }

  private static void requestReconcile(KubernetesClient client, String value) {
    requestReconcile(client, "team", value);
  }

  /** A merge patch carries no resourceVersion: the operator writes the same object meanwhile. */
  private static void requestReconcile(KubernetesClient client, String namespace, String value) {
    client.resources(ComposedBundle.class).inNamespace(namespace).withName("team").patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + ComposedBundleReconciler.REQUESTED_AT + "\":\"" + value + "\"}}}");
  }

  private static StatefulSet awaitStatefulSet(KubernetesClient client) {
    await().atMost(DEADLINE).until(() -> status(client, "team") != null && status(client, "team").statefulSetName != null
        && client.apps().statefulSets().inNamespace("team").withName(status(client, "team").statefulSetName).get() != null);
    return client.apps().statefulSets().inNamespace("team").withName(status(client, "team").statefulSetName).get();
  }

  private static String casc(KubernetesClient client, StatefulSet sts) {
    var cm = client.configMaps().inNamespace("team").withName(sts.getMetadata().getName() + "-casc").get();
    return cm == null ? "" : String.join("\n", cm.getData().values());
  }

  private static String hash(KubernetesClient client, StatefulSet sts) {
    return restartHash(client.apps().statefulSets().inNamespace("team").withName(sts.getMetadata().getName()).get());
  }

  private static String restartHash(StatefulSet sts) {
    return sts.getSpec().getTemplate().getMetadata().getAnnotations().get(RestartHash.ANNOTATION);
  }
}

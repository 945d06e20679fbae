package dev.varroa.operator.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.BundleInput;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.bundle.compose.ComposeRequest;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.apply.ForeignObjectException;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The operator in the test JVM renders ComposedBundles from a real Git server into a real API server. */
@WithKubeApiServer
@ExtendWith(GitServerExtension.class)
class ComposedBundleReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static VarroaOperator operator;

  @BeforeAll
  static void startOperator(KubeApiServer kube, @TempDir Path cache) {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build()).create();
    StarterProfile.installGitOnly(client);
    operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null);
    operator.start();
  }

  @AfterAll
  static void stopOperator() {
    operator.close();
  }

  private static void createBundle(KubernetesClient client, String name, String url) {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: ci}
        spec:
          interval: 1h
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {branch: main}}
        """.formatted(name, url), GenericKubernetesResource.class)).create();
  }

  private static Optional<Condition> condition(KubernetesClient client, String name, String type) {
    ComposedBundle bundle = client.resources(ComposedBundle.class).inNamespace("ci").withName(name).get();
    return bundle == null || bundle.getStatus() == null ? Optional.empty() : bundle.getStatus().condition(type);
  }

  private static ComposedBundle bundle(KubernetesClient client, String name) {
    return client.resources(ComposedBundle.class).inNamespace("ci").withName(name).get();
  }

  @Test
  void rendersIntoAConfigMapAndReportsFluxStyleStatus(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-a");
    String commit = repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: hello\n",
        "plugins.yaml", "plugins:\n  - id: git\n"), "one");

    createBundle(client, "team-a", git.httpUrl("team-a"));

    await().atMost(DEADLINE).until(() -> condition(client, "team-a", Condition.READY)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    ComposedBundle ready = bundle(client, "team-a");
    assertThat(ready.getStatus().observedGeneration).isEqualTo(ready.getMetadata().getGeneration());
    assertThat(ready.getStatus().inputs).singleElement()
        .satisfies(input -> assertThat(input.revision).isEqualTo("main@sha1:" + commit));
    assertThat(ready.getStatus().artifact.digest).startsWith("sha256:");
    assertThat(condition(client, "team-a", Condition.STALLED)).get().extracting(c -> c.status)
        .isEqualTo(Condition.Status.False);
    ConfigMap stored = client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("team-a")).get();
    assertThat(stored.getData().get("jcasc.yaml")).contains("systemMessage: hello");
    assertThat(stored.getData().get("plugins.txt")).isEqualTo("git:5.8.0\n");
    assertThat(stored.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(owner -> assertThat(owner.getUid()).isEqualTo(ready.getMetadata().getUid()));
    assertThat(client.resources(JenkinsVersionProfile.class).withName("lts").get().getStatus()
        .condition(Condition.READY)).get().extracting(c -> c.status).isEqualTo(Condition.Status.True);
  }

  @Test
  void requestedAtAnnotationRendersTheMovedBranchAndIsEchoed(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-b");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: before\n"), "one");
    createBundle(client, "team-b", git.httpUrl("team-b"));
    await().atMost(DEADLINE).until(() -> condition(client, "team-b", Condition.READY)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    String before = bundle(client, "team-b").getStatus().artifact.digest;

    String moved = repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: after\n"), "two");
    requestReconcile(client, "team-b", "2026-11-29T10:00:00Z");

    await().atMost(DEADLINE).until(() -> "2026-11-29T10:00:00Z".equals(bundle(client, "team-b").getStatus().lastHandledReconcileAt));
    ComposedBundle after = bundle(client, "team-b");
    assertThat(after.getStatus().artifact.digest).isNotEqualTo(before);
    assertThat(after.getStatus().inputs.get(0).revision).isEqualTo("main@sha1:" + moved);
    assertThat(client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("team-b")).get()
        .getData().get("jcasc.yaml")).contains("systemMessage: after");
  }

  @Test
  void conflictStallsTheBundleAndKeepsTheLastGoodRender(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-c");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: good\n", "plugins.yaml", "plugins:\n  - id: git\n"),
        "one");
    createBundle(client, "team-c", git.httpUrl("team-c"));
    await().atMost(DEADLINE).until(() -> condition(client, "team-c", Condition.READY)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    String good = bundle(client, "team-c").getStatus().artifact.digest;

    repo.commit(Map.of("plugins.yaml", "plugins:\n  - {id: git, version: \"5.7.0\"}\n"), "pin");
    requestReconcile(client, "team-c", "now");

    await().atMost(DEADLINE).until(() -> condition(client, "team-c", Condition.STALLED)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    Condition stalled = condition(client, "team-c", Condition.STALLED).orElseThrow();
    assertThat(stalled.reason).isEqualTo("Conflict");
    assertThat(stalled.message).contains("5.7.0").contains("5.8.0").contains("stays in force");
    assertThat(client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("team-c")).get()
        .getMetadata().getAnnotations().get(BundleConfigMap.DIGEST_ANNOTATION)).isEqualTo(good);
  }

  @Test
  void aBundleThatLeavesJenkinsOpenStallsNamingTheInputTheFileAndTheField(KubeApiServer kube, GitServer git)
      throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-open");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  authorizationStrategy: unsecured\n",
        "plugins.yaml", "plugins:\n  - id: git\n"), "open");
    createBundle(client, "team-open", git.httpUrl("team-open"));

    await().atMost(DEADLINE).until(() -> condition(client, "team-open", Condition.STALLED)
        .filter(c -> c.status == Condition.Status.True).isPresent());
    Condition stalled = condition(client, "team-open", Condition.STALLED).orElseThrow();
    assertThat(stalled.reason).isEqualTo("Conflict");
    assertThat(stalled.message).contains("spec.inputs[0]").contains("jcasc/00.yaml")
        .contains("jenkins.authorizationStrategy").contains("fix: remove jenkins.authorizationStrategy");
    assertThat(client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("team-open")).get()).isNull();
  }

  @Test
  void aVersionProfilePatchRendersItsBundlesAgainBeforeTheInterval(KubeApiServer kube, GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: lts-next}
        spec:
          jenkinsVersion: "2.555.2"
          image: jenkins/jenkins:2.555.2-lts-jdk21
          plugins:
            - {id: git, version: "5.8.0"}
        """, GenericKubernetesResource.class)).create();
    GitRepository repo = git.createRepository("team-d");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: d\n", "plugins.yaml", "plugins:\n  - id: git\n"),
        "one");
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: team-d, namespace: ci}
        spec:
          interval: 1h
          versionProfileRef: {name: lts-next}
          inputs:
            - git: {url: "%s", ref: {branch: main}}
        """.formatted(git.httpUrl("team-d")), GenericKubernetesResource.class)).create();
    await().atMost(DEADLINE).until(() -> plugins(client, "team-d").equals("git:5.8.0\n"));

    client.resources(JenkinsVersionProfile.class).withName("lts-next").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"plugins\":[{\"id\":\"git\",\"version\":\"5.9.0\"}]}}");

    // the interval is an hour: only the profile's watch can render this
    await().atMost(Duration.ofSeconds(30)).until(() -> plugins(client, "team-d").equals("git:5.9.0\n"));
  }

  @Test
  void anotherNamespaceDoesNotReadAPrivateRepositoryTheCacheHoldsForTheFirst(KubeApiServer kube, GitServer git)
      throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("private").requireBasicAuth("reader", "s3cret");
    String commit = repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: private to ci\n",
        "plugins.yaml", "plugins:\n  - id: git\n"), "one");
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("other").endMetadata().build())
        .create();
    client.resource(credentials("ci", "reader", "s3cret")).create();
    client.resource(credentials("other", "reader", "guess")).create();
    createPinnedBundle(client, "ci", "private-a", git.httpUrl("private"), commit, "git-credentials");
    await().atMost(DEADLINE).until(() -> condition(client, "ci", "private-a", Condition.READY)
        .filter(c -> c.status == Condition.Status.True).isPresent());

    // A pinned commit costs no ls-remote: only the operator's clone cache could hand it over without credentials.
    createPinnedBundle(client, "other", "no-secret", git.httpUrl("private"), commit, null);
    createPinnedBundle(client, "other", "wrong-secret", git.httpUrl("private"), commit, "git-credentials");

    for (String name : new String[] {"no-secret", "wrong-secret"}) {
      await().atMost(DEADLINE).until(() -> condition(client, "other", name, Condition.READY)
          .filter(c -> "SourceUnavailable".equals(c.reason)).isPresent());
      assertThat(condition(client, "other", name, Condition.READY).orElseThrow().message)
          .contains("cannot list the refs of " + git.httpUrl("private")).contains("nothing rendered yet");
      assertThat(client.configMaps().inNamespace("other").withName(BundleConfigMap.name(name)).get()).isNull();
    }
    assertThat(client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("private-a")).get()
        .getData().get("jcasc.yaml")).contains("private to ci");
  }

  @Test
  void theOperatorRefusesAFileUrlTheSchemaWouldNowRejectNamingTheInputTheFieldAndTheFix(KubeApiServer kube,
      GitServer git) throws Exception {
    GitRepository repo = git.createRepository("on-disk");
    repo.commit(Map.of("plugins.yaml", "plugins:\n  - id: git\n"), "one");
    // An object stored before the schema refused file:// reaches the composer as this request does.
    BundleInput input = YAML.unmarshal("git: {url: \"" + repo.fileUrl() + "\", ref: {branch: main}}", BundleInput.class);

    BundleException refused = catchThrowableOfType(BundleException.class, () -> operator.composers().in("ci").compose(
        new ComposeRequest("ci/on-disk", "on-disk", List.of(input), VersionProfileConversion.of(
            kube.client().resources(JenkinsVersionProfile.class).withName("lts").get()), Set.of(), Set.of())));

    assertThat(refused).isNotNull().isNotInstanceOf(SourceUnavailableException.class);
    assertThat(refused.problems()).singleElement().satisfies(problem -> {
      assertThat(problem.input()).isEqualTo("spec.inputs[0] (git " + repo.fileUrl() + ", branch main)");
      assertThat(problem.yamlPath()).isEqualTo("url");
      assertThat(problem.message()).contains("a file:// URL would read the operator's own disk");
      assertThat(problem.fix()).contains("serve the repository over https:// or ssh://");
    });
  }

  @Test
  void aConfigMapOfTheBundlesNameThatVarroaDidNotWriteStallsTheBundleAndIsLeftAsItWas(KubeApiServer kube,
      GitServer git) throws Exception {
    KubernetesClient client = kube.client();
    GitRepository repo = git.createRepository("team-taken");
    repo.commit(Map.of("jcasc/00.yaml", "jenkins:\n  systemMessage: hello\n"), "one");
    client.resource(new ConfigMapBuilder().withNewMetadata().withName(BundleConfigMap.name("team-taken"))
        .withNamespace("ci").endMetadata().withData(Map.of("mine", "keep me")).build()).create();

    createBundle(client, "team-taken", git.httpUrl("team-taken"));

    await().atMost(DEADLINE).until(() -> condition(client, "team-taken", Condition.STALLED)
        .filter(c -> c.status == Condition.Status.True && ForeignObjectException.REASON.equals(c.reason)).isPresent());
    assertThat(condition(client, "team-taken", Condition.READY)).get().satisfies(ready -> assertThat(ready.message)
        .contains("ConfigMap ci/" + BundleConfigMap.name("team-taken") + " exists and was not written for ComposedBundle")
        .contains("fix: rename or delete that ConfigMap, or rename the ComposedBundle"));
    ConfigMap untouched = client.configMaps().inNamespace("ci").withName(BundleConfigMap.name("team-taken")).get();
    assertThat(untouched.getData()).containsExactly(Map.entry("mine", "keep me"));
    assertThat(untouched.getMetadata().getOwnerReferences()).isNullOrEmpty();
  }

  private static Secret credentials(String namespace, String username, String password) {
    return new SecretBuilder().withNewMetadata().withName("git-credentials").withNamespace(namespace).endMetadata()
        .withStringData(Map.of("username", username, "password", password)).build();
  }

  private static void createPinnedBundle(KubernetesClient client, String namespace, String name, String url,
      String commit, String secretName) {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: %s, namespace: %s}
        spec:
          interval: 1h
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {commit: "%s"}%s}
        """.formatted(name, namespace, url, commit, secretName == null ? "" : ", secretRef: {name: " + secretName + "}"),
        GenericKubernetesResource.class)).create();
  }

  private static Optional<Condition> condition(KubernetesClient client, String namespace, String name, String type) {
    ComposedBundle bundle = client.resources(ComposedBundle.class).inNamespace(namespace).withName(name).get();
    return bundle == null || bundle.getStatus() == null ? Optional.empty() : bundle.getStatus().condition(type);
  }

  private static String plugins(KubernetesClient client, String bundle) {
    ConfigMap stored = client.configMaps().inNamespace("ci").withName(BundleConfigMap.name(bundle)).get();
    return stored == null ? "" : stored.getData().get("plugins.txt");
  }

  /** A merge patch carries no resourceVersion: the operator writes the same object meanwhile. */
  private static void requestReconcile(KubernetesClient client, String name, String value) {
    client.resources(ComposedBundle.class).inNamespace("ci").withName(name).patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + ComposedBundleReconciler.REQUESTED_AT + "\":\"" + value + "\"}}}");
  }
}

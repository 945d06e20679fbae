package dev.varroa.operator.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.apply.ForeignObjectException;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A CatalogSource is indexed into CatalogItems, which a ComposedBundle then uses as an input. */
@WithKubeApiServer
@ExtendWith(GitServerExtension.class)
class CatalogSourceReconcilerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  @Test
  void indexesItemsAndServesThemToBundles(KubeApiServer kube, GitServer git, @TempDir Path cache) throws Exception {
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("cat").endMetadata().build()).create();
    GitRepository catalog = git.createRepository("catalog");
    String revision = catalog.commit(Map.of(
        "items/base-security/jcasc/00.yaml", "jenkins:\n  numExecutors: 0\n",
        "items/maven-agents/jcasc/00.yaml", "jenkins:\n  systemMessage: maven\n",
        "README.md", "the platform catalog"), "catalog");
    for (String yaml : List.of("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: cat-lts}
        spec: {jenkinsVersion: "2.555.2", image: "jenkins/jenkins:2.555.2-lts-jdk21"}
        """, """
        apiVersion: varroa.dev/v1alpha1
        kind: CatalogSource
        metadata: {name: platform, namespace: cat}
        spec:
          git: {url: "%s", ref: {branch: main}}
        """.formatted(git.httpUrl("catalog")), """
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: uses-catalog, namespace: cat}
        spec:
          versionProfileRef: {name: cat-lts}
          inputs:
            - catalogItem: {name: base-security}
        """)) {
      client.resource(YAML.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    try (VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null)) {
      operator.start();

      await().atMost(DEADLINE).untilAsserted(() -> assertThat(
              client.resources(CatalogItem.class).inNamespace("cat").list().getItems())
          .as("CatalogItems; CatalogSource status: %s", YAML.asJson(
              client.resources(CatalogSource.class).inNamespace("cat").withName("platform").get().getStatus()))
          .hasSize(2));
      CatalogItem item = client.resources(CatalogItem.class).inNamespace("cat").withName("base-security").get();
      assertThat(item.getSpec().path).isEqualTo("items/base-security");
      assertThat(item.getSpec().sourceRef.name).isEqualTo("platform");
      assertThat(item.getMetadata().getOwnerReferences()).singleElement()
          .satisfies(owner -> assertThat(owner.getKind()).isEqualTo("CatalogSource"));
      await().atMost(DEADLINE).untilAsserted(() -> {
        CatalogSource source = client.resources(CatalogSource.class).inNamespace("cat").withName("platform").get();
        assertThat(source.getStatus()).as("CatalogSource status").isNotNull();
        assertThat(source.getStatus().artifact).as("status %s", YAML.asJson(source.getStatus())).isNotNull();
        assertThat(source.getStatus().artifact.revision).isEqualTo("main@sha1:" + revision);
        assertThat(source.getStatus().items).containsExactly("base-security", "maven-agents");
      });
      await().atMost(DEADLINE).until(() -> {
        ComposedBundle bundle = client.resources(ComposedBundle.class).inNamespace("cat").withName("uses-catalog").get();
        return bundle.getStatus() != null && bundle.getStatus().condition(Condition.READY)
            .filter(c -> c.status == Condition.Status.True).isPresent();
      });
      ComposedBundle bundle = client.resources(ComposedBundle.class).inNamespace("cat").withName("uses-catalog").get();
      assertThat(bundle.getStatus().inputs.get(0).kind).isEqualTo("catalogItem");
      assertThat(bundle.getStatus().inputs.get(0).revision).isEqualTo("main@sha1:" + revision);
    }
  }

  @Test
  void aCatalogItemOfTheSameNameThatNoSourceWroteStallsTheSourceAndIsLeftAsItWas(KubeApiServer kube, GitServer git)
      throws Exception {
    Path cache = Files.createTempDirectory("catalog-taken-cache");
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("cat-taken").endMetadata().build())
        .create();
    GitRepository catalog = git.createRepository("catalog-taken");
    catalog.commit(Map.of("items/base-security/jcasc/00.yaml", "jenkins:\n  numExecutors: 0\n"), "catalog");
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CatalogItem
        metadata: {name: base-security, namespace: cat-taken}
        spec: {sourceRef: {name: hand-made}, path: items/mine}
        """, GenericKubernetesResource.class)).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: CatalogSource
        metadata: {name: platform, namespace: cat-taken}
        spec:
          git: {url: "%s", ref: {branch: main}}
        """.formatted(git.httpUrl("catalog-taken")), GenericKubernetesResource.class)).create();

    try (VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(cache), null)) {
      operator.start();

      await().atMost(DEADLINE).untilAsserted(() -> {
        CatalogSource source = client.resources(CatalogSource.class).inNamespace("cat-taken").withName("platform").get();
        assertThat(source.getStatus()).as("CatalogSource status").isNotNull();
        assertThat(source.getStatus().condition(Condition.STALLED)).get().satisfies(stalled -> {
          assertThat(stalled.reason).isEqualTo(ForeignObjectException.REASON);
          assertThat(stalled.message).contains("CatalogItem cat-taken/base-security exists and was not written for"
              + " CatalogSource cat-taken/platform").contains("fix: rename or delete that CatalogItem");
        });
      });
      CatalogItem untouched = client.resources(CatalogItem.class).inNamespace("cat-taken").withName("base-security")
          .get();
      assertThat(untouched.getSpec().path).isEqualTo("items/mine");
      assertThat(untouched.getSpec().sourceRef.name).isEqualTo("hand-made");
      assertThat(untouched.getMetadata().getOwnerReferences()).isNullOrEmpty();
    } finally {
      // the stall comes back within a second: a fetch of a second pass may still be writing the cache as the operator closes
      await().atMost(DEADLINE).ignoreExceptions().untilAsserted(() -> deleteTree(cache));
    }
  }

  private static void deleteTree(Path root) throws IOException {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

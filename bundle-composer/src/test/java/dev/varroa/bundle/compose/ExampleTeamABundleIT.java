package dev.varroa.bundle.compose;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogItemSpec;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.ComposedBundle;
import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.ObjectRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.render.BundleLock;
import dev.varroa.bundle.render.PluginSource;
import dev.varroa.bundle.source.FluxArtifact;
import dev.varroa.bundle.source.FluxArtifactSource;
import dev.varroa.bundle.source.GitBundleSource;
import dev.varroa.bundle.source.OciBundleSource;
import dev.varroa.bundle.source.SourceLimits;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleBundleSources;
import dev.varroa.testfixtures.demo.ExampleCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example ComposedBundle ci/team-a of gitops-examples/varroa/, rendered by the composer the
 * operator runs from the example bundle repositories of gitops-examples/bundles/, served locally
 * the way `make demo` serves them.
 */
class ExampleTeamABundleIT {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private static ExampleBundleSources sources;
  private static List<HasMetadata> examples;

  @TempDir Path cache;

  @BeforeAll
  static void serveTheExampleRepositories() throws Exception {
    sources = ExampleBundleSources.start(ProjectLayout.root());
    examples = sources.rewrite(ExampleCluster.exampleObjects(ProjectLayout.root()));
  }

  @AfterAll
  static void stop() throws Exception {
    if (sources != null) {
      sources.close();
    }
  }

  @Test
  void rendersTeamAFromTheCatalogItemTheTeamFolderAndTheReleaseWithoutConflict() throws Exception {
    ComposedBundle bundle = example(ComposedBundle.class, "team-a");

    Composition composition = composer().compose(new ComposeRequest("ci/team-a", "team-a", bundle.getSpec().inputs,
        VersionProfileConversion.of(example(JenkinsVersionProfile.class, "lts")), declaredSecrets(bundle),
        JenkinsEnvironment.VARIABLES));

    assertThat(composition.stale()).isFalse();
    assertThat(composition.revisions()).containsExactly(
        sources.revisions().get(ExampleBundleSources.CATALOG_URL),
        sources.revisions().get(ExampleBundleSources.TEAM_GIT_URL),
        sources.revisions().get(ExampleBundleSources.TEAM_OCI_URL));
    String jcasc = composition.rendered().jcascText();
    assertThat(jcasc)
        .contains("password: ${GITHUB_TOKEN}")
        .contains("name: platform-admins", "Overall/Administer", "excludeClientIPFromCrumb: false",
            "sshHostKeyVerificationStrategy: knownHostsFileVerificationStrategy")
        .contains("name: team-a", "pipelineJob('team-a/payments-service')", "allPipelines: true");
    assertThat(composition.rendered().lock().secrets()).containsExactly("GITHUB_TOKEN");
    assertThat(composition.rendered().lock().overrides())
        .containsExactly(new BundleLock.Override("jenkins.systemMessage", "2", "1"));
  }

  @Test
  void installsExactlyTheProfilesPluginsWithJobDslPinnedAtTheProfilesVersion() throws Exception {
    ComposedBundle bundle = example(ComposedBundle.class, "team-a");

    Composition composition = composer().compose(new ComposeRequest("ci/team-a", "team-a", bundle.getSpec().inputs,
        VersionProfileConversion.of(example(JenkinsVersionProfile.class, "lts")), declaredSecrets(bundle),
        JenkinsEnvironment.VARIABLES));

    assertThat(composition.rendered().pluginsText()).isEqualTo("""
        configuration-as-code:2006.v001a_2ca_6b_574
        credentials:1453.v9b_a_29777a_b_fd
        git:5.8.0
        job-dsl:1.93
        kubernetes:4384.v1b_6367f393d9
        matrix-auth:3.2.9
        timestamper:1.30
        workflow-aggregator:608.v67378e9d3db_1
        """);
    assertThat(composition.rendered().lock().plugins())
        .filteredOn(plugin -> plugin.source() != PluginSource.PROFILE)
        .extracting(plugin -> plugin.id() + " " + plugin.source())
        .containsExactly("job-dsl " + PluginSource.PROFILE_AND_PIN);
  }

  private BundleComposer composer() {
    SourceLimits limits = SourceLimits.DEFAULTS;
    return new BundleComposer(new SourceInputResolver(new GitBundleSource(cache, limits),
        new OciBundleSource(limits, Set.of(sources.plainHttpRegistry())), new FluxArtifactSource(limits),
        new ExampleClusterObjects()));
  }

  // As ComposedBundleReconciler passes them: the names the bundle declares.
  private static Set<String> declaredSecrets(ComposedBundle bundle) {
    Set<String> names = new TreeSet<>();
    bundle.getSpec().secrets.forEach(secret -> names.add(secret.name));
    return names;
  }

  private static <T extends HasMetadata> T example(Class<T> type, String name) {
    return examples.stream()
        .filter(o -> o.getKind().equals(HasMetadata.getKind(type)) && o.getMetadata().getName().equals(name))
        .map(o -> JSON.convertValue(o, type))
        .findFirst()
        .orElseThrow(() -> new AssertionError(
            "no " + type.getSimpleName() + " " + name + " in gitops-examples/varroa/"));
  }

  /** Namespace ci as the operator sees it once the demo has applied the examples and indexed the catalog. */
  private static final class ExampleClusterObjects implements SourceObjects {
    @Override
    public String namespace() {
      return ExampleBundleSources.NAMESPACE;
    }

    @Override
    public Optional<CatalogItem> catalogItem(String name) {
      // What CatalogSourceReconciler writes for the folder items/<name>/ of the CatalogSource platform.
      CatalogItem item = new CatalogItem();
      item.getMetadata().setName(name);
      item.getMetadata().setNamespace(ExampleBundleSources.NAMESPACE);
      CatalogItemSpec spec = new CatalogItemSpec();
      spec.sourceRef = ObjectRef.of("platform");
      spec.path = "items/" + name;
      item.setSpec(spec);
      return Optional.of(item);
    }

    @Override
    public Optional<CatalogSource> catalogSource(String name) {
      return Optional.of(example(CatalogSource.class, name));
    }

    @Override
    public List<CatalogSource> catalogSources() {
      return List.of();
    }

    @Override
    public Optional<FluxArtifact> fluxArtifact(FluxSourceRef.Kind kind, String name) {
      return Optional.empty();
    }

    @Override
    public Optional<Map<String, byte[]>> secret(String name) {
      return sources.secrets().stream()
          .filter(secret -> secret.getMetadata().getName().equals(name))
          .findFirst()
          .map(secret -> {
            Map<String, byte[]> data = new TreeMap<>();
            secret.getData().forEach((key, value) -> data.put(key, Base64.getDecoder().decode(value)));
            return data;
          });
    }
  }
}

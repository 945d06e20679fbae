package dev.varroa.operator.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.bundle.BundleFiles;
import dev.varroa.bundle.InputRef;
import dev.varroa.bundle.JenkinsEnvironment;
import dev.varroa.bundle.RenderRequest;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.compose.VersionProfileConversion;
import dev.varroa.bundle.render.BundleRenderer;
import dev.varroa.bundle.render.RenderedBundle;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The wanted list is exactly what the profiles and the bundle locks in force name. */
class WantedPluginSetTest {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static JenkinsVersionProfile profile(String name, String git) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: %s}
        spec:
          jenkinsVersion: "2.555.2"
          image: jenkins/jenkins:2.555.2-lts-jdk21
          plugins:
            - {id: git, version: "%s"}
            - {id: credentials, version: "1453.v9b_a_29777a_b_fd"}
        """.formatted(name, git), JenkinsVersionProfile.class);
  }

  /** The ConfigMap the ComposedBundle reconciler stores a render in, as BundleConfigMap writes it. */
  private static ConfigMap render(String namespace, String bundle, JenkinsVersionProfile profile, String plugins)
      throws Exception {
    RenderedBundle rendered = new BundleRenderer().render(new RenderRequest(bundle, List.of(new ResolvedInput(
        new InputRef(0, "git", "https://git.example.com/b.git", null, Map.of("branch", "main"), ""),
        "main@sha1:" + "a".repeat(40), BundleFiles.ofText(Map.of("plugins.yaml", plugins)))),
        VersionProfileConversion.of(profile), Set.of(), JenkinsEnvironment.VARIABLES));
    ConfigMapBuilder builder = new ConfigMapBuilder().withNewMetadata().withName("varroa-bundle-" + bundle)
        .withNamespace(namespace).addToLabels("varroa.dev/composed-bundle", bundle).endMetadata();
    rendered.files().forEach((file, bytes) -> builder.addToData(file, new String(bytes, StandardCharsets.UTF_8)));
    return builder.build();
  }

  @Test
  void unitesEveryProfilesPluginsWithEveryBundleLockNamingWhoWantsEach() throws Exception {
    JenkinsVersionProfile lts = profile("lts", "5.8.0");
    var wanted = WantedPluginSet.of(List.of(lts, profile("next", "5.9.0")),
        List.of(render("ci", "team-a", lts, "plugins:\n  - id: git\n  - id: credentials\n")));

    assertThat(wanted).containsOnlyKeys("credentials:1453.v9b_a_29777a_b_fd", "git:5.8.0", "git:5.9.0");
    assertThat(wanted.get("git:5.8.0")).containsExactly("ComposedBundle ci/team-a", "JenkinsVersionProfile lts");
    assertThat(wanted.get("git:5.9.0")).containsExactly("JenkinsVersionProfile next");
  }

  @Test
  void aConfigMapThatIsNotARenderAddsNothing() {
    ConfigMap broken = new ConfigMapBuilder().withNewMetadata().withName("varroa-bundle-x").withNamespace("ci")
        .addToLabels("varroa.dev/composed-bundle", "x").endMetadata().addToData("bundle.lock.json", "{").build();

    assertThat(WantedPluginSet.of(List.of(), List.of(broken))).isEmpty();
  }
}

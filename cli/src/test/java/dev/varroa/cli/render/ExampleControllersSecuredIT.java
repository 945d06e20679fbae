package dev.varroa.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.render.resolve.VarroaPlugin;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleBundleSources;
import dev.varroa.testfixtures.demo.ExampleCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Every example Controller of gitops-examples/varroa/, rendered by `varroactl render controller` from the example
 * bundle repositories (served locally as `make demo` serves them): none may leave Jenkins without a security realm
 * or an authorization strategy, and each must install the Varroa plugin.
 */
class ExampleControllersSecuredIT {
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private static ExampleBundleSources sources;
  private static Path files;
  private static List<String> controllers;

  @TempDir static Path work;

  @BeforeAll
  static void writeTheExamplesServedLocally() throws Exception {
    sources = ExampleBundleSources.start(ProjectLayout.root());
    List<HasMetadata> objects = new ArrayList<>(sources.rewrite(ExampleCluster.exampleObjects(ProjectLayout.root())));
    objects.addAll(sources.secrets());
    files = Files.createDirectories(work.resolve("files"));
    for (int i = 0; i < objects.size(); i++) {
      Files.writeString(files.resolve(i + ".yaml"), YAML.asYaml(objects.get(i)));
    }
    controllers = objects.stream().filter(o -> "Controller".equals(o.getKind())).map(o -> o.getMetadata().getName())
        .toList();
  }

  @AfterAll
  static void stop() throws Exception {
    if (sources != null) {
      sources.close();
    }
  }

  @Test
  @SuppressWarnings("unchecked")
  void everyExampleControllerRendersWithARealmAStrategyAndTheVarroaPlugin() {
    assertThat(controllers).as("example Controllers").hasSizeGreaterThanOrEqualTo(2);
    for (String name : controllers) {
      CommandRun run = CommandRun.of("render", "controller", "-f", files.toString(), "--name", name,
          "--cache-dir", work.resolve("cache").toString(), "--plain-http-registry", sources.plainHttpRegistry());
      assertThat(run.exitCode()).as(name + ": " + run.err()).isZero();

      Map<String, Object> casc = (Map<String, Object>) run.object("ConfigMap", name + "-00000000-casc").get("data");
      assertThat(definedIn(casc, "securityRealm")).as(name + ": files setting jenkins.securityRealm").hasSize(1);
      assertThat(definedIn(casc, "authorizationStrategy")).as(name + ": files setting jenkins.authorizationStrategy")
          .hasSize(1);
      Map<String, Object> plugins = (Map<String, Object>) run.object("ConfigMap", name + "-00000000-plugins")
          .get("data");
      assertThat((String) plugins.get("plugins.txt")).as(name).contains("varroa:" + VarroaPlugin.VERSION);
    }
  }

  /** The JCasC files of the ConfigMap whose jenkins mapping sets the key: JCasC reads them all. */
  @SuppressWarnings("unchecked")
  private static List<String> definedIn(Map<String, Object> casc, String key) {
    List<String> files = new ArrayList<>();
    casc.forEach((file, text) -> {
      Object root = new Load(LoadSettings.builder().build()).loadFromString((String) text);
      if (root instanceof Map<?, ?> map && map.get("jenkins") instanceof Map<?, ?> jenkins && jenkins.get(key) != null) {
        files.add(file);
      }
    });
    return files;
  }
}

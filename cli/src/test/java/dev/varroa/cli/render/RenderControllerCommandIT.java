package dev.varroa.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.cli.Varroactl;
import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** varroactl render controller with a ComposedBundle from a real Git repository, composed as `bundle render` does. */
@ExtendWith(GitServerExtension.class)
class RenderControllerCommandIT {
  private static final String PROFILE = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: lts}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: configuration-as-code, version: "2006.v001a_2ca_6b_574"}
          - {id: git, version: "5.8.0"}
      """;

  @TempDir Path work;
  private GitRepository repo;
  private Path files;

  @BeforeEach
  void bundleRepository(GitServer git) throws Exception {
    String name = "controller-" + System.nanoTime();
    repo = git.createRepository(name);
    repo.commit(Map.of(
        "team/jcasc/00-team.yaml", "jenkins:\n  systemMessage: \"Team A ${GITHUB_TOKEN}\"\n",
        "team/plugins.yaml", "plugins:\n  - id: git\n  - {id: timestamper, version: \"1.30\"}\n"), "first");
    files = Files.createDirectories(work.resolve("files"));
    Files.writeString(files.resolve("profile.yaml"), PROFILE);
    Files.writeString(files.resolve("bundle.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: team-a, namespace: ci}
        spec:
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%s", ref: {branch: main}, path: team}
        """.formatted(git.fileUrl(name)));
    Files.writeString(files.resolve("controller.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: team-a, namespace: ci}
        spec:
          composedBundleRef: {name: team-a}
          secrets:
            - {name: GITHUB_TOKEN, secretKeyRef: {name: team-a-github, key: token}}
        """);
  }

  private CommandRun render() {
    return CommandRun.of("render", "controller", "-f", files.toString(), "--cache-dir", work.resolve("cache").toString());
  }

  @SuppressWarnings("unchecked")
  private static String podTemplate(CommandRun run) {
    Map<String, Object> spec = (Map<String, Object>) run.object("StatefulSet", "team-a-00000000").get("spec");
    return String.valueOf(spec.get("template"));
  }

  @Test
  @SuppressWarnings("unchecked")
  void rendersComposedBundleIntoTheControllerConfigMaps() {
    CommandRun run = render();

    assertThat(run.exitCode()).as(run.err()).isZero();
    Map<String, Object> casc = (Map<String, Object>) run.object("ConfigMap", "team-a-00000000-casc").get("data");
    assertThat((String) casc.get("jcasc.yaml")).contains("Team A ${GITHUB_TOKEN}");
    Map<String, Object> plugins = (Map<String, Object>) run.object("ConfigMap", "team-a-00000000-plugins").get("data");
    assertThat((String) plugins.get("plugins.txt")).contains("timestamper:1.30").contains("git:5.8.0");
    assertThat(run.out()).doesNotContain("team-a-github");
  }

  @Test
  void jcascOnlyCommitLeavesPodTemplateAloneAndPluginCommitRollsIt() throws Exception {
    String first = podTemplate(render());

    repo.commit(Map.of("team/jcasc/00-team.yaml", "jenkins:\n  systemMessage: \"Team A v2\"\n"), "jcasc only");
    String jcascOnly = podTemplate(render());
    repo.commit(Map.of("team/plugins.yaml", "plugins:\n  - id: git\n  - {id: timestamper, version: \"1.31\"}\n"),
        "plugin bump");
    String pluginBump = podTemplate(render());

    assertThat(jcascOnly).isEqualTo(first);
    assertThat(pluginBump).isNotEqualTo(first);
  }

  @Test
  void pinAgainstTheProfileExitsThreeAsBundleRenderDoes() throws Exception {
    repo.commit(Map.of("team/plugins.yaml", "plugins:\n  - {id: git, version: \"5.7.0\"}\n"), "pin git");

    CommandRun run = render();

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_CONFLICT);
    assertThat(run.err()).contains("git").contains("5.7.0").contains("5.8.0");
  }

  @Test
  void refusesABundleThatLeavesJenkinsOpenAsAConflictNamingTheInputFileAndField() throws Exception {
    repo.commit(Map.of("team/jcasc/10-open.yaml", "jenkins:\n  authorizationStrategy: unsecured\n"), "open it");

    CommandRun run = render();

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).contains("conflict: spec.inputs[0]").contains("jcasc/10-open.yaml")
        .contains("jenkins.authorizationStrategy").contains("fix: remove jenkins.authorizationStrategy");
  }

  @Test
  @SuppressWarnings("unchecked")
  void keepsTheBundlesRealmAndAddsTheVarroaStrategyBesideIt() throws Exception {
    repo.commit(Map.of("team/jcasc/10-realm.yaml",
        "jenkins:\n  securityRealm:\n    local:\n      allowsSignup: false\n"), "own realm");

    CommandRun run = render();

    assertThat(run.exitCode()).as(run.err()).isZero();
    Map<String, Object> casc = (Map<String, Object>) run.object("ConfigMap", "team-a-00000000-casc").get("data");
    assertThat((String) casc.get("jcasc.yaml")).contains("allowsSignup: false");
    assertThat((String) casc.get("varroa-security.yaml")).doesNotContain("securityRealm")
        .contains("authorizationStrategy:\n    varroa: {}");
  }
}

package dev.varroa.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.cli.Varroactl;
import dev.varroa.operator.render.resolve.VarroaPlugin;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** varroactl render controller over the repository's GitOps examples: starter bundle, no network. */
class RenderControllerCommandTest {
  private static final Path EXAMPLES = examples();

  @TempDir Path work;

  static Path examples() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("gitops-examples/varroa"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("gitops-examples/varroa not found above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("gitops-examples/varroa");
  }

  private static String example(String file) {
    return EXAMPLES.resolve(file).toString();
  }

  private static CommandRun minimal(String... extra) {
    String[] base = {"render", "controller", "-f", example("70-controller-minimal.yaml"),
        "-f", example("10-provisioning-defaults.yaml"), "-f", example("30-version-profile.yaml"),
        "-f", example("60-podtemplate.yaml")};
    String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CommandRun.of(args);
  }

  @Test
  void rendersMinimalExampleWithStarterBundle() {
    CommandRun run = minimal();

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.err()).isEmpty();
    assertThat(run.out()).startsWith("---\n");
    assertThat(run.kindsAndNames()).containsExactly(
        "Namespace/ci-jobs",
        "RoleBinding/sandbox-00000000-agents",
        "ServiceAccount/sandbox-00000000",
        "ConfigMap/sandbox-00000000-casc",
        "ConfigMap/sandbox-00000000-channel",
        "ConfigMap/sandbox-00000000-plugins",
        "Service/sandbox-00000000",
        "StatefulSet/sandbox-00000000");
  }

  @Test
  void aManagedUpdateCenterInTheFilesGivesItsServiceUrlsInTheDefaultOperatorNamespace() throws IOException {
    Path uc = Files.writeString(work.resolve("uc.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: UpdateCenter
        metadata: {name: default}
        spec: {managed: {}}
        """);
    CommandRun run = minimal("-f", uc.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    String pod = run.object("StatefulSet", "sandbox-00000000").toString();
    assertThat(pod).contains("--jenkins-update-center, http://varroa-uc-default.varroa-system.svc/update-center.json")
        .contains("--jenkins-plugin-info, http://varroa-uc-default.varroa-system.svc/plugin-versions.json")
        .contains("-Dhudson.model.UpdateCenter.updateCenterUrl=http://varroa-uc-default.varroa-system.svc/");
  }

  @Test
  @SuppressWarnings("unchecked")
  void resolvesProfileAndDefaultsFromTheFiles() {
    CommandRun run = minimal();

    Map<String, Object> casc = (Map<String, Object>) run.object("ConfigMap", "sandbox-00000000-casc").get("data");
    assertThat((String) casc.get("jcasc.yaml")).contains("managed by Varroa").contains("markupFormatter: plainText");
    assertThat((String) casc.get("varroa-cloud.yaml")).contains("maven java-21").contains("ci-jobs");
    Map<String, Object> plugins = (Map<String, Object>) run.object("ConfigMap", "sandbox-00000000-plugins").get("data");
    assertThat((String) plugins.get("plugins.txt")).contains("kubernetes:4384.v1b_6367f393d9")
        .contains("\nvarroa:" + VarroaPlugin.VERSION + "\n");
    assertThat(run.out()).contains("image: \"jenkins/jenkins:2.555.2-lts-jdk21\"")
        .contains("storage: \"20Gi\"").contains("imagePullPolicy: \"IfNotPresent\"");
  }

  @Test
  @SuppressWarnings("unchecked")
  void securesTheStarterWithTheVarroaRealmAndStrategyAndTheVarroaPlugin() {
    CommandRun run = minimal();

    Map<String, Object> casc = (Map<String, Object>) run.object("ConfigMap", "sandbox-00000000-casc").get("data");
    assertThat((String) casc.get("varroa-security.yaml")).isEqualTo("""
        ---
        jenkins:
          securityRealm:
            varroa: {}
          authorizationStrategy:
            varroa: {}
        """);
    assertThat((String) casc.get("jcasc.yaml")).doesNotContain("securityRealm").doesNotContain("authorizationStrategy");
  }

  @Test
  void takesTheVarroaPluginFromTheGivenUrl() {
    CommandRun run = minimal("--varroa-plugin-url", "https://files.example.com/varroa.hpi");
    CommandRun bad = minimal("--varroa-plugin-url", "/opt/varroa.hpi");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("varroa:" + VarroaPlugin.VERSION + ":https://files.example.com/varroa.hpi");
    assertThat(bad.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(bad.err()).contains("--varroa-plugin-url").contains("fix: give an http(s) URL");
  }

  @Test
  void refusesTheClaimGateWithoutARecordStoreAsTheOperatorDoes() throws IOException {
    Path controller = Files.writeString(work.resolve("gated.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: sandbox, namespace: ci}
        spec:
          buildClaims: {gate: true}
        """);
    String[] files = {"render", "controller", "-f", controller.toString(), "-f", example("10-provisioning-defaults.yaml"),
        "-f", example("30-version-profile.yaml")};
    CommandRun refused = CommandRun.of(files);
    String[] withStore = java.util.Arrays.copyOf(files, files.length + 1);
    withStore[files.length] = "--record-store";
    CommandRun gated = CommandRun.of(withStore);

    assertThat(refused.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(refused.err()).contains("spec.buildClaims.gate").contains("no build record store")
        .contains("fix: install Varroa with recordStore.enabled=true");
    assertThat(gated.exitCode()).as(gated.err()).isZero();
    assertThat(gated.out()).contains("name: \"VARROA_CLAIM_GATE\"");
  }

  @Test
  void rendersTheSameBytesEveryTime() {
    assertThat(minimal().out()).isEqualTo(minimal().out());
  }

  @Test
  void namesStatefulSetAfterGivenUid() {
    CommandRun run = minimal("--uid", "7f3a9c21-0000-4000-8000-000000000000");

    assertThat(run.kindsAndNames()).contains("StatefulSet/sandbox-7f3a9c21");
  }

  @Test
  void printsJsonList() {
    CommandRun run = minimal("-o", "json");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("{").contains("\"kind\" : \"List\"").contains("\"name\" : \"sandbox-00000000\"");
  }

  @Test
  void appliesClassOverDefaultsWhenTheControllerNamesOne() throws IOException {
    Path controller = Files.writeString(work.resolve("c.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: 7seas, namespace: ci}
        spec:
          classRef: {name: production}
          jenkins: {image: registry.example.com/jenkins:team}
        """);
    CommandRun run = CommandRun.of("render", "controller", "-f", controller.toString(),
        "-f", example("10-provisioning-defaults.yaml"), "-f", example("20-controller-class.yaml"),
        "-f", example("30-version-profile.yaml"));

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.kindsAndNames()).contains("StatefulSet/c-7seas-00000000");
    assertThat(run.out()).contains("image: \"registry.example.com/jenkins:team\"").contains("storage: \"100Gi\"")
        .contains("storageClassName: \"fast-ssd\"").contains("terminationGracePeriodSeconds: 1860")
        .contains("-XX:MaxRAMPercentage=75");
  }

  @Test
  void asksForNameWhenFilesHoldSeveralControllers() {
    CommandRun run = CommandRun.of("render", "controller", "-f", EXAMPLES.toString());

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("2 Controllers").contains("--name");
  }

  @Test
  void missingProfileIsInvalidInput() {
    CommandRun run = CommandRun.of("render", "controller", "-f", example("70-controller-minimal.yaml"));

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("no JenkinsVersionProfile");
  }

  @Test
  void duplicateSecretNamesAreInvalidInputNamingTheField() throws IOException {
    Path controller = Files.writeString(work.resolve("c.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: sandbox, namespace: ci}
        spec:
          secrets:
            - {name: TOKEN, secretKeyRef: {name: a, key: t}}
            - {name: TOKEN, secretKeyRef: {name: b, key: t}}
        """);
    CommandRun run = CommandRun.of("render", "controller", "-f", controller.toString(),
        "-f", example("10-provisioning-defaults.yaml"), "-f", example("30-version-profile.yaml"));

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("spec.secrets[1].name").contains("TOKEN").contains("fix:");
  }

  @Test
  void rendersACellsGeneratedLayerFromTheTeamsInTheFilesAndRefusesARepeatedPipeline() throws IOException {
    Path profile = Files.writeString(work.resolve("profile.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: cells}
        spec:
          jenkinsVersion: "2.555.2"
          image: jenkins/jenkins:2.555.2-lts-jdk21
          plugins:
            - {id: configuration-as-code, version: 2006.v001a_2ca_6b_574}
            - {id: kubernetes, version: 4384.v1b_6367f393d9}
            - {id: workflow-aggregator, version: 608.v67378e9d3db_1}
            - {id: git, version: "5.8.0"}
            - {id: credentials, version: 1453.v9b_a_29777a_b_fd}
            - {id: job-dsl, version: "1.93"}
            - {id: cloudbees-folder, version: 6.1073.va_7888eb_dd514}
            - {id: matrix-auth, version: "3.2.9"}
            - {id: plain-credentials, version: 195.vb_906e9073dee}
            - {id: ssh-credentials, version: 355.v9b_e5b_cde5003}
            - {id: workflow-cps, version: 4106.v7a_8a_8176d450}
            - {id: workflow-job, version: 1520.v56d65e3b_4566}
        """);
    Path cell = Files.writeString(work.resolve("cell.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: builds-0, namespace: ci}
        spec:
          versionProfileRef: {name: cells}
          cell: {pool: builds, teams: [alpha]}
        """);
    Path team = Files.writeString(work.resolve("team.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: alpha, namespace: ci}
        spec:
          pool: builds
          subjects: [{kind: User, name: alice}]
          pipelines:
            - {name: build, repository: "https://git.example.com/alpha/app.git"}
        """);

    CommandRun run = CommandRun.of("render", "controller", "-f", cell.toString(), "-f", profile.toString(),
        "-f", team.toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("varroa-teams.yaml", "folder('alpha')", "pipelineJob('alpha/build')",
        "projectMatrix", "job-dsl:1.93");

    Files.writeString(team, Files.readString(team) + "    - {name: build, repository: \"https://git.example.com/b.git\"}\n");
    CommandRun refused = CommandRun.of("render", "controller", "-f", cell.toString(), "-f", profile.toString(),
        "-f", team.toString());
    assertThat(refused.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(refused.err()).contains("Team ci/alpha: spec.pipelines[1].name build repeats", "fix:");
  }

  @Test
  void missingComposedBundleIsInvalidInput() {
    CommandRun run = CommandRun.of("render", "controller", "-f", example("71-controller-full.yaml"),
        "-f", example("20-controller-class.yaml"), "-f", example("30-version-profile.yaml"));

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("no ComposedBundle named team-a");
  }
}

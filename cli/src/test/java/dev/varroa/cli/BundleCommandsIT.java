package dev.varroa.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.testfixtures.git.GitRepository;
import dev.varroa.testfixtures.git.GitServer;
import dev.varroa.testfixtures.git.GitServerExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** varroactl bundle render/diff/explain against real Git repositories over file:// and smart HTTP. */
@ExtendWith(GitServerExtension.class)
class BundleCommandsIT {
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
        jcascOverlay: |
          jenkins:
            markupFormatter: plainText
      """;

  @TempDir Path work;
  private GitRepository repo;
  private String repoName;

  @BeforeEach
  void teamRepository(GitServer git) throws Exception {
    repoName = "bundles-" + System.nanoTime();
    repo = git.createRepository(repoName);
    repo.commit(Map.of(
        "base/jcasc/00-base.yaml", "jenkins:\n  systemMessage: base\n  numExecutors: 0\n",
        "base/plugins.yaml", "plugins:\n  - id: git\n",
        "teams/a/jcasc/10-team.yaml", "jenkins:\n  systemMessage: \"Team A\"\n",
        "teams/a/plugins.yaml", "plugins:\n  - id: configuration-as-code\n"), "first");
    Files.writeString(work.resolve("profile.yaml"), PROFILE);
  }

  private Path bundle(String url) throws IOException {
    return Files.writeString(work.resolve("bundle.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: team-a, namespace: ci}
        spec:
          versionProfileRef: {name: lts}
          inputs:
            - git: {url: "%1$s", ref: {branch: main}, path: base}
            - git: {url: "%1$s", ref: {branch: main}, path: teams/a}
        """.formatted(url));
  }

  @Test
  void rendersFromGitOverHttpAndWritesTheThreeFiles(GitServer git) throws Exception {
    Path out = work.resolve("rendered");
    VarroactlRun run = VarroactlRun.of("bundle", "render", "-f", bundle(git.httpUrl(repoName)).toString(),
        "-f", work.resolve("profile.yaml").toString(), "--out", out.toString(), "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("rendered team-a: sha256:");
    assertThat(Files.readString(out.resolve("plugins.txt")))
        .isEqualTo("configuration-as-code:2006.v001a_2ca_6b_574\ngit:5.8.0\n");
    String jcasc = Files.readString(out.resolve("jcasc.yaml"));
    assertThat(jcasc).contains("systemMessage: Team A").contains("markupFormatter: plainText");
    String lock = Files.readString(out.resolve("bundle.lock.json"));
    assertThat(lock).contains("\"digest\": \"sha256:" + digest(out) + "\"")
        .contains("main@sha1:" + repo.resolve("main").orElseThrow());
  }

  @Test
  void jsonOutputPrintsTheLockOverFileUrls(GitServer git) throws Exception {
    VarroactlRun run = VarroactlRun.of("bundle", "render", "-f", bundle(git.fileUrl(repoName)).toString(),
        "-f", work.resolve("profile.yaml").toString(), "--out", work.resolve("r").toString(), "-o", "json",
        "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("{").contains("\"jenkinsVersion\": \"2.555.2\"").contains("\"overrides\"");
  }

  @Test
  void pinConflictingWithTheProfileExitsThreeNamingThePlugin(GitServer git) throws Exception {
    repo.commit(Map.of("teams/a/plugins.yaml", "plugins:\n  - {id: git, version: \"5.7.0\"}\n"), "pin git");

    VarroactlRun run = VarroactlRun.of("bundle", "render", "-f", bundle(git.fileUrl(repoName)).toString(),
        "-f", work.resolve("profile.yaml").toString(), "--out", work.resolve("r").toString(),
        "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_CONFLICT);
    assertThat(run.err()).contains("git").contains("5.7.0").contains("5.8.0").contains("spec.inputs[1]");
  }

  @Test
  void missingProfileIsInvalidInput(GitServer git) throws Exception {
    VarroactlRun run = VarroactlRun.of("bundle", "render", "-f", bundle(git.fileUrl(repoName)).toString(),
        "--out", work.resolve("r").toString());

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("JenkinsVersionProfile named lts");
  }

  @Test
  void typoInPathIsInvalidInputNamingTheInput(GitServer git) throws Exception {
    Files.writeString(work.resolve("bundle.yaml"), Files.readString(bundle(git.fileUrl(repoName)))
        .replace("path: teams/a", "path: teams/typo"));

    VarroactlRun run = VarroactlRun.of("bundle", "render", "-f", work.resolve("bundle.yaml").toString(),
        "-f", work.resolve("profile.yaml").toString(), "--out", work.resolve("r").toString(),
        "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(run.err()).contains("spec.inputs[1]").contains("teams/typo");
  }

  @Test
  void explainNamesTheInputThatSetTheValueAndWhatItOverrode(GitServer git) throws Exception {
    VarroactlRun run = VarroactlRun.of("bundle", "explain", "-f", bundle(git.fileUrl(repoName)).toString(),
        "-f", work.resolve("profile.yaml").toString(), "--path", "jenkins.systemMessage",
        "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("Team A").contains("spec.inputs[1]").contains("jcasc/10-team.yaml")
        .contains("overrode base").contains("spec.inputs[0]");
  }

  @Test
  void diffBetweenTwoCommitsSaysWhetherTheChangeIsReloadable(GitServer git) throws Exception {
    String first = repo.resolve("main").orElseThrow();
    String second = repo.commit(Map.of("teams/a/jcasc/10-team.yaml", "jenkins:\n  systemMessage: \"Team A v2\"\n"),
        "message");
    String third = repo.commit(Map.of("teams/a/plugins.yaml", "plugins:\n  - id: configuration-as-code\n  - {id: timestamper, version: \"1.30\"}\n"),
        "plugin");
    String bundle = bundle(git.fileUrl(repoName)).toString();
    String profile = work.resolve("profile.yaml").toString();
    String cache = work.resolve("cache").toString();

    VarroactlRun jcascOnly = VarroactlRun.of("bundle", "diff", "-f", bundle, "-f", profile, "--cache-dir", cache,
        "--from", first, "--to", second);
    VarroactlRun plugins = VarroactlRun.of("bundle", "diff", "-f", bundle, "-f", profile, "--cache-dir", cache,
        "--from", second, "--to", third);

    assertThat(jcascOnly.exitCode()).as(jcascOnly.err()).isZero();
    assertThat(jcascOnly.out()).contains("~ jenkins.systemMessage: Team A -> Team A v2").contains("Change: reloadable");
    assertThat(plugins.out()).contains("+ timestamper:1.30").contains("Change: restart-class");
  }

  @Test
  void diffReadsFoldersWrittenByRender(GitServer git) throws Exception {
    String bundle = bundle(git.fileUrl(repoName)).toString();
    String profile = work.resolve("profile.yaml").toString();
    String cache = work.resolve("cache").toString();
    assertThat(VarroactlRun.of("bundle", "render", "-f", bundle, "-f", profile, "--cache-dir", cache,
        "--out", work.resolve("before").toString()).exitCode()).isZero();
    repo.commit(Map.of("teams/a/jcasc/10-team.yaml", "jenkins:\n  systemMessage: after\n"), "after");
    assertThat(VarroactlRun.of("bundle", "render", "-f", bundle, "-f", profile, "--cache-dir", cache,
        "--out", work.resolve("after").toString()).exitCode()).isZero();

    VarroactlRun diff = VarroactlRun.of("bundle", "diff", "-f", bundle, "--from", work.resolve("before").toString(),
        "--to", work.resolve("after").toString());

    assertThat(diff.exitCode()).as(diff.err()).isZero();
    assertThat(diff.out()).contains("jenkins.systemMessage: Team A -> after").contains("Plugins: no change");
  }

  @Test
  void catalogItemInputReadsItsFolderOfTheCatalogSource(GitServer git) throws Exception {
    String catalogName = "catalog-" + System.nanoTime();
    GitRepository catalog = git.createRepository(catalogName);
    String revision = catalog.commit(Map.of(
        "items/base-security/jcasc/00-security.yaml", "jenkins:\n  numExecutors: 0\n  systemMessage: catalog\n"),
        "catalog");
    Files.writeString(work.resolve("catalog.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: CatalogSource
        metadata: {name: platform, namespace: ci}
        spec:
          git: {url: "%s", ref: {branch: main}}
        ---
        apiVersion: varroa.dev/v1alpha1
        kind: ComposedBundle
        metadata: {name: with-catalog, namespace: ci}
        spec:
          inputs:
            - catalogItem: {name: base-security}
            - git: {url: "%s", ref: {branch: main}, path: teams/a}
        """.formatted(git.fileUrl(catalogName), git.fileUrl(repoName)));

    VarroactlRun run = VarroactlRun.of("bundle", "explain", "-f", work.resolve("catalog.yaml").toString(),
        "-f", work.resolve("profile.yaml").toString(), "--path", "jenkins.systemMessage",
        "--cache-dir", work.resolve("cache").toString());

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("Team A").contains("overrode catalog")
        .contains("spec.inputs[0] (catalogItem base-security)");
    VarroactlRun render = VarroactlRun.of("bundle", "render", "-f", work.resolve("catalog.yaml").toString(),
        "-f", work.resolve("profile.yaml").toString(), "-o", "json", "--out", work.resolve("c").toString(),
        "--cache-dir", work.resolve("cache").toString());
    assertThat(render.out()).contains("main@sha1:" + revision);
  }

  @Test
  void versionAndHelpAnswer() {
    assertThat(VarroactlRun.of("--version").out()).startsWith("varroactl ");
    VarroactlRun help = VarroactlRun.of("bundle", "render", "--help");
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("-f=PATH").contains("--out").contains("Exit codes");
  }

  private static String digest(Path out) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(Files.readAllBytes(out.resolve("jcasc.yaml")));
    sha.update("\n---\n".getBytes(StandardCharsets.UTF_8));
    sha.update(Files.readAllBytes(out.resolve("plugins.txt")));
    return HexFormat.of().formatHex(sha.digest());
  }
}

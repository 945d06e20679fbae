package dev.varroa.cli.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.cli.VarroactlRun;
import dev.varroa.cli.Varroactl;
import dev.varroa.testfixtures.updatesite.FixturePlugin;
import dev.varroa.testfixtures.updatesite.UpdateSiteFixture;
import dev.varroa.updatecenter.PluginCoordinates;
import dev.varroa.updatecenter.UpdateCenterServer;
import dev.varroa.updatecenter.UpdateCenterSettings;
import dev.varroa.updatecenter.archive.PluginArchive;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroactl updatecenter export against a real update site on loopback (the test's fixture, laid out as
 * the Jenkins project's), then import into a folder and into a running update center over HTTP.
 */
class UpdateCenterCommandsIT {
  private static final FixturePlugin GIT = FixturePlugin.of("git", "5.8.0", "credentials:1415.v1");
  private static final FixturePlugin GIT_NEWER = FixturePlugin.of("git", "5.9.0");
  private static final FixturePlugin CREDENTIALS = FixturePlugin.of("credentials", "1415.v1");
  private static final FixturePlugin CASC = FixturePlugin.of("configuration-as-code", "2006.v001a_2ca_6b_574");
  @TempDir Path work;
  private UpdateSiteFixture upstream;

  @BeforeEach
  void startUpstream() throws Exception {
    upstream = UpdateSiteFixture.start(GIT, GIT_NEWER, CREDENTIALS, CASC);
    Files.writeString(work.resolve("profile.yaml"), """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: lts}
        spec:
          jenkinsVersion: "2.555.2"
          image: jenkins/jenkins:2.555.2-lts-jdk21
          plugins:
            - {id: git, version: "5.8.0"}
            - {id: credentials, version: "1415.v1"}
        """);
    Files.createDirectories(work.resolve("rendered"));
    Files.writeString(work.resolve("rendered/bundle.lock.json"), """
        {"digest": "sha256:00", "jenkinsVersion": "2.555.2", "inputs": [],
         "plugins": [{"id": "configuration-as-code", "version": "2006.v001a_2ca_6b_574", "source": "pin"}],
         "variables": [], "secrets": [], "overrides": []}
        """);
  }

  @AfterEach
  void stopUpstream() {
    upstream.close();
  }

  @Test
  void exportsWhatTheProfilesLocksAndPluginOptionsNameAndImportsItIntoAFolder() throws Exception {
    Path archive = work.resolve("plugins.tar");
    VarroactlRun export = VarroactlRun.of("updatecenter", "export", "-f", work.resolve("profile.yaml").toString(),
        "--lock", work.resolve("rendered").toString(), "--plugin", "git:5.9.0",
        "--upstream", upstream.updateCenterUrl().toString(), "-o", archive.toString());

    assertThat(export.exitCode()).as(export.err()).isZero();
    assertThat(export.out()).contains("exported 4 plugins").contains("archive sha256:");
    assertThat(PluginArchive.manifest(archive)).extracting(e -> e.plugin().toString()).containsExactly(
        "configuration-as-code:2006.v001a_2ca_6b_574", "credentials:1415.v1", "git:5.8.0", "git:5.9.0");

    Path storage = work.resolve("storage");
    VarroactlRun imported = VarroactlRun.of("updatecenter", "import", archive.toString(), "--into", storage.toString());

    assertThat(imported.exitCode()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("imported 4 plugins");
    assertThat(Files.readAllBytes(storage.resolve("plugins/git/5.8.0/git.hpi"))).isEqualTo(GIT.bytes());
  }

  @Test
  void exportFailsWithExitTwoNamingAVersionTheUpstreamLacks() {
    VarroactlRun export = VarroactlRun.of("updatecenter", "export", "--plugin", "git:1.0.0", "--upstream", upstream.updateCenterUrl().toString(),
        "-o", work.resolve("plugins.tar").toString());

    assertThat(export.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(export.err()).contains("git 1.0.0").contains("fix:");
    assertThat(work.resolve("plugins.tar")).doesNotExist();
  }

  @Test
  void importRefusesADamagedArchiveNamingThePluginAndTheFix() throws Exception {
    Path archive = work.resolve("plugins.tar");
    assertThat(VarroactlRun.of("updatecenter", "export", "--plugin", "credentials:1415.v1", "--upstream",
        upstream.updateCenterUrl().toString(), "-o", archive.toString()).exitCode()).isZero();
    damage(archive, CREDENTIALS.bytes());

    VarroactlRun imported = VarroactlRun.of("updatecenter", "import", archive.toString(), "--into", work.resolve("storage").toString());

    assertThat(imported.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
    assertThat(imported.err()).contains("plugin credentials 1415.v1").contains("fix: copy the archive again")
        .contains("Nothing was imported");
    assertThat(work.resolve("storage/plugins/credentials")).doesNotExist();
  }

  @Test
  void importsIntoARunningUpdateCenterWithItsImportToken() throws Exception {
    Path archive = work.resolve("plugins.tar");
    assertThat(VarroactlRun.of("updatecenter", "export", "--plugin", "credentials:1415.v1", "--upstream",
        upstream.updateCenterUrl().toString(), "-o", archive.toString()).exitCode()).isZero();
    Path signing = Files.createDirectories(work.resolve("signing"));
    Files.writeString(signing.resolve(UpdateCenterSettings.IMPORT_TOKEN_FILE), "the-token");
    Path token = Files.writeString(work.resolve("token"), "the-token\n");
    Path wrong = Files.writeString(work.resolve("wrong"), "not-the-token\n");
    try (UpdateCenterServer server = new UpdateCenterServer(UpdateCenterSettings.local(work.resolve("uc"),
        work.resolve("wanted.txt"), signing, 0))) {
      server.start();
      String url = "http://127.0.0.1:" + server.port();

      VarroactlRun refused = VarroactlRun.of("updatecenter", "import", archive.toString(), "--server", url, "--token-file", wrong.toString());
      assertThat(refused.exitCode()).isEqualTo(Varroactl.EXIT_INVALID);
      assertThat(refused.err()).contains("refused the import token");

      VarroactlRun imported = VarroactlRun.of("updatecenter", "import", archive.toString(), "--server", url, "--token-file", token.toString());
      assertThat(imported.exitCode()).as(imported.err()).isZero();
      assertThat(imported.out()).contains("credentials:1415.v1");
      assertThat(server.holdings().held()).containsKey(new PluginCoordinates("credentials", "1415.v1"));
    }
  }

  private static void damage(Path archive, byte[] plugin) throws Exception {
    byte[] bytes = Files.readAllBytes(archive);
    int at = -1;
    for (int i = 0; i <= bytes.length - plugin.length && at < 0; i++) {
      if (java.util.Arrays.equals(bytes, i, i + plugin.length, plugin, 0, plugin.length)) {
        at = i;
      }
    }
    assertThat(at).isNotNegative();
    try (RandomAccessFile file = new RandomAccessFile(archive.toFile(), "rw")) {
      file.seek(at + plugin.length / 2);
      int b = file.read();
      file.seek(at + plugin.length / 2);
      file.write(b ^ 0x01);
    }
  }
}

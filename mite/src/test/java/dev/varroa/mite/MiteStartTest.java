package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.ControllerIdentity;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the mite does locally at start, before any gateway answers. */
class MiteStartTest {

  @TempDir
  Path dir;

  private MiteSettings settings(Duration startupWait) throws Exception {
    URI nowhere = ClosedPort.jenkinsUrl();
    return new MiteSettings(new ControllerIdentity("team-a", "ci", "uid-1"), "ci-0",
        List.of(new GatewayEndpoint("127.0.0.1", nowhere.getPort())), dir.resolve("bootstrap/token"),
        dir.resolve("bootstrap/ca.crt"), dir.resolve("identity"), nowhere, dir.resolve("casc"),
        dir.resolve("casc-rendered"), dir.resolve("secrets"), dir.resolve("loopback"), Duration.ofSeconds(5),
        startupWait, 0, 0, MiteSettings.DEFAULT_EVENT_RETAIN_BYTES, MiteSettings.DEFAULT_CLAIM_REPLY_WAIT,
        MiteSettings.DEFAULT_SCHEDULE_POLL_INTERVAL);
  }

  private int readyz(Mite mite) throws Exception {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mite.healthPort() + "/readyz")).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  @Test
  void writesTheLoopbackTokenOwnerOnly() throws Exception {
    try (Mite mite = Mite.start(settings(Duration.ofMinutes(10)))) {
      Path token = dir.resolve("loopback/loopback-token");
      assertThat(Files.readString(token)).matches("[A-Za-z0-9_-]{43}");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(token))).isEqualTo("rw-------");
    }
  }

  @Test
  void seedsAnEmptyJcascFolderFromTheRenderedConfigMap() throws Exception {
    Path seed = Files.createDirectories(dir.resolve("casc-rendered"));
    // a ConfigMap mount: each key a symlink into ..data
    Path data = Files.createDirectories(seed.resolve("..2026_01_01_00_00_00.000000001"));
    Files.writeString(data.resolve("jenkins.yaml"), "jenkins: {}\n");
    Files.createSymbolicLink(seed.resolve("..data"), data.getFileName());
    Files.createSymbolicLink(seed.resolve("jenkins.yaml"), Path.of("..data/jenkins.yaml"));

    try (Mite mite = Mite.start(settings(Duration.ofMinutes(10)))) {
      assertThat(dir.resolve("casc").toFile().list()).containsExactly("jenkins.yaml");
      assertThat(Files.readString(dir.resolve("casc/jenkins.yaml"))).isEqualTo("jenkins: {}\n");
      assertThat(Files.isSymbolicLink(dir.resolve("casc/jenkins.yaml"))).isFalse();
    }
  }

  @Test
  void keepsAJcascFolderThatAlreadyHoldsFiles() throws Exception {
    Files.createDirectories(dir.resolve("casc-rendered"));
    Files.writeString(dir.resolve("casc-rendered/jenkins.yaml"), "seed: true\n");
    Files.createDirectories(dir.resolve("casc"));
    Files.writeString(dir.resolve("casc/jenkins.yaml"), "applied: true\n");

    try (Mite mite = Mite.start(settings(Duration.ofMinutes(10)))) {
      assertThat(Files.readString(dir.resolve("casc/jenkins.yaml"))).isEqualTo("applied: true\n");
    }
  }

  @Test
  void holdsJenkinsBackUntilTheFirstDesiredState() throws Exception {
    try (Mite mite = Mite.start(settings(Duration.ofMinutes(10)))) {
      assertThat(readyz(mite)).isEqualTo(503);
      assertThat(mite.connected()).isFalse();
      assertThat(mite.registered()).isFalse();
    }
  }

  @Test
  void letsJenkinsStartOnceTheStartupWaitPassed() throws Exception {
    try (Mite mite = Mite.start(settings(Duration.ZERO))) {
      assertThat(readyz(mite)).isEqualTo(200);
      assertThat(mite.desiredStateApplied()).isFalse();
    }
  }
}

package dev.varroa.mite;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import dev.varroa.protocol.mite.v1.CommandResult.Outcome;
import dev.varroa.protocol.mite.v1.DesiredState;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.mite.v1.JenkinsToken;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DesiredStateApplierTest {

  @TempDir
  Path dir;

  private Path casc;
  private Path secrets;
  private JenkinsBearer bearer;
  private DesiredStateApplier applier;

  @BeforeEach
  void setUp() {
    casc = dir.resolve("casc");
    secrets = dir.resolve("secrets");
    bearer = new JenkinsBearer(Clock.systemUTC());
    JenkinsClient jenkins = new JenkinsClient(ClosedPort.jenkinsUrl(), bearer);
    applier = new DesiredStateApplier(casc, secrets, new JenkinsActions(jenkins, Clock.systemUTC()), bearer,
        Clock.systemUTC());
  }

  private static File file(String path, String content) {
    return File.newBuilder().setPath(path).setContent(ByteString.copyFrom(content, StandardCharsets.UTF_8)).build();
  }

  private static Instant inAMinute() {
    return Instant.now().plus(Duration.ofMinutes(1));
  }

  @Test
  void writesSecretFilesOwnerReadOnlyAndJcascFilesReadable() throws Exception {
    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .setBundleDigest("sha256:aaa")
        .addJcascFiles(file("jenkins.yaml", "jenkins:\n  systemMessage: hi\n"))
        .addJcascFiles(file("tools/maven.yaml", "tool: {}\n"))
        .addSecretFiles(file("github-token", "s3cr3t"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(Files.readString(casc.resolve("jenkins.yaml"))).isEqualTo("jenkins:\n  systemMessage: hi\n");
    assertThat(Files.readString(casc.resolve("tools/maven.yaml"))).isEqualTo("tool: {}\n");
    assertThat(Files.readString(secrets.resolve("github-token"))).isEqualTo("s3cr3t");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secrets.resolve("github-token"))))
        .isEqualTo("r--------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(casc.resolve("jenkins.yaml"))))
        .isEqualTo("rw-r--r--");
  }

  @Test
  void removesFilesTheDesiredStateNoLongerLists() throws Exception {
    applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("jenkins.yaml", "a: 1\n"))
        .addJcascFiles(file("old/agents.yaml", "b: 2\n"))
        .addSecretFiles(file("old-secret", "x"))
        .addSecretFiles(file("kept-secret", "y"))
        .build(), inAMinute());

    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("jenkins.yaml", "a: 3\n"))
        .addSecretFiles(file("kept-secret", "z"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(listed(casc)).containsExactly("jenkins.yaml");
    assertThat(listed(secrets)).containsExactly("kept-secret");
    // a 0400 file is replaced, not refused
    assertThat(Files.readString(secrets.resolve("kept-secret"))).isEqualTo("z");
    assertThat(Files.readString(casc.resolve("jenkins.yaml"))).isEqualTo("a: 3\n");
  }

  @Test
  void rejectsAPathThatClimbsOutAndWritesNothing() throws Exception {
    Files.createDirectories(casc);
    Files.writeString(casc.resolve("keep.yaml"), "k: 1\n");

    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("jenkins.yaml", "a: 1\n"))
        .addSecretFiles(file("../escaped", "x"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(outcome.message()).contains("'../escaped'", "'..'");
    assertThat(listed(casc)).containsExactly("keep.yaml");
    assertThat(Files.exists(dir.resolve("escaped"))).isFalse();
  }

  @Test
  void rejectsAnAbsolutePath() throws Exception {
    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("/etc/jenkins.yaml", "a: 1\n"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(outcome.message()).contains("is absolute");
  }

  @Test
  void rejectsAFileListedTwice() throws Exception {
    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("a.yaml", "1"))
        .addJcascFiles(file("./a.yaml", "2"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.REJECTED);
    assertThat(outcome.message()).contains("listed twice");
  }

  @Test
  void succeedsWithoutJenkinsWhenJenkinsHasNotStartedYet() throws Exception {
    CommandOutcome outcome = applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("jenkins.yaml", "a: 1\n"))
        .build(), inAMinute());

    assertThat(outcome.outcome()).isEqualTo(Outcome.SUCCEEDED);
    assertThat(outcome.jenkinsStatus()).isZero();
    assertThat(outcome.message()).contains("reads them when it starts");
  }

  @Test
  void takesTheJenkinsTokenFromTheDesiredState() throws Exception {
    applier.apply(DesiredState.newBuilder()
        .setJenkinsToken(JenkinsToken.newBuilder().setJwt("header.payload.signature")
            .setExpiresAtEpochMillis(Instant.now().plus(Duration.ofHours(1)).toEpochMilli()))
        .build(), inAMinute());

    assertThat(bearer.jwt()).contains("header.payload.signature");
  }

  @Test
  void leavesNoTemporaryFilesBehind() throws Exception {
    applier.apply(DesiredState.newBuilder()
        .addJcascFiles(file("jenkins.yaml", "a: 1\n"))
        .addSecretFiles(file("s", "x"))
        .build(), inAMinute());

    try (Stream<Path> all = Files.walk(dir)) {
      assertThat(all.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(AtomicFiles.TEMP_PREFIX));
    }
  }

  private static Stream<String> listedStream(Path root) throws Exception {
    return Files.walk(root).filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).sorted();
  }

  private static java.util.List<String> listed(Path root) throws Exception {
    try (Stream<String> s = listedStream(root)) {
      return s.toList();
    }
  }
}

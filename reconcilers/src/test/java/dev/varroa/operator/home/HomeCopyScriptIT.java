package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy Job's script as the Job runs it ({@code sh -c <script> home-copy.sh copy|verify}), with real rsync between
 * two folders standing in for the two mounted claims.
 */
class HomeCopyScriptIT {
  private static final long TIMEOUT_SECONDS = 60;
  @TempDir
  Path work;
  private Path from;
  private Path to;
  private Path report;

  record Run(int exit, String output, String report) {}

  @BeforeEach
  void oldHome() throws IOException {
    assumeTrue(new ProcessBuilder("sh", "-c", "command -v rsync").start().onExit().join().exitValue() == 0,
        "rsync is installed by test-fixtures/install-deps.sh");
    from = Files.createDirectories(work.resolve("from"));
    to = Files.createDirectories(work.resolve("to"));
    report = work.resolve("termination-log");
    write("secrets/master.key", "0123456789abcdef", "rw-------");
    write("secrets/jenkins.model.Jenkins.crumbSalt", "salt", "rw-------");
    write("nodes/agent-1/config.xml", "<slave><name>agent-1</name></slave>", "rw-r-----");
    write("jobs/build/config.xml", "<project/>", "rw-r--r--");
    write("jobs/build/builds/1/log", "Started by timer\n", "rw-r--r--");
    write("tools/run.sh", "#!/bin/sh\n", "rwxr-xr-x");
    Files.createLink(from.resolve("jobs/build/builds/1/log-link"), from.resolve("jobs/build/builds/1/log"));
    Files.createSymbolicLink(from.resolve("jobs/build/lastSuccessful"), Path.of("builds/1"));
    Files.createSymbolicLink(from.resolve("nodes/dangling"), Path.of("no-such-agent"));
    Files.setAttribute(from.resolve("tools"), "unix:mode", 02775);
    Files.setAttribute(from.resolve("tools/run.sh"), "unix:mode", 04755);
  }

  @Test
  void copyKeepsHardLinksSymlinksModesAndOwnersAndVerifyAgrees() throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    if (root) {
      Files.setAttribute(from.resolve("nodes/agent-1/config.xml"), "unix:uid", 1000);
      Files.setAttribute(from.resolve("nodes/agent-1/config.xml"), "unix:gid", 1000);
    }

    Run copied = run("copy");
    Run verified = run("verify");

    assertThat(copied.exit()).as(copied.output()).isZero();
    assertThat(copied.report()).isEqualTo("copied files=17 bytes=" + bytes());
    assertThat(inode(to.resolve("jobs/build/builds/1/log-link"))).isEqualTo(inode(to.resolve("jobs/build/builds/1/log")));
    assertThat(Files.isSymbolicLink(to.resolve("jobs/build/lastSuccessful"))).isTrue();
    assertThat(Files.readSymbolicLink(to.resolve("jobs/build/lastSuccessful"))).isEqualTo(Path.of("builds/1"));
    assertThat(Files.readSymbolicLink(to.resolve("nodes/dangling"))).isEqualTo(Path.of("no-such-agent"));
    for (String path : List.of("secrets/master.key", "nodes/agent-1/config.xml", "tools", "tools/run.sh",
        "jobs/build/builds/1/log")) {
      assertThat(mode(to.resolve(path))).as(path).isEqualTo(mode(from.resolve(path)));
    }
    assertThat(mode(to.resolve("tools")) & 07777).isEqualTo(02775);
    assertThat(mode(to.resolve("tools/run.sh")) & 07777).isEqualTo(04755);
    assertThat(Files.readString(to.resolve("secrets/master.key"))).isEqualTo("0123456789abcdef");
    if (root) {
      assertThat(Files.getAttribute(to.resolve("nodes/agent-1/config.xml"), "unix:uid")).isEqualTo(1000);
    }
    assertThat(verified.exit()).as(verified.output()).isZero();
    assertThat(verified.report()).matches("verified files=17 bytes=" + bytes() + " trees=[0-9a-f]{64}");
  }

  @Test
  void verifyFailsNamingAFileJenkinsChangedAfterTheCopy() throws Exception {
    assertThat(run("copy").exit()).isZero();
    Files.writeString(from.resolve("jobs/build/builds/1/log"), "Finished: SUCCESS\n",
        java.nio.file.StandardOpenOption.APPEND);

    Run verified = run("verify");

    assertThat(verified.exit()).isEqualTo(1);
    assertThat(verified.report()).startsWith("verify failed: changed since the copy:")
        .contains("jobs/build/builds/1/log");
  }

  @Test
  void verifyComparesSecretsByContentEvenWithTheSameSizeAndTime() throws Exception {
    assertThat(run("copy").exit()).isZero();
    Path key = to.resolve("secrets/master.key");
    FileTime time = Files.getLastModifiedTime(key);
    Files.writeString(key, "fedcba9876543210");
    Files.setLastModifiedTime(key, time);

    Run verified = run("verify");

    assertThat(verified.exit()).isEqualTo(1);
    assertThat(verified.report()).isEqualTo("verify failed: differ in content, mode or owner: secrets/master.key");
  }

  @Test
  void aRetriedCopyLeavesNothingOfAnEarlierTry() throws Exception {
    write(to, "jobs/removed/config.xml", "<project/>", "rw-r--r--");
    Files.setLastModifiedTime(from.resolve("jobs/build/config.xml"), FileTime.from(Instant.parse("2024-01-01T00:00:00Z")));

    Run copied = run("copy");

    assertThat(copied.exit()).as(copied.output()).isZero();
    assertThat(to.resolve("jobs/removed")).doesNotExist();
    assertThat(run("verify").exit()).isZero();
  }

  @Test
  void verifyFailsWhenTheNewHomeLacksATree() throws Exception {
    assertThat(run("copy").exit()).isZero();
    Files.delete(to.resolve("nodes/agent-1/config.xml"));

    Run verified = run("verify");

    assertThat(verified.exit()).isEqualTo(1);
    assertThat(verified.report()).startsWith("verify failed:").contains("nodes/agent-1/config.xml");
  }

  private Run run(String command) throws Exception {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", HomeCopyScript.text(), HomeCopyScript.RESOURCE, command));
    ProcessBuilder builder = new ProcessBuilder(argv).redirectErrorStream(true);
    builder.environment().putAll(Map.of(HomeCopyScript.ENV_FROM, from.toString(), HomeCopyScript.ENV_TO, to.toString(),
        HomeCopyScript.ENV_TERMINATION_LOG, report.toString()));
    Files.deleteIfExists(report);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("home-copy.sh " + command + " finished").isTrue();
    return new Run(process.exitValue(), output, Files.exists(report) ? Files.readString(report).strip() : "");
  }

  /** The regular files' bytes, the hard-linked log counted once. */
  private static long bytes() {
    return "0123456789abcdef".length() + "salt".length() + "<slave><name>agent-1</name></slave>".length()
        + "<project/>".length() + "Started by timer\n".length() + "#!/bin/sh\n".length();
  }

  private void write(String path, String content, String permissions) throws IOException {
    write(from, path, content, permissions);
  }

  private static void write(Path root, String path, String content, String permissions) throws IOException {
    Path file = root.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
  }

  private static Object inode(Path path) throws IOException {
    return Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
  }

  private static int mode(Path path) throws IOException {
    return (int) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
  }
}

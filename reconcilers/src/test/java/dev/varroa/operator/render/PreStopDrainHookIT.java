package dev.varroa.operator.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rendered preStop command, run by the real sh and curl against a loopback listener that plays the mite's
 * /drain; only the token file, the URL and PID 1's stderr are pointed at this test's own.
 */
class PreStopDrainHookIT {
  private static final long DEADLINE_SECONDS = 30;

  @TempDir Path work;
  private HttpServer mite;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private volatile int status = 200;

  @BeforeEach
  void startMite() throws IOException {
    mite = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    mite.createContext("/drain", exchange -> {
      requests.add(exchange.getRequestMethod() + " " + exchange.getRequestHeaders().getFirst("Authorization"));
      byte[] body = "{\"drained\":true}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    mite.start();
  }

  @AfterEach
  void stopMite() {
    mite.stop(0);
  }

  private record Run(int exitCode, String stderr, String jenkinsLog) {}

  private Run runHook(Path tokenFile) throws Exception {
    String script = JenkinsContainer.preStopCommand(RenderFixtures.resolved(RenderFixtures.controller(""))).get(2)
        .replace("token_file=" + MiteSidecar.LOOPBACK_TOKEN_FILE, "token_file=" + tokenFile)
        .replace(MiteSidecar.LOOPBACK_DRAIN_URL, "http://127.0.0.1:" + mite.getAddress().getPort() + "/drain")
        .replace("/proc/1/fd/2", work.resolve("jenkins.log").toString());
    Process process = new ProcessBuilder("sh", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(process.waitFor(DEADLINE_SECONDS, TimeUnit.SECONDS)).as("the hook ends").isTrue();
    Path log = work.resolve("jenkins.log");
    return new Run(process.exitValue(), new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8),
        Files.exists(log) ? Files.readString(log) : "");
  }

  @Test
  void postsDrainWithTheLoopbackTokenAsBearer() throws Exception {
    Path token = Files.writeString(work.resolve("loopback-token"), "s3cr3t-token");

    Run run = runHook(token);

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(requests).containsExactly("POST Bearer s3cr3t-token");
    assertThat(run.stderr()).isEmpty();
  }

  @Test
  void aMissingTokenFileLogsAndEndsWithoutCallingTheMite() throws Exception {
    Run run = runHook(work.resolve("absent"));

    assertThat(run.exitCode()).isNotZero();
    assertThat(requests).isEmpty();
    assertThat(run.stderr()).contains("varroa-prestop: no loopback token at").contains("stops without a drain");
    assertThat(run.jenkinsLog()).isEqualTo(run.stderr());
  }

  @Test
  void aRefusedCallLogsTheFailureAndEnds() throws Exception {
    Path token = Files.writeString(work.resolve("loopback-token"), "stale");
    status = 401;

    Run run = runHook(token);

    assertThat(run.exitCode()).isNotZero();
    assertThat(requests).containsExactly("POST Bearer stale");
    assertThat(run.stderr()).contains("drain call to").contains("failed (curl exit 22)");
  }

  @Test
  void anUnreachableMiteLogsTheFailureAndEnds() throws Exception {
    Path token = Files.writeString(work.resolve("loopback-token"), "t");
    mite.stop(0);

    Run run = runHook(token);

    assertThat(run.exitCode()).isNotZero();
    assertThat(run.stderr()).contains("failed (curl exit 7)");
  }
}

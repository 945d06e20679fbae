package dev.varroa.bundle.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.bundle.BundleException;
import dev.varroa.bundle.ResolvedInput;
import dev.varroa.bundle.SourceUnavailableException;
import dev.varroa.testfixtures.process.LoopbackPort;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Against the JDK's HTTP server on loopback, standing in for source-controller's artifact storage. */
class FluxArtifactSourceIT {
  private static final String REVISION = "main@sha1:0123456789abcdef0123456789abcdef01234567";

  private final ConcurrentHashMap<String, byte[]> artifacts = new ConcurrentHashMap<>();
  private final CountDownLatch releaseStalled = new CountDownLatch(1);
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private HttpServer server;

  @BeforeEach
  void startArtifactServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(LoopbackPort.HOST, 0), 0);
    server.createContext("/", this::serve);
    server.setExecutor(handlers);
    server.start();
  }

  @AfterEach
  void stopArtifactServer() {
    releaseStalled.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }

  @Test
  void downloadsVerifiesAndUnpacksTheArtifactTakingPath() throws Exception {
    byte[] archive = TarGzArchive.create().file("jenkins/team-a/plugins.yaml", "plugins: []")
        .file("jenkins/team-a/jcasc/base.yaml", "jenkins: {}").file("apps/x.yaml", "x").build();
    FluxSourceRef spec = Inputs.flux("platform-config", "jenkins/team-a");

    ResolvedInput resolved = new FluxArtifactSource(SourceLimits.DEFAULTS)
        .fetch(Inputs.ref(spec), spec, new FluxArtifact(serve("a.tar.gz", archive), Sha256.digest(archive), REVISION));

    assertThat(resolved.revision()).isEqualTo(REVISION);
    assertThat(resolved.files().files()).containsOnlyKeys("plugins.yaml", "jcasc/base.yaml");
    assertThat(new String(resolved.files().file("plugins.yaml").orElseThrow(), StandardCharsets.UTF_8)).isEqualTo("plugins: []");
  }

  @Test
  void refusesAnArtifactWhoseDigestDiffersFromTheStatus() {
    byte[] archive = TarGzArchive.create().file("plugins.yaml", "p").build();
    byte[] other = TarGzArchive.create().file("plugins.yaml", "tampered").build();
    FluxSourceRef spec = Inputs.flux("platform-config", null);

    BundleException e = catchThrowableOfType(BundleException.class, () -> new FluxArtifactSource(SourceLimits.DEFAULTS)
        .fetch(Inputs.ref(spec), spec, new FluxArtifact(serve("b.tar.gz", other), Sha256.digest(archive), REVISION)));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class);
    assertThat(e.getMessage()).contains(Inputs.ref(spec).describe()).contains("has digest " + Sha256.digest(other))
        .contains("not " + Sha256.digest(archive)).contains("it is not used");
  }

  @Test
  void reportsAMissingArtifactAsUnavailable() {
    FluxSourceRef spec = Inputs.flux("platform-config", null);
    String url = "http://" + LoopbackPort.HOST + ":" + server.getAddress().getPort() + "/gone.tar.gz";

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new FluxArtifactSource(SourceLimits.DEFAULTS)
            .fetch(Inputs.ref(spec), spec, new FluxArtifact(url, "sha256:" + "0".repeat(64), REVISION)));

    assertThat(e.getMessage()).contains("GET " + url + " answered HTTP 404");
  }

  @Test
  void reportsAnUnreachableServerAsUnavailable() {
    FluxSourceRef spec = Inputs.flux("platform-config", null);
    String url = "http://127.0.0.1:" + LoopbackPort.pickFree() + "/a.tar.gz";

    SourceUnavailableException e = catchThrowableOfType(SourceUnavailableException.class,
        () -> new FluxArtifactSource(SourceLimits.DEFAULTS)
            .fetch(Inputs.ref(spec), spec, new FluxArtifact(url, "sha256:" + "0".repeat(64), REVISION)));

    assertThat(e.getMessage()).contains("cannot download " + url + ": connection refused");
  }

  @Test
  void stopsADownloadOverMaxArchiveBytesAndLeavesNoTemporaryFile() throws Exception {
    byte[] big = new byte[3 << 20];
    new Random(1).nextBytes(big);
    FluxSourceRef spec = Inputs.flux("platform-config", null);
    SourceLimits limits = new SourceLimits(1 << 20, 1 << 20, 100, 8 << 20, Duration.ofSeconds(30));
    long spooledBefore = spooledFiles();

    BundleException e = catchThrowableOfType(BundleException.class, () -> new FluxArtifactSource(limits)
        .fetch(Inputs.ref(spec), spec, new FluxArtifact(serve("big.tar.gz", big), Sha256.digest(big), REVISION)));

    assertThat(e).isNotInstanceOf(SourceUnavailableException.class);
    assertThat(e.getMessage()).contains("maxArchiveBytes limit of 1048576 bytes");
    assertThat(spooledFiles()).isEqualTo(spooledBefore);
  }

  @Test
  void givesUpOnAServerThatStallsAfterTheTimeout() {
    FluxSourceRef spec = Inputs.flux("platform-config", null);
    String url = "http://" + LoopbackPort.HOST + ":" + server.getAddress().getPort() + "/stall";
    SourceLimits quick = new SourceLimits(1 << 20, 1 << 20, 100, 8 << 20, Duration.ofSeconds(2));

    SourceUnavailableException e = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> catchThrowableOfType(
        SourceUnavailableException.class, () -> new FluxArtifactSource(quick)
            .fetch(Inputs.ref(spec), spec, new FluxArtifact(url, "sha256:" + "0".repeat(64), REVISION))));

    assertThat(e.getMessage()).contains("took longer than PT2S");
  }

  @Test
  void refusesAMalformedStatusDigest() {
    FluxSourceRef spec = Inputs.flux("platform-config", null);

    assertThat(catchThrowableOfType(BundleException.class, () -> new FluxArtifactSource(SourceLimits.DEFAULTS)
        .fetch(Inputs.ref(spec), spec, new FluxArtifact("http://x/a.tar.gz", "md5:abc", REVISION))))
        .hasMessageContaining("status.artifact.digest 'md5:abc' is not sha256:<64 hex>");
  }

  private String serve(String name, byte[] content) {
    artifacts.put("/" + name, content);
    return "http://" + LoopbackPort.HOST + ":" + server.getAddress().getPort() + "/" + name;
  }

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (path.equals("/stall")) {
        exchange.sendResponseHeaders(200, 1 << 20);
        exchange.getResponseBody().write(new byte[1024]);
        exchange.getResponseBody().flush();
        awaitRelease();
        return;
      }
      byte[] content = artifacts.get(path);
      if (content == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange.sendResponseHeaders(200, content.length);
      // A client that stops at its size limit breaks this write; the server just drops the exchange.
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(content);
      }
    }
  }

  // Holds the stalled response open until the test ends; the client must not wait for it.
  private void awaitRelease() {
    try {
      releaseStalled.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static long spooledFiles() throws IOException {
    try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.filter(p -> p.getFileName().toString().startsWith("varroa-artifact-")).count();
    }
  }
}

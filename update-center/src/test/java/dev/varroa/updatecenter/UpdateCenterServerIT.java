package dev.varroa.updatecenter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.testfixtures.http.StalledClients;
import dev.varroa.testfixtures.updatesite.FixturePlugin;
import dev.varroa.testfixtures.updatesite.UpdateSiteFixture;
import dev.varroa.updatecenter.archive.PluginExport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The update center as controllers and the operator see it: over real HTTP, with a real upstream on loopback. */
class UpdateCenterServerIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final FixturePlugin GIT_OLD = FixturePlugin.of("git", "5.8.0", "credentials:1415.v1");
  private static final FixturePlugin GIT_NEW = FixturePlugin.of("git", "5.9.0", "credentials:1415.v1");
  private static final FixturePlugin CREDENTIALS = FixturePlugin.of("credentials", "1415.v1");
  private final HttpClient http = HttpClient.newHttpClient();
  @TempDir Path work;
  private Path wanted;
  private Path signing;
  private UpdateSiteFixture upstream;
  private UpdateCenterServer server;

  @BeforeEach
  void folders() throws Exception {
    wanted = work.resolve("wanted/plugins.txt");
    Files.createDirectories(wanted.getParent());
    signing = work.resolve("signing");
    TestIdentities.VARROA.writeTo(signing);
    Files.writeString(signing.resolve(UpdateCenterSettings.IMPORT_TOKEN_FILE), "s3cret-token\n");
    upstream = UpdateSiteFixture.start(GIT_OLD, GIT_NEW, CREDENTIALS);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    upstream.close();
  }

  @Test
  void fetchesEveryWantedVersionFromTheUpstreamAndServesItSigned() throws Exception {
    Files.writeString(wanted, "# what the locks name\ngit:5.8.0\ncredentials:1415.v1\n");
    start(settings().withUpstream(upstream.updateCenterUrl()));

    JsonNode status = json("/status.json");
    assertThat(status.path("held").findValuesAsText("version")).containsExactly("1415.v1", "5.8.0");
    assertThat(status.path("missing")).isEmpty();
    HttpResponse<byte[]> hpi = get("/download/plugins/git/5.8.0/git.hpi");
    assertThat(hpi.statusCode()).isEqualTo(200);
    assertThat(hpi.body()).isEqualTo(GIT_OLD.bytes());
    String served = new String(get("/update-center.json").body(), StandardCharsets.UTF_8);
    JenkinsSignatureCheck.verify(served, Set.of(TestIdentities.VARROA.ca()));
    assertThat(served).contains("\"url\":\"http://uc.test/download/plugins/git/5.8.0/git.hpi\"")
        .doesNotContain("5.9.0");
    // 5.8.0 is not the newest upstream: it came from plugin-versions.json
    assertThat(upstream.requests()).contains("/update-center.json", "/plugin-versions.json");
  }

  @Test
  void refusesADownloadWhoseSha256DiffersFromTheUpstreamsAndReportsItMissing() throws Exception {
    upstream.corrupt(CREDENTIALS);
    Files.writeString(wanted, "credentials:1415.v1\n");
    start(settings().withUpstream(upstream.updateCenterUrl()));

    JsonNode missing = json("/status.json").path("missing").get(0);
    assertThat(missing.path("id").asText()).isEqualTo("credentials");
    assertThat(missing.path("reason").asText()).contains("refused").contains("sha256");
    assertThat(get("/download/plugins/credentials/1415.v1/credentials.hpi").statusCode()).isEqualTo(404);
    assertThat(Files.exists(work.resolve("storage/plugins/credentials/1415.v1/credentials.hpi"))).isFalse();
  }

  @Test
  void saysHowToGetAMissingPluginWhenNoUpstreamIsConfigured() throws Exception {
    Files.writeString(wanted, "git:5.8.0\n");
    start(settings());

    assertThat(json("/status.json").path("missing").get(0).path("reason").asText())
        .contains("no upstream update site is configured").contains("varroactl updatecenter import");
  }

  @Test
  void reportsAnUnreachableUpstreamAsTheReason() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    Files.writeString(wanted, "git:5.8.0\n");
    start(settings().withUpstream(URI.create("http://127.0.0.1:" + closed + "/update-center.json")));

    assertThat(json("/status.json").path("missing").get(0).path("reason").asText())
        .contains("upstream update site cannot be read").contains("unreachable");
  }

  @Test
  void importsAnUploadedArchiveOnlyWithTheImportToken() throws Exception {
    Path archive = work.resolve("plugins.tar");
    new PluginExport(new UpstreamSite(upstream.updateCenterUrl(), Optional.empty()))
        .export(new TreeSet<>(Set.of(new PluginCoordinates("git", "5.8.0"))), archive);
    Files.writeString(wanted, "git:5.8.0\n");
    start(settings());

    assertThat(post(archive, null).statusCode()).isEqualTo(401);
    assertThat(json("/status.json").path("held")).isEmpty();
    HttpResponse<String> imported = post(archive, "s3cret-token");

    assertThat(imported.statusCode()).as(imported.body()).isEqualTo(200);
    assertThat(imported.body()).contains("git:5.8.0");
    assertThat(json("/status.json").path("missing")).isEmpty();
    assertThat(get("/download/plugins/git/5.8.0/git.hpi").body()).isEqualTo(GIT_OLD.bytes());
  }

  @Test
  void answersAtOnceFromItsStorageWhileTheFirstFetchRuns() throws Exception {
    Files.writeString(wanted, "git:5.8.0\n");
    server = new UpdateCenterServer(settings().withUpstream(upstream.updateCenterUrl()));
    server.start();

    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
        .until(() -> json("/status.json").path("missing").isEmpty());
    assertThat(json("/status.json").path("held").findValuesAsText("id")).containsExactly("git");
  }

  @Test
  void aChangedWantedListIsFetchedOnTheNextSync() throws Exception {
    start(settings().withUpstream(upstream.updateCenterUrl()));
    assertThat(json("/status.json").path("held")).isEmpty();

    Files.writeString(wanted, "credentials:1415.v1\n");
    server.syncNow();

    assertThat(json("/status.json").path("held").findValuesAsText("id")).containsExactly("credentials");
  }

  @Test
  void answersWhileClientsHoldHalfSentRequestsAndCutsThemOff() throws Exception {
    start(settings());

    try (StalledClients stalled = StalledClients.open(server.port(), UpdateCenterServer.LIMITS.threads() - 1,
        StalledClients.HALF_HEADERS)) {
      assertThat(StalledClients.statusOf("http://127.0.0.1:" + server.port() + "/healthz", Duration.ofSeconds(1)))
          .isEqualTo(200);
      await().atMost(UpdateCenterServer.LIMITS.requestHeaderTime().plusSeconds(3)).until(stalled::allClosedByServer);
    }
  }

  @Test
  void answersVersionWithItsName() throws Exception {
    PrintStream original = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      UpdateCenterMain.main(new String[] {"--version"});
    } finally {
      System.setOut(original);
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).matches("varroa-update-center \\d+\\.\\d+\\.\\d+\\R");
  }

  private UpdateCenterSettings settings() {
    return UpdateCenterSettings.local(work.resolve("storage"), wanted, signing, 0).withBaseUrl("http://uc.test");
  }

  /** Starts the server and runs a full sync, so what the upstream offers has been fetched when it returns. */
  private void start(UpdateCenterSettings settings) throws Exception {
    server = new UpdateCenterServer(settings);
    server.start();
    server.syncNow();
  }

  private HttpResponse<byte[]> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private JsonNode json(String path) throws Exception {
    return JSON.readTree(get(path).body());
  }

  private HttpResponse<String> post(Path archive, String token) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/import"))
        .POST(HttpRequest.BodyPublishers.ofFile(archive));
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

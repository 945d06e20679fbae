package dev.varroa.dashboard.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.operator.bffresponders.ManifestCheckResponder;
import dev.varroa.operator.manifests.ControllerSchema;
import dev.varroa.operator.manifests.ManifestCheck;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProviderExtension;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The creation wizard and the Spec Editor in headless Chromium against the BFF in front of a real API server, operator,
 * NATS and OpenID provider, with three registered clusters: the core (eu-1), a healthy member (us-2) and a member whose
 * heartbeat stopped ten minutes ago (ap-3). Nothing in either page applies anything: the test checks the cluster's
 * Controllers are unchanged afterwards.
 */
@WithKubeApiServer
class ControllerEditingBrowserIT {

  private static final int PORT = BffFixtures.port();
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String USER = "alice";
  static final String HEALTHY_MEMBER = "us-2";
  static final String SILENT_MEMBER = "ap-3";
  /** The member's operator refreshes its entry every 5 s; a healthy one within 20 s (ControllerViews.HEALTHY_WITHIN). */
  private static final Duration MEMBER_BEACON = Duration.ofSeconds(5);

  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();
  @RegisterExtension
  static final OidcProviderExtension OIDC = new OidcProviderExtension(List.of(BffFixtures.user(USER)),
      List.of(BffStack.redirectUri(PORT)));

  private static KubernetesClient client;
  private static Connection operatorBus;
  private static Connection bffBus;
  private static BffStack stack;
  private static String token;
  private static ScheduledExecutorService memberBeacon;
  private static ManifestCheckResponder memberChecks;

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path folder) throws Exception {
    client = kube.client();
    Files.createDirectories(DashboardBrowserIT.SCREENSHOTS);
    BffFixtures.namespaces(client, "ci");
    BffFixtures.create(client, StarterProfile.PROFILE_YAML, JenkinsVersionProfile.class);
    BffFixtures.create(client, "apiVersion: varroa.dev/v1alpha1\nkind: Controller\nmetadata: {name: team-a, namespace: ci}\n"
        + "spec: {versionProfileRef: {name: lts}}\n", Controller.class);
    BffFixtures.readerRole(client);
    BffFixtures.binding(client, "alice-reads-all", "reader", "User", USER, null);

    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, folder.resolve("cache"), operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT),
        PORT);
    token = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), USER, BffFixtures.password(USER))
        .idToken();

    BusTopology.ensureClusters(operatorBus);
    long silentSince = System.currentTimeMillis() - Duration.ofMinutes(10).toMillis();
    // plays both members' operators: the healthy one's heartbeat is fresh; the silent one's entry is rewritten (the
    // bucket drops an entry after 30 s) but its heartbeat stays ten minutes old
    memberBeacon = Executors.newSingleThreadScheduledExecutor();
    memberBeacon.scheduleAtFixedRate(() -> {
      presence(HEALTHY_MEMBER, System.currentTimeMillis());
      presence(SILENT_MEMBER, silentSince);
    }, 0, MEMBER_BEACON.toMillis(), TimeUnit.MILLISECONDS);

    // the healthy member's operator answers the manifest checks aimed at it (the core's operator is the stack's)
    memberChecks = new ManifestCheckResponder(operatorBus, HEALTHY_MEMBER, new ManifestCheck(ControllerSchema.load()),
        Optional::empty);
    memberChecks.start();

    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/clusters").path("items").findValuesAsText("name"))
        .containsExactlyInAnyOrder(BffStack.CLUSTER, HEALTHY_MEMBER, SILENT_MEMBER));
    await().atMost(DEADLINE).untilAsserted(() -> assertThat(api("/controllers/ci/team-a?cluster=" + BffStack.CLUSTER)
        .path("spec").path("versionProfileRef").path("name").asText()).isEqualTo("lts"));
  }

  private static void presence(String name, long refreshedAt) {
    try {
      operatorBus.keyValue(BusNames.CLUSTERS_BUCKET).put(name, ClusterPresence.newBuilder().setName(name)
          .setRole("member").setOperatorVersion("0.1.0").setKubernetesVersion("v1.34.4")
          .setRefreshedAtEpochMillis(refreshedAt).build().toByteArray());
    } catch (Exception e) {
      throw new IllegalStateException("writing the presence of " + name, e);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (memberBeacon != null) {
      memberBeacon.shutdownNow();
    }
    if (memberChecks != null) {
      memberChecks.close();
    }
    if (stack != null) {
      stack.close();
    }
    if (operatorBus != null) {
      operatorBus.close();
      bffBus.close();
    }
  }

  private static JsonNode api(String path) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + path))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 ? JSON.readTree(response.body()) : JSON.createObjectNode();
  }

  private static BrowserScript script() {
    Map<String, String> environment = new HashMap<>();
    environment.put("VARROA_E2E_URL", stack.url());
    environment.put("VARROA_E2E_USER", USER);
    environment.put("VARROA_E2E_PASSWORD", BffFixtures.password(USER));
    environment.put("VARROA_E2E_SCREENSHOTS", DashboardBrowserIT.SCREENSHOTS.toString());
    environment.put("VARROA_E2E_CORE", BffStack.CLUSTER);
    environment.put("VARROA_E2E_HEALTHY_MEMBER", HEALTHY_MEMBER);
    environment.put("VARROA_E2E_SILENT_MEMBER", SILENT_MEMBER);
    return new BrowserScript(environment);
  }

  private static void passes(BrowserScript.Outcome outcome) {
    assertThat(outcome.exitCode()).as("%s", outcome).isZero();
    assertThat(outcome.output()).as("%s", outcome).anyMatch(line -> line.startsWith("ok: "));
  }

  @Test
  void theWizardOffersHealthyClustersOnlyDefaultsToTheCoreAndWritesTheManifest() throws Exception {
    passes(script().run("wizard.mjs"));
    assertThat(client.resources(Controller.class).inNamespace("ci").withName("payments").get())
        .as("the wizard applies nothing").isNull();
  }

  @Test
  void formAndYamlStayInSyncAndAMiteImageChangeIsMarkedAsRollingThePod() throws Exception {
    passes(script().run("spec-editor.mjs"));
    assertThat(client.resources(Controller.class).inNamespace("ci").withName("team-a").get().getSpec().miteSpec)
        .as("the Spec Editor applies nothing").isNull();
  }
}

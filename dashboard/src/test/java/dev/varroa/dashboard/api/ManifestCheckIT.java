package dev.varroa.dashboard.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.varroa.dashboard.BffFixtures;
import dev.varroa.dashboard.BffStack;
import dev.varroa.testfixtures.kube.KubeApiServer;
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
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * POST /manifests/check on the BFF as it runs (real API server, operator, NATS, OpenID provider): the BFF forwards to
 * the target cluster's operator, whose ManifestCheckResponder answers. A valid Controller, an invalid field answered
 * with its name and fix, a ControllerClass the cluster lacks, a restart-class change against the spec in force, a
 * cluster that does not answer, and that the check wrote nothing to the cluster.
 */
@WithKubeApiServer
class ManifestCheckIT {

  private static final int PORT = BffFixtures.port();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final String USER = "alice";

  private static final String MANIFEST = """
      apiVersion: varroa.dev/v1alpha1
      kind: Controller
      metadata: {name: payments, namespace: ci}
      spec:
        versionProfileRef: {name: lts}
        miteSpec:
          image: ghcr.io/varroa/mite:0.1.0
          imagePullPolicy: IfNotPresent
          resources: {requests: {cpu: 100m, memory: 128Mi}}
      """;

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

  @BeforeAll
  static void start(KubeApiServer kube, @TempDir Path cache) throws Exception {
    client = kube.client();
    BffFixtures.namespaces(client, "ci");
    operatorBus = NATS.server().connect();
    bffBus = NATS.server().connect();
    stack = BffStack.start(client, cache, operatorBus, bffBus, BffStack.oidc(OIDC.provider(), PORT), PORT);
    token = BrowserLogin.login(OIDC.provider(), BffStack.redirectUri(PORT), USER, BffFixtures.password(USER))
        .idToken();
  }

  @AfterAll
  static void stop() throws Exception {
    if (stack != null) {
      stack.close();
    }
    operatorBus.close();
    bffBus.close();
  }

  @Test
  void aValidControllerPassesAndComesBackParsed() throws Exception {
    JsonNode body = check(request(MANIFEST, null), 200);
    assertThat(body.path("valid").asBoolean()).as("%s", body).isTrue();
    assertThat(body.path("cluster").asText()).as("no cluster named: the core checks").isEqualTo(BffStack.CLUSTER);
    assertThat(body.path("problems")).isEmpty();
    assertThat(body.path("manifest").path("spec").path("miteSpec").path("resources").path("requests")
        .path("memory").asText()).isEqualTo("128Mi");
    assertThat(body.has("changeClass")).as("no current spec, no classification").isFalse();
  }

  @Test
  void anInvalidFieldIsNamedWithItsFix() throws Exception {
    JsonNode body = check(request(MANIFEST.replace("IfNotPresent", "Sometimes").replace("128Mi", "a lot"), null),
        200);
    assertThat(body.path("valid").asBoolean()).isFalse();
    assertThat(body.path("problems").findValuesAsText("field")).containsExactlyInAnyOrder(
        "spec.miteSpec.imagePullPolicy", "spec.miteSpec.resources.requests.memory");
    JsonNode pullPolicy = problem(body, "spec.miteSpec.imagePullPolicy");
    assertThat(pullPolicy.path("message").asText()).isEqualTo("\"Sometimes\" is not one of Always, IfNotPresent, Never");
    assertThat(pullPolicy.path("fix").asText()).isEqualTo("use one of Always, IfNotPresent, Never");
    assertThat(problem(body, "spec.miteSpec.resources.requests.memory").path("fix").asText())
        .contains("512Mi");
  }

  @Test
  void theOperatorsResolverNamesWhatTheSchemaAllows() throws Exception {
    JsonNode body = check(request(MANIFEST + "  ingress: {enabled: true}\n", null), 200);
    assertThat(body.path("valid").asBoolean()).isFalse();
    assertThat(problem(body, "spec.ingress.host").path("fix").asText())
        .startsWith("set spec.ingress.host, e.g. jenkins.example.com");
  }

  @Test
  void theClustersOperatorKnowsWhichControllerClassesExist() throws Exception {
    JsonNode body = check(request(MANIFEST + "  classRef: {name: no-such-class}\n", null), 200);
    assertThat(body.path("valid").asBoolean()).isFalse();
    JsonNode classRef = problem(body, "spec.classRef.name");
    assertThat(classRef.path("message").asText()).isEqualTo("ControllerClass no-such-class does not exist in cluster "
        + BffStack.CLUSTER + " (the operator would block the Controller)");
    assertThat(classRef.path("fix").asText()).isEqualTo(
        "create ControllerClass no-such-class there, or correct spec.classRef.name");
    assertThat(body.path("warnings")).as("the operator read its classes: nothing left undecided").isEmpty();
  }

  @Test
  void aClusterThatDoesNotAnswerIsNamed() throws Exception {
    JsonNode body = JSON.readTree(send(inCluster(request(MANIFEST, null), "us-9"), "", 503));
    assertThat(body.path("message").asText()).startsWith("check unavailable: cluster us-9 did not answer within");
    JsonNode query = JSON.readTree(send(request(MANIFEST, null), "?cluster=us-9", 503));
    assertThat(query.path("message").asText()).contains("cluster us-9");
    assertThat(check(inCluster(request(MANIFEST, null), BffStack.CLUSTER), 200).path("valid").asBoolean()).isTrue();
  }

  @Test
  void aClusterFieldThatIsNotAClusterNameIsRefused() throws Exception {
    JsonNode body = JSON.readTree(send(inCluster(request(MANIFEST, null), "us.*>"), "", 400));
    assertThat(body.path("parameter").asText()).isEqualTo("cluster");
    assertThat(body.path("message").asText()).contains("a cluster name");
  }

  @Test
  void aMiteImageChangeIsMarkedRestartClassAndABackupScheduleIsNot() throws Exception {
    JsonNode current = YAML.readTree(MANIFEST).path("spec");
    JsonNode image = check(request(MANIFEST.replace("mite:0.1.0", "mite:0.2.0"), current), 200);
    assertThat(image.path("changeClass").asText()).isEqualTo("restart");
    assertThat(image.path("restart").asBoolean()).isTrue();
    assertThat(image.path("changes").get(0).path("field").asText()).isEqualTo("spec.miteSpec.image");
    assertThat(image.path("changes").get(0).path("class").asText()).isEqualTo("restart");

    JsonNode backup = check(request(MANIFEST + "  backup: {schedule: \"0 3 * * *\"}\n", current), 200);
    assertThat(backup.path("changeClass").asText()).isEqualTo("reloadable");
    assertThat(backup.path("restart").asBoolean()).isFalse();
    assertThat(backup.path("changes").findValuesAsText("field")).containsExactly("spec.backup");
  }

  @Test
  void theCheckAppliesNothing() throws Exception {
    check(request(MANIFEST, null), 200);
    assertThat(client.resources(dev.varroa.api.v1alpha1.Controller.class).inNamespace("ci").list().getItems())
        .as("a check creates no Controller").isEmpty();
  }

  @Test
  void aCallerWithoutATokenIsRefusedAndOnlyPostIsServed() throws Exception {
    HttpResponse<String> anonymous = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/manifests/check"))
        .POST(HttpRequest.BodyPublishers.ofString(request(MANIFEST, null))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).isEqualTo(401);
    HttpResponse<String> get = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/manifests/check"))
        .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(405);
    assertThat(get.headers().firstValue("Allow")).hasValue("POST");
  }

  private static String request(String manifest, JsonNode current) throws Exception {
    ObjectNode body = JSON.createObjectNode().put("manifest", manifest);
    if (current != null) {
      body.set("current", current);
    }
    return JSON.writeValueAsString(body);
  }

  private static String inCluster(String request, String cluster) throws Exception {
    return JSON.writeValueAsString(((ObjectNode) JSON.readTree(request)).put("cluster", cluster));
  }

  private static JsonNode check(String body, int status) throws Exception {
    return JSON.readTree(send(body, "", status));
  }

  private static String send(String body, String query, int status) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(stack.url() + "/manifests/check"
        + query)).header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    return response.body();
  }

  private static JsonNode problem(JsonNode body, String field) {
    for (JsonNode problem : body.path("problems")) {
      if (field.equals(problem.path("field").asText())) {
        return problem;
      }
    }
    throw new AssertionError("no problem for " + field + " in " + body);
  }
}

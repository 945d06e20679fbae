package dev.varroa.operator.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.CellPool;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.api.v1alpha1.TeamStatus;
import dev.varroa.operator.render.resolve.CellPlugins;
import dev.varroa.testfixtures.oidc.BrowserLogin;
import dev.varroa.testfixtures.oidc.OidcProvider;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A cell pool on the real node (FullInstallOnRealNodeIT): a pool of one cell whose Jenkins is the stand-in, a Team
 * placed on it, a pipeline run requested through the BFF as varroactl sends it (POST /actions, verb pipeline-run),
 * carried by the recorder and the operator to the cell's mite, queued in Jenkins, and followed through the BFF's
 * GET /pipeline-runs/{id} to its result; then the cell parked and a run requested again, which wakes it first.
 */
final class NodeCells {
  static final String NAMESPACE = "node-cells";
  static final String POOL = "node-pool";
  static final String CELL = POOL + "-0";
  static final String TEAM = "node-team";
  static final String PIPELINE = "build";
  private static final String CORE = "core";
  private static final String PROFILE = "node-cells";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final KubernetesClient client;
  private final String token;

  private NodeCells(KubernetesClient client, String token) {
    this.client = client;
    this.token = token;
  }

  /** Logs in as the test user, granted to trigger pipelines everywhere on top of reading everything. */
  static NodeCells loggedIn(KubernetesClient client, TestServices.Login login) throws Exception {
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: node-e2e-pipelines}
        spec:
          rules:
            - verbs: [trigger]
              resources: [pipelines]
        ---
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRoleBinding
        metadata: {name: node-e2e-triggers-pipelines}
        spec:
          roleRef: {name: node-e2e-pipelines}
          subjects: [{kind: User, name: %s}]
        """.formatted(login.user()));
    OidcProvider provider = new OidcProvider(TestServices.ISSUER, 9998, List.of(
        new OidcProvider.User(login.user(), login.user(), login.password(), login.user() + "@example.com")));
    String token = BrowserLogin.login(provider, TestServices.DASHBOARD_URL + "/auth/callback", login.user(),
        login.password()).idToken();
    return new NodeCells(client, token);
  }

  /**
   * The pool, its profile (the example lts with every plugin a cell's generated layer needs; the stand-in's plugin
   * tool writes placeholders) and the Team; returns how long the cell took from the Team's creation to Connected.
   */
  Duration createPoolAndTeam() throws Exception {
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    JenkinsVersionProfile lts = client.resources(JenkinsVersionProfile.class).withName("lts").get();
    StringBuilder plugins = new StringBuilder();
    List<String> listed = new ArrayList<>();
    lts.getSpec().plugins.forEach(p -> {
      listed.add(p.id);
      plugins.append("    - {id: ").append(p.id).append(", version: \"").append(p.version).append("\"}\n");
    });
    CellPlugins.NEEDED.stream().filter(id -> !listed.contains(id))
        .forEach(id -> plugins.append("    - {id: ").append(id).append(", version: \"1.0\"}\n"));
    Instant created = Instant.now();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsVersionProfile
        metadata: {name: %s}
        spec:
          jenkinsVersion: "%s"
          image: %s
          plugins:
        %s
        ---
        apiVersion: varroa.dev/v1alpha1
        kind: CellPool
        metadata: {name: %s, namespace: %s}
        spec:
          replicas: 1
          teamsPerCell: 4
          template:
            spec:
              versionProfileRef: {name: %s}
              hibernation: {idleMinutes: 600}
        ---
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: %s, namespace: %s}
        spec:
          pool: %s
          pipelines:
            - {name: %s, repository: "https://git.example.invalid/node-team/app.git"}
        """.formatted(PROFILE, lts.getSpec().jenkinsVersion, lts.getSpec().image, plugins.toString().stripTrailing(),
        POOL, NAMESPACE, PROFILE, TEAM, NAMESPACE, POOL, PIPELINE));
    await("Team " + NAMESPACE + "/" + TEAM + " placed on " + CELL).atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() -> {
          TeamStatus status = client.resources(Team.class).inNamespace(NAMESPACE).withName(TEAM).get().getStatus();
          assertThat(status.phase).isEqualTo(TeamStatus.Phase.Placed);
          assertThat(status.cell).isEqualTo(CELL);
        });
    awaitPhase(ControllerStatus.Phase.Connected, Duration.ofMinutes(5));
    return Duration.between(created, Instant.now());
  }

  /** Asks for a run as varroactl does; the BFF's answer. */
  JsonNode requestRun(Map<String, String> parameters) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("requestId", UUID.randomUUID().toString());
    body.put("verb", "pipeline-run");
    body.put("target", Map.of("cluster", CORE, "namespace", NAMESPACE, "name", TEAM));
    body.put("pipeline", PIPELINE);
    body.put("parameters", parameters);
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(TestServices.DASHBOARD_URL + "/actions"))
        .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as("POST /actions pipeline-run: %s", answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  /** The run's status through the BFF once it reached one of the states. */
  JsonNode awaitRun(String requestId, Duration within, String... states) {
    try {
      return await("pipeline run " + requestId + " in " + String.join(" or ", states)).atMost(within)
          .pollInterval(Duration.ofMillis(250)).ignoreExceptions().until(() -> status(requestId),
              s -> List.of(states).contains(s.path("state").asText()));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError(e.getMessage() + "\n" + cellLogs(), e);
    }
  }

  /** The cell's phase and the last lines of its pod's containers, for a run that did not get there. */
  private String cellLogs() {
    StringBuilder out = new StringBuilder("cell phase: " + phase() + "\n");
    client.pods().inNamespace(NAMESPACE).list().getItems().forEach(pod -> {
      for (String container : List.of("mite", "jenkins")) {
        try {
          out.append("--- ").append(pod.getMetadata().getName()).append('/').append(container).append('\n')
              .append(client.pods().inNamespace(NAMESPACE).withName(pod.getMetadata().getName())
                  .inContainer(container).tailingLines(40).getLog()).append('\n');
        } catch (RuntimeException unreadable) {
          out.append("(no log: ").append(unreadable.getMessage()).append(")\n");
        }
      }
    });
    return out.toString();
  }

  JsonNode status(String requestId) throws Exception {
    HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create(TestServices.DASHBOARD_URL
        + "/pipeline-runs/" + requestId)).timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + token)
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(answer.statusCode()).as("GET /pipeline-runs/%s: %s", requestId, answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  /**
   * Parks the cell on request (varroa.dev/hibernate-now) and waits until it is Hibernated; a request answered with a
   * block (the last build still counted as running until the mite reports again) is asked again with a new value.
   */
  void park() {
    java.util.concurrent.atomic.AtomicReference<String> asked = new java.util.concurrent.atomic.AtomicReference<>();
    askToPark(asked);
    await("cell " + NAMESPACE + "/" + CELL + " parked").atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofSeconds(2)).ignoreExceptions().until(() -> {
          Controller cell = client.resources(Controller.class).inNamespace(NAMESPACE).withName(CELL).get();
          ControllerStatus status = cell.getStatus();
          if (status.phase == ControllerStatus.Phase.Hibernated) {
            return true;
          }
          if (status.hibernation != null && asked.get().equals(status.hibernation.lastHibernateRequest)
              && !"Parked".equals(status.hibernation.lastHibernateOutcome)) {
            askToPark(asked);
          }
          return false;
        });
  }

  private void askToPark(java.util.concurrent.atomic.AtomicReference<String> asked) {
    asked.set(Instant.now().toString());
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(CELL).patch(PatchContext.of(
        PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"" + ControllerAnnotations.HIBERNATE_NOW + "\":\""
        + asked.get() + "\"}}}");
  }

  ControllerStatus.Phase phase() {
    Controller cell = client.resources(Controller.class).inNamespace(NAMESPACE).withName(CELL).get();
    return cell == null || cell.getStatus() == null ? null : cell.getStatus().phase;
  }

  /** The Team and the pool gone, and with them the cell (its Controller deleted as a pool scaled to none does). */
  void remove() {
    client.resources(Team.class).inNamespace(NAMESPACE).withName(TEAM).delete();
    client.resources(CellPool.class).inNamespace(NAMESPACE).withName(POOL).delete();
    client.resources(Controller.class).inNamespace(NAMESPACE).withName(CELL).delete();
    await("cell " + CELL + " and its pod gone").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
        .until(() -> client.resources(Controller.class).inNamespace(NAMESPACE).list().getItems().isEmpty()
            && client.pods().inNamespace(NAMESPACE).list().getItems().isEmpty());
    client.resources(JenkinsVersionProfile.class).withName(PROFILE).delete();
  }

  private void awaitPhase(ControllerStatus.Phase phase, Duration within) {
    await("cell " + NAMESPACE + "/" + CELL + " " + phase).atMost(within).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().until(this::phase, p -> p == phase);
  }

  private static void apply(KubernetesClient client, String yaml) {
    for (HasMetadata object : client.load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).items()) {
      client.resource(object).fieldManager("node-e2e").forceConflicts().serverSideApply();
    }
  }
}

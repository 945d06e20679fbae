package dev.varroa.operator.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsVersionProfile;
import dev.varroa.operator.leader.LeaderPodLabel;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.testfixtures.node.RealNode;
import dev.varroa.testfixtures.node.WithRealNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The chart installed for real, full mode, on the real node: every component's pod Ready from the images `make images`
 * pushed, then the gitops-examples objects applied as Argo CD would, and a Controller's pod running the real mite
 * beside the Jenkins stand-in (Jenkins cannot be fetched here) until the Controller is Connected through the gateway's
 * Service. The figures go to standard output as `figure:` lines (docs/benchmarks.md).
 */
@WithRealNode
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FullInstallOnRealNodeIT {
  static final String NAMESPACE = NodeInstall.NAMESPACE;
  private static final String JOB = "node-e2e";
  private static final ObjectMapper JSON = new ObjectMapper();

  private RealNode node;
  private KubernetesClient client;
  private NodeImages images;
  private VarroaRelease release;

  @BeforeAll
  void install(RealNode node) throws Exception {
    this.node = node;
    this.client = node.adminClient();
    this.images = NodeImages.pushed();
    this.release = new VarroaRelease(node, NAMESPACE);
    Duration installed = NodeInstall.install(node, client, images, release, TestServices.TEST_LOGIN);
    System.out.printf("figure: helm_install_to_all_ready_seconds %.1f s%n", installed.toMillis() / 1e3);
  }

  @Test
  @Order(10)
  void helmUninstallLeavesNothingButTheCrdsAndTheVolumes() {
    // a user removing Varroa prunes their Controllers first (Argo CD or Flux), then uninstalls the chart
    NodeInstall.deleteExampleControllers(client);
    release.uninstall();
    await("the release namespace emptied").atMost(Duration.ofMinutes(2)).untilAsserted(() ->
        assertThat(leftInNamespace(NAMESPACE)).as("objects left in %s", NAMESPACE)
            .allMatch(o -> o.startsWith("PersistentVolumeClaim/") || o.startsWith("ConfigMap/kube-root-ca.crt")
                || o.startsWith("ServiceAccount/default") || o.contains("varroa-test")));
    assertThat(client.rbac().clusterRoles().withLabel("app.kubernetes.io/part-of", "varroa").list().getItems())
        .isEmpty();
    assertThat(client.rbac().clusterRoleBindings().withLabel("app.kubernetes.io/part-of", "varroa").list().getItems())
        .isEmpty();
    assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
        .extracting(c -> c.getMetadata().getName()).contains("controllers.varroa.dev");
  }

  /** Every namespaced object a list can find in the namespace, as Kind/name. */
  private List<String> leftInNamespace(String namespace) {
    List<String> left = new ArrayList<>();
    client.secrets().inNamespace(namespace).list().getItems().forEach(o -> left.add("Secret/" + name(o)));
    client.configMaps().inNamespace(namespace).list().getItems().forEach(o -> left.add("ConfigMap/" + name(o)));
    client.services().inNamespace(namespace).list().getItems().forEach(o -> left.add("Service/" + name(o)));
    client.serviceAccounts().inNamespace(namespace).list().getItems().forEach(o -> left.add("ServiceAccount/" + name(o)));
    client.pods().inNamespace(namespace).list().getItems().forEach(o -> left.add("Pod/" + name(o)));
    client.apps().deployments().inNamespace(namespace).list().getItems().forEach(o -> left.add("Deployment/" + name(o)));
    client.apps().statefulSets().inNamespace(namespace).list().getItems()
        .forEach(o -> left.add("StatefulSet/" + name(o)));
    client.persistentVolumeClaims().inNamespace(namespace).list().getItems()
        .forEach(o -> left.add("PersistentVolumeClaim/" + name(o)));
    client.network().networkPolicies().inNamespace(namespace).list().getItems()
        .forEach(o -> left.add("NetworkPolicy/" + name(o)));
    client.rbac().roles().inNamespace(namespace).list().getItems().forEach(o -> left.add("Role/" + name(o)));
    client.rbac().roleBindings().inNamespace(namespace).list().getItems().forEach(o -> left.add("RoleBinding/" + name(o)));
    client.leases().inNamespace(namespace).list().getItems().forEach(o -> left.add("Lease/" + name(o)));
    return left;
  }

  private static String name(HasMetadata object) {
    return object.getMetadata().getName();
  }

  @AfterAll
  void closeClients() {
    if (release != null) {
      release.close();
    }
    if (client != null) {
      client.close();
    }
  }

  @Test
  @Order(1)
  void everyComponentRunsReadyWithOneLeader() {
    Map<String, Long> readyByComponent = client.pods().inNamespace(NAMESPACE).list().getItems().stream()
        .filter(VarroaRelease::ready)
        .collect(Collectors.groupingBy(p -> p.getMetadata().getLabels().getOrDefault("app.kubernetes.io/component", "?"),
            Collectors.counting()));
    assertThat(readyByComponent).containsEntry("operator", 2L).containsEntry("gateway", 2L).containsEntry("nats", 1L)
        .containsEntry("recorder", 2L).containsEntry("dashboard", 1L);
    await("one operator pod labelled leader").atMost(Duration.ofMinutes(2)).untilAsserted(() ->
        assertThat(client.pods().inNamespace(NAMESPACE).withLabel("app.kubernetes.io/component", "operator").list()
            .getItems()).filteredOn(p -> "true".equals(p.getMetadata().getLabels().get(LeaderPodLabel.LABEL)))
            .hasSize(1));
  }

  @Test
  @Order(2)
  void anExampleControllerConnectsThroughTheGatewayService() throws Exception {
    long started = System.nanoTime();
    NodeInstall.applyExamples(client, images);
    await("Controller ci/sandbox Connected").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(1))
        .untilAsserted(() -> {
          Controller sandbox = client.resources(Controller.class).inNamespace("ci").withName("sandbox").get();
          assertThat(sandbox.getStatus()).as("status of ci/sandbox: %s", sandbox.getStatus()).isNotNull();
          assertThat(sandbox.getStatus().phase).isEqualTo(ControllerStatus.Phase.Connected);
        });
    System.out.printf("figure: controller_created_to_connected_seconds %.1f s%n", (System.nanoTime() - started) / 1e9);
    Pod jenkins = client.pods().inNamespace("ci").list().getItems().stream()
        .filter(p -> p.getMetadata().getName().startsWith("sandbox-")).findFirst().orElseThrow();
    // the mite is a native sidecar: an init container that keeps running
    List<String> running = new ArrayList<>();
    jenkins.getSpec().getContainers().forEach(c -> running.add(c.getImage()));
    jenkins.getSpec().getInitContainers().forEach(c -> running.add(c.getImage()));
    assertThat(running).contains(images.product("mite"), images.test("jenkins"));
  }

  @Test
  @Order(3)
  void aBuildPlayedInThePodReachesPostgresAndItsLogTheBlobStore() throws Exception {
    Pod jenkins = client.pods().inNamespace("ci").list().getItems().stream()
        .filter(p -> p.getMetadata().getName().startsWith("sandbox-")).findFirst().orElseThrow();
    // the stand-in's build route answers on loopback only: a shell in the Jenkins container, as an admin would
    String answer = PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f", "-X", "POST",
        "http://127.0.0.1:8080/varroa-standin/builds?job=" + JOB + "&lines=40");
    assertThat(answer).contains(JOB);
    String postgres = TestServices.clusterIp(client, NAMESPACE, "varroa-test-postgres");
    await("the run of " + JOB + " recorded in PostgreSQL").atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() ->
            assertThat(RecordStore.results(postgres, JOB)).containsExactly("SUCCESS"));
    String s3 = TestServices.clusterIp(client, NAMESPACE, "varroa-test-s3");
    // the BFF serves the run, and the dashboard shows it in Chromium through a Service's ClusterIP, as a browser on
    // this machine reaches it
    DashboardInChromium.run("real-node-run.mjs", Map.of(
        "VARROA_E2E_URL", TestServices.DASHBOARD_URL,
        "VARROA_E2E_USER", TestServices.TEST_LOGIN.user(), "VARROA_E2E_PASSWORD", TestServices.TEST_LOGIN.password(),
        "VARROA_E2E_CONTROLLER", "core/ci/sandbox", "VARROA_E2E_JOB", JOB));
    await("the console log of " + JOB + " in the blob store").atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() ->
            assertThat(RecordStore.blobKeys(s3)).isNotEmpty());
  }

  @Test
  @Order(4)
  void aPipelineRunRequestedFromTheCoreRunsOnACellAndWakesItWhenParked() throws Exception {
    NodeCells cells = NodeCells.loggedIn(client, TestServices.TEST_LOGIN);
    Duration cellUp = cells.createPoolAndTeam();
    System.out.printf("figure: cell_created_to_connected_seconds %.1f s%n", cellUp.toMillis() / 1e3);
    try {
      // a running cell: the request is carried to the cell's mite, Jenkins queues it, the run is recorded
      JsonNode accepted = cells.requestRun(Map.of("GREETING", "hello from the core"));
      assertThat(accepted.path("outcome").asText()).isEqualTo("accepted");
      assertThat(accepted.path("cell").asText()).isEqualTo(NodeCells.CELL);
      assertThat(accepted.path("job").asText()).isEqualTo(NodeCells.TEAM + "/" + NodeCells.PIPELINE);
      assertThat(accepted.path("wake").asText()).isEqualTo("not-parked");
      String first = accepted.path("requestId").asText();
      JsonNode started = cells.awaitRun(first, Duration.ofMinutes(2), "running", "finished");
      JsonNode finished = cells.awaitRun(first, Duration.ofMinutes(2), "finished");
      assertThat(finished.path("result").asText()).isEqualTo("SUCCESS");
      assertThat(finished.path("runId").asText()).isEqualTo(started.path("runId").asText()).isNotEmpty();
      assertThat(finished.path("startedAtEpochMillis").asLong()).as("the run's start, from its events").isPositive();
      System.out.printf("figure: pipeline_request_to_started_running_cell_seconds %.1f s%n",
          (finished.path("startedAtEpochMillis").asLong() - finished.path("requestedAtEpochMillis").asLong()) / 1e3);

      // a parked cell: the recorder wakes it, the queued command waits for its mite, then the run goes; more than
      // one cycle (-Dvarroa.node.cellWakes=N, docs/benchmarks.md) gives the wake's percentiles
      List<Long> wakes = new ArrayList<>();
      for (int cycle = 0; cycle < Integer.getInteger("varroa.node.cellWakes", 1); cycle++) {
        cells.park();
        JsonNode woke = cells.requestRun(Map.of());
        assertThat(woke.path("outcome").asText()).isEqualTo("accepted");
        assertThat(woke.path("wake").asText()).isEqualTo("woken");
        String second = woke.path("requestId").asText();
        cells.awaitRun(second, Duration.ofMinutes(5), "running", "finished");
        JsonNode done = cells.awaitRun(second, Duration.ofMinutes(2), "finished");
        assertThat(done.path("result").asText()).isEqualTo("SUCCESS");
        assertThat(cells.phase()).isEqualTo(ControllerStatus.Phase.Connected);
        // the recorder's request time to the build's start as the plugin reported it: one machine's clock
        long wake = done.path("startedAtEpochMillis").asLong() - done.path("requestedAtEpochMillis").asLong();
        wakes.add(wake);
        System.out.printf("figure: pipeline_request_to_started_parked_cell_seconds %.1f s%n", wake / 1e3);
      }
      wakes.sort(null);
      System.out.printf("figure: parked_cell_wake_to_started_p50_seconds %.1f s%n",
          wakes.get((int) Math.ceil(0.5 * wakes.size()) - 1) / 1e3);
      System.out.printf("figure: parked_cell_wake_to_started_p95_seconds %.1f s%n",
          wakes.get((int) Math.ceil(0.95 * wakes.size()) - 1) / 1e3);
    } finally {
      cells.remove();
    }
  }

  @Test
  @Order(5)
  void aPlannedDeletionDrainsTheRunningBuildAndThePodComesBackOnItsVolume() throws Exception {
    Pod before = sandboxPod();
    String volume = homeVolume();
    play(before, "drained", 300, 20);
    JsonNode ahead = standInStatus(before);
    assertThat(ahead.path("appliedConfigurations")).isNotEmpty();

    // a planned deletion (a roll, a drained node) runs the preStop hook: the mite drains Jenkins, which finishes
    // the running build before the kubelet stops the container
    client.pods().inNamespace("ci").withName(before.getMetadata().getName()).delete();
    Pod after = awaitReplaced(before);
    assertThat(homeVolume()).as("the same PersistentVolume under JENKINS_HOME").isEqualTo(volume);
    JsonNode drained = run(standInStatus(after), "drained");
    assertThat(drained.path("result").asText()).as("the build the drain waited for").isEqualTo("SUCCESS");
    // what Jenkins wrote to JENKINS_HOME before is there: the configurations applied then
    assertThat(standInStatus(after).path("appliedConfigurations").size())
        .isGreaterThanOrEqualTo(ahead.path("appliedConfigurations").size());
    String postgres = TestServices.clusterIp(client, NAMESPACE, "varroa-test-postgres");
    await("the drained run recorded").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().untilAsserted(() ->
            assertThat(RecordStore.results(postgres, "drained")).containsExactly("SUCCESS"));
  }

  @Test
  @Order(6)
  void aJenkinsPodKilledMidBuildComesBackOnItsVolumeWithItsAgentAndAbortsTheInterruptedRun() throws Exception {
    Pod before = sandboxPod();
    String volume = homeVolume();
    // an inbound agent (seed 003): Jenkins keeps its node under nodes/ and the key of its secret under secrets/
    JsonNode agent = JSON.readTree(PodExec.run(client, before, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f",
        "-X", "POST", "http://127.0.0.1:8080/varroa-standin/agents?name=linux-agent-1"));
    play(before, "killed-mid-build", 600, 120);

    // no grace: the process dies as in a node crash, with the run half done
    client.pods().inNamespace("ci").withName(before.getMetadata().getName()).withGracePeriod(0).delete();
    Pod after = awaitReplaced(before);
    assertThat(homeVolume()).isEqualTo(volume);
    // Jenkins finds the run interrupted when it starts on the same JENKINS_HOME and finishes it as ABORTED
    assertThat(run(standInStatus(after), "killed-mid-build").path("result").asText()).isEqualTo("ABORTED");
    assertThat(run(standInStatus(after), "drained").path("result").asText()).isEqualTo("SUCCESS");
    // the agent is known and its secret unchanged, so the agent reconnects with the secret it was given
    JsonNode kept = JSON.readTree(PodExec.run(client, after, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f",
        "http://127.0.0.1:8080/varroa-standin/agents/linux-agent-1"));
    assertThat(kept.path("known").asBoolean()).as("the agent's node kept").isTrue();
    assertThat(kept.path("secret").asText()).as("the agent's secret kept").isEqualTo(agent.path("secret").asText());
  }

  private Pod awaitReplaced(Pod before) {
    await("a new Jenkins pod Ready").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
      Pod now = client.pods().inNamespace("ci").withName(before.getMetadata().getName()).get();
      return now != null && !now.getMetadata().getUid().equals(before.getMetadata().getUid()) && VarroaRelease.ready(now);
    });
    awaitConnected();
    return sandboxPod();
  }

  private static JsonNode run(JsonNode status, String job) {
    return StreamSupport.stream(status.path("runs").spliterator(), false)
        .filter(r -> r.path("job").asText().equals(job)).reduce((first, second) -> second)
        .orElseThrow(() -> new AssertionError("the stand-in knows no run of " + job + ": " + status.path("runs")));
  }

  @Test
  @Order(7)
  void theLeaderKilledAnotherOperatorLeadsWithoutRewritingTheController() throws Exception {
    Map<String, String> versions = settledControllerObjectVersions();
    Pod leader = client.pods().inNamespace(NAMESPACE).withLabel(LeaderPodLabel.LABEL, "true").list().getItems().get(0);

    client.pods().inNamespace(NAMESPACE).withName(leader.getMetadata().getName()).withGracePeriod(0).delete();
    await("another operator pod leads").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() ->
        client.pods().inNamespace(NAMESPACE).withLabel(LeaderPodLabel.LABEL, "true").list().getItems().stream()
            .anyMatch(p -> !p.getMetadata().getName().equals(leader.getMetadata().getName())));
    // the new leader's first pass (its informers list every Controller at start) over a settled Controller writes
    // nothing: the Controller's objects keep their resourceVersions while it leads
    await("no write to ci/sandbox's objects under the new leader").during(Duration.ofSeconds(30))
        .atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofSeconds(1))
        .untilAsserted(() -> assertThat(controllerObjectVersions()).as("ci's objects: kind/name -> version")
            .isEqualTo(versions));
    awaitConnected();
    ControllerStatus status = client.resources(Controller.class).inNamespace("ci").withName("sandbox").get().getStatus();
    System.out.println("after the leader change: miteStatus.connected=" + status.miteStatus.connected + " conditions="
        + status.conditions.stream().map(c -> c.type + "=" + c.status + "/" + c.reason).toList());
  }

  @Test
  @Order(8)
  void theGatewayHoldingTheStreamKilledDuringABuildLosesNoEventAndDuplicatesNone() throws Exception {
    Pod jenkins = sandboxPod();
    String holder = streamHolder();
    JsonNode run = play(jenkins, "gateway-killed", 2000, 20);
    client.pods().inNamespace(NAMESPACE).withName(holder).withGracePeriod(0).delete();
    await("the mite's stream held by another gateway").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().until(() -> !streamHolder().equals(holder));

    assertArrivedOnceWhole("gateway-killed", run.path("runId").asText());
  }

  @Test
  @Order(9)
  void helmUpgradeToNewImagesRollsEveryComponentWithoutLosingAnEvent() throws Exception {
    NodeImages next = images.retagged(images.productTag() + "-next");
    Pod jenkins = sandboxPod();
    JsonNode run = play(jenkins, "upgraded", 3000, 40);

    // what a user runs for a release: the new image tag, every other value kept
    release.upgrade(List.of("image.tag=" + next.productTag()));
    await("every component on the new images, Ready").atMost(Duration.ofMinutes(6)).pollInterval(Duration.ofSeconds(2))
        .untilAsserted(() -> assertThat(componentImages()).as("the images of the Ready component pods")
            .allMatch(image -> !image.contains("/varroa/") || image.endsWith(":" + next.productTag()))
            .isNotEmpty());
    VarroaRelease.awaitPodsReady(client, NAMESPACE, NodeInstall.COMPONENT_PODS, Duration.ofMinutes(4));
    // the new operator renders the new mite image into the Controller's StatefulSet: a planned roll, drained
    await("the Jenkins pod's mite on the new image").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2))
        .until(() -> {
          Pod now = sandboxPod();
          return VarroaRelease.ready(now) && now.getSpec().getInitContainers().stream()
              .anyMatch(c -> c.getImage().equals(next.product("mite")));
        });
    awaitConnected();
    assertArrivedOnceWhole("upgraded", run.path("runId").asText());
  }

  /** The images of every container of the release's pods, each pod counted once it is Ready and not terminating. */
  private List<String> componentImages() {
    List<Pod> pods = client.pods().inNamespace(NAMESPACE).list().getItems();
    assertThat(pods).as("every pod of %s Ready", NAMESPACE).allMatch(VarroaRelease::ready);
    return pods.stream().flatMap(p -> p.getSpec().getContainers().stream()).map(c -> c.getImage()).toList();
  }

  /** The run reached the record store once, each stage once, finalized, and every byte of its log the blob store. */
  private void assertArrivedOnceWhole(String job, String runId) throws Exception {
    String postgres = TestServices.clusterIp(client, NAMESPACE, "varroa-test-postgres");
    await("the run of " + job + " finalized in PostgreSQL").atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions().untilAsserted(() ->
            assertThat(RecordStore.results(postgres, job)).containsExactly("SUCCESS"));
    JsonNode played = standInRun(sandboxPod(), runId);
    RecordStore.RunCounts counts = RecordStore.counts(postgres, job);
    assertThat(counts.runs()).as("one run row").isEqualTo(1);
    assertThat(counts.stages()).as("each stage once").isEqualTo(2);
    assertThat(counts.finalized()).as("finalized").isTrue();
    String s3 = TestServices.clusterIp(client, NAMESPACE, "varroa-test-s3");
    await("every log byte in the blob store").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions().untilAsserted(() -> assertThat(RecordStore.logBytes(s3, "ci", "sandbox", counts.runId())).isEqualTo(played.path("logBytes").asLong()));
  }

  private Pod sandboxPod() {
    return client.pods().inNamespace("ci").list().getItems().stream()
        .filter(p -> p.getMetadata().getName().startsWith("sandbox-")).findFirst().orElseThrow();
  }

  private String homeVolume() {
    return client.persistentVolumeClaims().inNamespace("ci").list().getItems().stream()
        .filter(c -> c.getMetadata().getName().startsWith("jenkins-home-sandbox-")).findFirst().orElseThrow()
        .getSpec().getVolumeName();
  }

  private void awaitConnected() {
    await("Controller ci/sandbox Connected").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1))
        .untilAsserted(() -> assertThat(client.resources(Controller.class).inNamespace("ci").withName("sandbox").get()
            .getStatus().phase).isEqualTo(ControllerStatus.Phase.Connected));
  }

  /** The gateway pod holding the mite's stream (status.miteStatus), once the mite is connected. */
  private String streamHolder() {
    return await("the mite of ci/sandbox connected to a gateway").atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
        .until(this::currentStreamHolder, h -> h != null);
  }

  private String currentStreamHolder() {
    ControllerStatus status = client.resources(Controller.class).inNamespace("ci").withName("sandbox").get()
        .getStatus();
    return status.miteStatus != null && Boolean.TRUE.equals(status.miteStatus.connected)
        ? status.miteStatus.gateway : null;
  }

  /**
   * The versions once nothing has written the Controller's objects for 10 s: the test before this one replaced the
   * Jenkins pod, and the leader may still be finishing its passes over that when the snapshot would be taken.
   */
  private Map<String, String> settledControllerObjectVersions() {
    AtomicReference<Map<String, String>> last = new AtomicReference<>(controllerObjectVersions());
    AtomicReference<Instant> since = new AtomicReference<>(Instant.now());
    await("ci/sandbox's objects settled").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> {
      Map<String, String> now = controllerObjectVersions();
      if (!now.equals(last.get())) {
        last.set(now);
        since.set(Instant.now());
      }
      return Duration.between(since.get(), Instant.now()).compareTo(Duration.ofSeconds(10)) >= 0;
    });
    return last.get();
  }

  private Map<String, String> controllerObjectVersions() {
    Map<String, String> versions = new TreeMap<>();
    // the StatefulSet by generation: its status (written by the StatefulSet controller as the pod settles after the
    // earlier restarts) moves its resourceVersion without anyone writing its spec
    client.apps().statefulSets().inNamespace("ci").list().getItems()
        .forEach(o -> versions.put("StatefulSet/" + name(o), "generation " + o.getMetadata().getGeneration()));
    client.services().inNamespace("ci").list().getItems()
        .forEach(o -> versions.put("Service/" + name(o), o.getMetadata().getResourceVersion()));
    client.configMaps().inNamespace("ci").list().getItems()
        .forEach(o -> versions.put("ConfigMap/" + name(o), o.getMetadata().getResourceVersion()));
    client.serviceAccounts().inNamespace("ci").list().getItems()
        .forEach(o -> versions.put("ServiceAccount/" + name(o), o.getMetadata().getResourceVersion()));
    return versions;
  }

  /** Plays a build in the stand-in (its loopback-only route, through a shell in the Jenkins container). */
  private JsonNode play(Pod jenkins, String job, int lines, int seconds) throws Exception {
    String answer = PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f", "-X", "POST",
        "http://127.0.0.1:8080/varroa-standin/builds?job=" + job + "&lines=" + lines + "&seconds=" + seconds);
    return JSON.readTree(answer);
  }

  private JsonNode standInStatus(Pod jenkins) throws Exception {
    return JSON.readTree(PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f",
        "http://127.0.0.1:8080/varroa-standin/api/json"));
  }

  private JsonNode standInRun(Pod jenkins, String runId) throws Exception {
    return JSON.readTree(PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS", "-f",
        "http://127.0.0.1:8080/varroa-standin/builds/" + runId));
  }
}

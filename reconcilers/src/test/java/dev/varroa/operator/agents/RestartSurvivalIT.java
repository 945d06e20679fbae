package dev.varroa.operator.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.render.KubernetesCloudFragment;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.testfixtures.jenkins.InboundAgent;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.kube.csi.CsiStandIn;
import dev.varroa.testfixtures.kube.job.JobStandIn;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seed 003 as one end-to-end test: a controller with a running agent pod and a build in progress loses its Jenkins
 * pod, and the agent survives — then the same after a restore from a snapshot and after a storage-class move. The
 * operator, gateway and a real mite per pod run for real on a real API server and NATS; the CSI driver, the Job
 * controller and the kubelet are played by stand-ins with a folder per volume; Jenkins is the contract fixture,
 * started on the JENKINS_HOME claim's folder, so what it keeps in nodes/ and secrets/ outlives its pod.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestartSurvivalIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final String NS = "ci";
  private static final String AGENTS = "ci-jobs";
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private KubernetesClient client;
  private CsiStandIn csi;
  private JobStandIn jobs;
  private Gateway gateway;
  private VarroaOperator operator;
  private JenkinsPods pods;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
    // made before the operator runs, so it carries the label Varroa's own agents namespaces have: else it is refused
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(AGENTS)
        .addToLabels(ControllerLabels.MANAGED_BY, ControllerLabels.MANAGED_BY_VALUE).endMetadata().build()).create();
    StarterProfile.install(client, null);
    csi = CsiStandIn.builder(client, dir.resolve("volumes")).storageClass("standard", "disk.csi.example.com")
        .storageClass("fast", "flash.csi.example.com").namespace(NS).start();
    jobs = JobStandIn.builder(client, csi).namespace(NS).scratch(dir.resolve("jobs")).start();
    Path caCert = dir.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, dir.resolve("ca.key"));
    // heartbeats carry the mite's observations: a short interval lets the backup see the finished build sooner
    gateway = Gateway.start(GatewaySettings.of("gw-1", NATS.server().url(), caCert, dir.resolve("ca.key"))
        .withListen("127.0.0.1", 0).withHeartbeatInterval(Duration.ofSeconds(2)));
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    operator = new VarroaOperator(client, OperatorSettings.defaults(dir.resolve("cache")), channel);
    // the plugin's own orphan timeout is 300 s; the test shortens the operator's grace, not its rule
    operator.controllers().withOrphanGrace(Duration.ofSeconds(3), Duration.ofSeconds(1));
    operator.start();
    pods = new JenkinsPods(client, NS, csi, dir.resolve("pods"));
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {pods, operator, gateway, jobs, csi}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void agentsSurviveAPodRestartARestoreAndAStorageClassMove() throws Exception {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: survivor, namespace: ci}
        spec:
          persistence: {storageClassName: standard}
          agents: {tunnel: websocket}
        """, Controller.class)).create();
    Controller survivor = awaitConnected("survivor", s -> true);
    String sts = survivor.getStatus().statefulSetName;
    String claim = "jenkins-home-" + sts + "-0";
    JenkinsFixture first = jenkins(sts);
    String secret = first.addAgent("maven-1");
    Pod agentPod = agentPod("maven-1", sts);
    RunningBuild build = first.startBuild("app", false);
    assertThat(build.jobName()).isEqualTo("app");
    String volume = csi.awaitBound(NS, claim).getSpec().getVolumeName();

    // 1. the Jenkins pod is deleted in the middle of the build; its agent pod is not
    String firstStream = survivor.getStatus().miteStatus.connectedAt;
    pods.deletePod(sts);
    agentPod("maven-gone", sts);
    Controller back = awaitConnected("survivor", s -> !first.equals(pods.jenkins(sts).orElse(first))
        && s.miteStatus != null && !firstStream.equals(s.miteStatus.connectedAt));
    JenkinsFixture second = jenkins(sts);
    assertThat(back.getStatus().statefulSetName).isEqualTo(sts);
    PersistentVolumeClaim same = client.persistentVolumeClaims().inNamespace(NS).withName(claim).get();
    assertThat(same.getSpec().getVolumeName()).as("the new pod's claim is the old volume").isEqualTo(volume);
    assertThat(csi.folder(NS, claim).resolve("nodes/maven-1/config.xml")).exists();
    assertThat(csi.folder(NS, claim).resolve("secrets")).isNotEmptyDirectory();
    assertThat(second.agents()).containsExactly("maven-1");
    assertThat(InboundAgent.connect(second.url(), "maven-1", secret).accepted()).isTrue();
    assertThat(InboundAgent.connect(second.url(), "maven-gone", secret).accepted()).isFalse();
    // the orphan collector removes the pod whose node is gone, and only it
    await().atMost(DEADLINE).until(() -> client.pods().inNamespace(AGENTS).withName("maven-gone").get() == null);
    assertThat(client.pods().inNamespace(AGENTS).withName("maven-1").get().getMetadata().getUid())
        .isEqualTo(agentPod.getMetadata().getUid());

    // 2. an on-demand backup waits in quiet-down for the running build, then a new Controller restores from it
    RunningBuild running = second.startBuild("app", false);
    annotate("survivor", ControllerAnnotations.BACKUP_NOW, "before-restore");
    await().atMost(DEADLINE).until(second::quietingDown);
    // the build still runs: the backup waits in quiet-down and takes no snapshot yet
    ControllerStatus waiting = awaitStatus("survivor", s -> s.backup != null && s.backup.inProgress != null);
    assertThat(waiting.backup.inProgress.step).isEqualTo("QuietingDown");
    running.finish();
    ControllerStatus backedUp = awaitStatus("survivor", s -> s.backup != null && s.backup.lastSuccessfulSnapshot != null);
    await().atMost(DEADLINE).until(() -> !second.quietingDown());
    String snapshot = backedUp.backup.lastSuccessfulSnapshot;

    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: restored, namespace: ci}
        spec:
          persistence: {storageClassName: standard}
          agents: {tunnel: websocket}
          restore: {volumeSnapshotName: %s}
        """.formatted(snapshot), Controller.class)).create();
    Controller restored = awaitConnected("restored", s -> s.home != null && snapshot.equals(s.home.restoredFrom));
    String restoredSts = restored.getStatus().statefulSetName;
    assertThat(csi.restoredFrom(NS, "jenkins-home-" + restoredSts + "-0")).contains(snapshot);
    JenkinsFixture fromBackup = jenkins(restoredSts);
    assertThat(fromBackup.agents()).as("nodes/ are there at first start").containsExactly("maven-1");
    assertThat(InboundAgent.connect(fromBackup.url(), "maven-1", secret).accepted())
        .as("the agent's secret holds: secrets/ came back before Jenkins started").isTrue();

    // 3. JENKINS_HOME moves to another storage class; the agent pod is kept and reconnects
    annotate("survivor", ControllerAnnotations.CONFIRM_HOME_MOVE, "fast");
    client.resources(Controller.class).inNamespace(NS).withName("survivor").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"persistence\":{\"storageClassName\":\"fast\"}}}");
    Controller moved = awaitConnected("survivor", s -> s.home != null && "fast".equals(s.home.storageClassName)
        && s.home.move == null);
    PersistentVolumeClaim onFast = client.persistentVolumeClaims().inNamespace(NS).withName(claim).get();
    assertThat(onFast.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(onFast.getSpec().getVolumeName()).isNotEqualTo(volume);
    assertThat(moved.getStatus().home.retainedVolumes).extracting(v -> v.volumeName).contains(volume);
    JenkinsFixture third = jenkins(sts);
    assertThat(third.agents()).containsExactly("maven-1");
    assertThat(InboundAgent.connect(third.url(), "maven-1", secret).accepted()).isTrue();
    assertThat(client.pods().inNamespace(AGENTS).withName("maven-1").get().getMetadata().getUid())
        .isEqualTo(agentPod.getMetadata().getUid());
  }

  /** An agent pod as the Kubernetes plugin starts it: in the agents namespace, with Varroa's cloud label. */
  private Pod agentPod(String name, String statefulSet) {
    return client.resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(AGENTS)
        .withLabels(Map.of(KubernetesCloudFragment.AGENT_OF_LABEL, statefulSet, "jenkins", "slave")).endMetadata()
        .withNewSpec().addNewContainer().withName("jnlp").withImage("jenkins/inbound-agent").endContainer().endSpec()
        .build()).create();
  }

  private JenkinsFixture jenkins(String statefulSet) {
    await().atMost(DEADLINE).until(() -> pods.jenkins(statefulSet).isPresent());
    return pods.jenkins(statefulSet).orElseThrow();
  }

  private void annotate(String name, String key, String value) {
    // a merge patch without resourceVersion: the operator writes status at the same time
    client.resources(Controller.class).inNamespace(NS).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"annotations\":{\"" + key + "\":\"" + value + "\"}}}");
  }

  private ControllerStatus status(String name) {
    return client.resources(Controller.class).inNamespace(NS).withName(name).get().getStatus();
  }

  private ControllerStatus awaitStatus(String name, Predicate<ControllerStatus> wanted) {
    await().atMost(DEADLINE).until(() -> {
      ControllerStatus status = status(name);
      return status != null && wanted.test(status);
    });
    return status(name);
  }

  private Controller awaitConnected(String name, Predicate<ControllerStatus> also) {
    awaitStatus(name, s -> s.phase == ControllerStatus.Phase.Connected && also.test(s));
    return client.resources(Controller.class).inNamespace(NS).withName(name).get();
  }
}

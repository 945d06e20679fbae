package dev.varroa.operator.brood;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.BroodOperation;
import dev.varroa.api.v1alpha1.BroodOperationStatus;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.operator.controller.ControllerActivity;
import dev.varroa.operator.controller.ControllerReconciler;
import dev.varroa.operator.controller.ControllerSettings;
import dev.varroa.operator.hibernation.InactivityPolicy;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.jenkins.RunningBuild;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A brood operation's safeRestart through the real control channel: a real gateway and NATS, a real mite next to the
 * Jenkins contract fixture (PodPlayer), the operator's Controller and BroodOperation reconcilers. Jenkins quiets down,
 * the running build is waited for, Jenkins' own safe restart happens once, and the step ends when the mite sees
 * Jenkins answer again (jenkins_up_since). The mite observes Jenkins every second here (the gateway's heartbeat
 * interval, 15 s in production), so the steps see each change quickly.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BroodWithMiteIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final String NAMESPACE = "brood-mite";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private Gateway gateway;
  private ControlChannel channel;
  private Operator operator;
  private SharedIndexInformer<Controller> controllers;
  private Path work;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    work = dir;
    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    Path caCert = dir.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, dir.resolve("ca.key"));
    gateway = Gateway.start(GatewaySettings.of("gw-1", NATS.server().url(), caCert, dir.resolve("ca.key"))
        .withListen("127.0.0.1", 0).withHeartbeatInterval(Duration.ofSeconds(1)));
    channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:" + gateway.port(), ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    controllers = client.resources(Controller.class).inAnyNamespace().inform();
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(Clock.systemUTC()));
    operator.register(new ControllerReconciler(Clock.systemUTC(), ControllerSettings.defaults(), channel,
        new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)),
        (controller, zone, after) -> new InactivityPolicy.Timers.Known(Optional.empty())));
    operator.register(new BroodOperationReconciler(Clock.systemUTC(), () -> GatewaySettings.DEFAULT_CLUSTER_NAME,
        controllers.getStore()::list, new TargetStepExecutor(client, (ns, name) -> Optional.ofNullable(
            controllers.getStore().getByKey(ns + "/" + name)), JenkinsOfController.of(channel), Clock.systemUTC())));
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (operator != null) {
      operator.stop();
    }
    if (controllers != null) {
      controllers.close();
    }
    if (channel != null) {
      channel.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void safeRestartQuietsJenkinsWaitsForTheBuildAndRestartsItOnce(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: app, namespace: %s, labels: {restart: weekly}}
        spec: {}
        """.formatted(NAMESPACE), Controller.class)).create();
    PodPlayer pod = new PodPlayer(client, controller, work.resolve("pod"));
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.inProcess(), p -> { });
    try {
      JenkinsFixture jenkins = pod.jenkins();
      await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE).withName("app")
          .get().getStatus(), s -> s != null && s.phase == ControllerStatus.Phase.Connected);
      RunningBuild build = jenkins.startBuild("nightly", true);

      client.resource(YAML.unmarshal("""
          apiVersion: varroa.dev/v1alpha1
          kind: BroodOperation
          metadata: {name: restart, namespace: %s}
          spec:
            targets: {selector: {matchLabels: {restart: weekly}}}
            steps: [{type: safeRestart}]
          """.formatted(NAMESPACE), BroodOperation.class)).create();

      awaitStatus(client, s -> !s.targets.isEmpty() && s.targets.get(0).message != null
          && s.targets.get(0).message.contains("1 running build(s)"));
      assertThat(jenkins.quietingDown()).as("quiet-down asked through the mite").isTrue();
      assertThat(jenkins.restarts()).as("no restart while the build runs").isZero();

      build.finish();
      BroodOperationStatus done = awaitStatus(client, s -> s.phase == BroodOperationStatus.Phase.Succeeded);
      assertThat(done.targets.get(0).steps.get(0).message).startsWith("Jenkins restarted");
      assertThat(jenkins.restarts()).isEqualTo(1);
      assertThat(jenkins.quietingDown()).as("a restarted Jenkins is not quiet").isFalse();
    } finally {
      pod.close();
    }
  }

  private static BroodOperationStatus awaitStatus(KubernetesClient client, Predicate<BroodOperationStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(BroodOperation.class).inNamespace(NAMESPACE)
        .withName("restart").get().getStatus(), s -> s != null && wanted.test(s));
  }
}

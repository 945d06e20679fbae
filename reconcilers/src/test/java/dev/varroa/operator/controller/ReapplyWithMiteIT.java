package dev.varroa.operator.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.operator.hibernation.InactivityPolicy;
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.jenkins.AppliedConfiguration;
import dev.varroa.testfixtures.jenkins.JenkinsFixture;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * varroa.dev/reapply reaches Jenkins through the real control channel: a real gateway and NATS, a real mite next to
 * the Jenkins contract fixture (PodPlayer), the operator's reconciler. The fixture records each configuration-as-code
 * reload, so a reapply of the state the mite already holds shows as one more reload, answered in
 * status.lastApplyResult.trigger.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReapplyWithMiteIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String NAMESPACE = "mite-reapply";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private Gateway gateway;
  private ControlChannel channel;
  private Operator operator;
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
        .withListen("127.0.0.1", 0));
    channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:" + gateway.port(), ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(Clock.systemUTC()));
    operator.register(new ControllerReconciler(Clock.systemUTC(), ControllerSettings.defaults(), channel,
        new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)),
        (controller, zone, after) -> new InactivityPolicy.Timers.Known(Optional.empty())));
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (operator != null) {
      operator.stop();
    }
    if (channel != null) {
      channel.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void aReapplyValueReloadsTheConfigurationJenkinsAlreadyHasOnce(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: app, namespace: %s}
        spec: {}
        """.formatted(NAMESPACE), Controller.class)).create();
    PodPlayer pod = new PodPlayer(client, controller, work.resolve("pod"));
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.inProcess(), p -> { });
    try {
      JenkinsFixture jenkins = pod.jenkins();
      ControllerStatus applied = awaitStatus(client, s -> s.phase == ControllerStatus.Phase.Connected
          && s.lastApplyResult != null && Boolean.TRUE.equals(s.lastApplyResult.succeeded));
      assertThat(applied.lastApplyResult.trigger).isNull();
      int before = jenkins.appliedConfigurations().size();

      client.resources(Controller.class).inNamespace(NAMESPACE).withName("app").patch(
          PatchContext.of(PatchType.JSON_MERGE),
          "{\"metadata\":{\"annotations\":{\"" + ControllerAnnotations.REAPPLY + "\":\"drift-1\"}}}");

      ControllerStatus reapplied = awaitStatus(client, s -> s.lastApplyResult != null
          && "drift-1".equals(s.lastApplyResult.trigger));
      assertThat(reapplied.lastApplyResult.succeeded).isTrue();
      assertThat(reapplied.lastApplyResult.bundleDigest).isEqualTo(applied.lastApplyResult.bundleDigest);
      List<AppliedConfiguration> reloads = jenkins.appliedConfigurations();
      assertThat(reloads).as("one reload of the configuration Jenkins already had").hasSize(before + 1);
      assertThat(reloads.get(reloads.size() - 1).trigger()).isNotEqualTo(JenkinsFixture.BOOT_TRIGGER);
    } finally {
      pod.close();
    }
  }

  private static ControllerStatus awaitStatus(KubernetesClient client, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName("app").get().getStatus(), s -> s != null && wanted.test(s));
  }
}

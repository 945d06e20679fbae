package dev.varroa.operator.hibernation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.controller.ControllerSettings;
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
import dev.varroa.operator.profile.JenkinsVersionProfileReconciler;
import dev.varroa.protocol.bus.ActivityPublisher;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.jenkins.ReceivedDelivery;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.javaoperatorsdk.operator.Operator;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
 * A webhook kept while a controller was parked reaches Jenkins through the real control channel: a real gateway and
 * NATS, a real mite next to the Jenkins contract fixture (PodPlayer), the operator's reconciler and waker. The
 * fixture records the replayed delivery as Jenkins would receive it, byte for byte, without the mite's bearer token.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HibernationWithMiteIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final String NAMESPACE = "mite-hibernation";
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final MovableClock clock = new MovableClock();
  private Gateway gateway;
  private Waker waker;
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
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    waker = Waker.start(client, 0, HibernationSettings.withoutWakerService(), clock);
    operator = new Operator(o -> o.withKubernetesClient(client).withCloseClientOnStop(false));
    operator.register(new JenkinsVersionProfileReconciler(clock));
    operator.register(new ControllerReconciler(clock, ControllerSettings.defaults(), channel,
        new ControllerActivity(ActivityPublisher.withoutBus("core", ControllerReconciler.ACTOR)),
        (controller, zone, after) -> new InactivityPolicy.Timers.Known(Optional.empty())));
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    if (operator != null) {
      operator.stop();
    }
    if (waker != null) {
      waker.close();
    }
    if (gateway != null) {
      gateway.close();
    }
  }

  @Test
  void aWebhookKeptWhileParkedIsReplayedToJenkinsByTheMite(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: app, namespace: %s}
        spec: {hibernation: {idleMinutes: 30}}
        """.formatted(NAMESPACE), Controller.class)).create();
    String service = "app-" + controller.getMetadata().getUid().substring(0, 8);
    Path podRoot = work.resolve("pod");
    PodPlayer first = new PodPlayer(client, controller, podRoot);
    await().atMost(DEADLINE).until(first::podCanStart);
    first.start(PodPlayer.MiteRunner.inProcess(), pod -> { });
    awaitStatus(client, s -> s.phase == ControllerStatus.Phase.Connected);

    // idle for longer than 30 minutes; a label change starts the pass that sees it
    clock.advance(Duration.ofMinutes(31));
    // a merge patch without resourceVersion: the operator writes status at the same time
    client.resources(Controller.class).inNamespace(NAMESPACE).withName("app").patch(
        io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
        "{\"metadata\":{\"labels\":{\"idle\":\"checked\"}}}");
    awaitStatus(client, s -> s.phase == ControllerStatus.Phase.Hibernated);
    await().atMost(DEADLINE).until(() -> client.apps().statefulSets().inNamespace(NAMESPACE).withName(service).get()
        .getSpec().getReplicas() == 0);
    first.close();
    client.pods().inNamespace(NAMESPACE).withName(service + "-0").withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> client.pods().inNamespace(NAMESPACE).withName(service + "-0").get() == null);

    byte[] push = "{\"ref\":\"refs/heads/main\",\"after\":\"9f1c\"}".getBytes(StandardCharsets.UTF_8);
    String answer = post(service + "." + NAMESPACE + ".svc", "/github-webhook/?source=gh", push);
    assertThat(answer).startsWith("HTTP/1.1 202");
    awaitStatus(client, s -> s.hibernation.since == null && "webhook".equals(s.hibernation.lastWakeSource));

    PodPlayer second = new PodPlayer(client, controller, podRoot);
    await().atMost(DEADLINE).until(() -> client.apps().statefulSets().inNamespace(NAMESPACE).withName(service).get()
        .getSpec().getReplicas() == 1 && second.podCanStart());
    second.start(PodPlayer.MiteRunner.inProcess(), pod -> { });
    try {
      ReceivedDelivery delivery = await().atMost(DEADLINE).until(() -> second.jenkins().deliveries().stream()
          .filter(d -> d.path().equals("/github-webhook/")).findFirst(), Optional::isPresent).orElseThrow();

      assertThat(delivery.method()).isEqualTo("POST");
      assertThat(delivery.query()).isEqualTo("source=gh");
      assertThat(delivery.body()).isEqualTo(push);
      assertThat(delivery.header("X-GitHub-Event")).contains("push");
      assertThat(delivery.header("X-Hub-Signature-256")).contains("sha256=4a1f");
      assertThat(delivery.caller()).as("replayed as its sender sent it, not as the mite").isEqualTo(Caller.ANONYMOUS);
      awaitStatus(client, s -> s.phase == ControllerStatus.Phase.Connected && s.hibernation.pendingDeliveries == null);
      await().atMost(DEADLINE).until(() -> client.secrets().inNamespace(NAMESPACE)
          .withLabel(WakeRequests.KIND_LABEL).list().getItems().isEmpty());
    } finally {
      second.close();
    }
  }

  private String post(String host, String path, byte[] body) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", waker.port())) {
      socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\nX-GitHub-Event: push\r\n"
          + "X-Hub-Signature-256: sha256=4a1f\r\nContent-Type: application/json\r\nContent-Length: " + body.length
          + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      socket.getOutputStream().write(body);
      socket.getOutputStream().flush();
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Controller awaitStatus(KubernetesClient client, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName("app").get(), c -> c.getStatus() != null && c.getStatus().hibernation != null
        && wanted.test(c.getStatus()));
  }
}

package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.testfixtures.jenkins.Caller;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.KeyValue;
import java.io.ByteArrayOutputStream;
import org.apache.commons.io.output.TeeOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole control channel: the operator on a real API server, a real gateway and NATS, a real mite
 * next to the Jenkins contract fixture. A Controller reaches Connected with its JCasC and secret files
 * applied; Jenkins' refusal shows in status; a lost stream says StreamLost; no credential leaks.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlChannelIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String SECRET_VALUE = "ghp_it-credential-never-stored-0xC0FFEE";
  private static final ByteArrayOutputStream LOG = new ByteArrayOutputStream();
  private static final List<PodPlayer> PODS = new ArrayList<>();
  private static PrintStream originalErr;
  private static PrintStream originalOut;
  private static Gateway gateway;
  private static VarroaOperator operator;
  private static Path work;

  /**
   * The NATS the gateway and the operator meet on; a subclass brings the chart's (TLS, users, permissions).
   *
   * @param cluster the cluster name the operator and the gateway serve (the chart's cluster.name)
   */
  protected record Bus(String url, Path storeDirectory, ConnectionSource operator, UnaryOperator<GatewaySettings> gateway,
      String cluster) {}

  /** Opens the operator's connection to the bus. */
  @FunctionalInterface
  protected interface ConnectionSource {
    Connection open() throws Exception;
  }

  protected Bus bus(KubeApiServer kube, Path dir) throws Exception {
    return new Bus(NATS.server().url(), NATS.server().storeDirectory(), () -> NATS.server().connect(), s -> s,
        GatewaySettings.DEFAULT_CLUSTER_NAME);
  }

  private static Bus bus;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    work = dir;
    originalErr = System.err;
    originalOut = System.out;
    // every component logs to the console (the mite's logger configuration picks stdout): keep a copy to scan
    System.setErr(new PrintStream(new TeeOutputStream(originalErr, LOG), true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new TeeOutputStream(originalOut, LOG), true, StandardCharsets.UTF_8));
    KubernetesClient client = kube.client();
    // applied, not created: a create the client retries after a slow answer (a loaded API server) finds its own object
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build())
        .serverSideApply();
    StarterProfile.install(client, null);
    client.resource(new SecretBuilder().withNewMetadata().withName("team-a-github").withNamespace("ci").endMetadata()
        .withStringData(Map.of("token", SECRET_VALUE)).build()).serverSideApply();
    Path caCert = dir.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, dir.resolve("ca.key"));
    bus = bus(kube, dir);
    gateway = Gateway.start(bus.gateway().apply(GatewaySettings.of("gw-1", bus.url(), caCert, dir.resolve("ca.key"))
        .withListen("127.0.0.1", 0).withClusterName(bus.cluster())));
    ControlChannel channel = new ControlChannel(bus.operator().open(), bus.cluster(), "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    operator = new VarroaOperator(client, OperatorSettings.defaults(dir.resolve("cache")), channel);
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    for (PodPlayer pod : PODS) {
      pod.close();
    }
    if (operator != null) {
      operator.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    System.setErr(originalErr);
    System.setOut(originalOut);
  }

  @Test
  void controllerReachesConnectedWithJcascAndSecretFilesApplied(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    PodPlayer pod = play(client, controller(client, "sandbox"), p -> { });

    Controller connected = awaitStatus(client, "sandbox", s -> s.phase == ControllerStatus.Phase.Connected
        && s.lastApplyResult != null && Boolean.TRUE.equals(s.lastApplyResult.succeeded));

    assertThat(connected.getStatus().attention).isNull();
    assertThat(connected.getStatus().condition(Condition.MITE_CONNECTED)).get()
        .satisfies(c -> assertThat(c.status).isEqualTo(Condition.Status.True));
    assertThat(connected.getStatus().miteStatus.gateway).isEqualTo("gw-1");
    assertThat(connected.getStatus().miteStatus.certificateNotAfter).isNotNull();
    assertThat(connected.getStatus().lastApplyResult.bundleDigest).startsWith("sha256:");
    assertThat(pod.jenkins().lastAppliedConfiguration()).get()
        .satisfies(applied -> assertThat(applied.sources()).extracting(s -> Path.of(s.origin()).getFileName().toString())
            .contains("jcasc.yaml", "varroa-cloud.yaml", "varroa-security.yaml"));
    assertThat(pod.jenkins().requests()).filteredOn(r -> r.path().startsWith("/configuration-as-code/reload"))
        .isNotEmpty().allSatisfy(r -> assertThat(r.caller()).isEqualTo(Caller.VERIFIED_BEARER));
    Path secretFile = pod.secretsDirectory().resolve("GITHUB_TOKEN");
    assertThat(Files.readString(secretFile)).isEqualTo(SECRET_VALUE);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(secretFile))).isEqualTo("r--------");
    await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace("ci").withName("sandbox").get()
        .getStatus().miteStatus.jenkinsVersion != null);
  }

  @Test
  void aRotatedSecretValueReachesJenkinsAtOnce(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    client.resource(new SecretBuilder().withNewMetadata().withName("rotating").withNamespace("ci").endMetadata()
        .withStringData(Map.of("token", "first-value")).build()).create();
    PodPlayer pod = play(client, client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: rotating, namespace: ci}
        spec:
          secrets:
            - {name: ROTATING_TOKEN, secretKeyRef: {name: rotating, key: token}}
        """, Controller.class)).create(), p -> { });
    Path secretFile = pod.secretsDirectory().resolve("ROTATING_TOKEN");
    await().atMost(DEADLINE).until(() -> Files.exists(secretFile) && Files.readString(secretFile).equals("first-value"));

    client.secrets().inNamespace("ci").withName("rotating").edit(s -> new SecretBuilder(s).withData(null)
        .withStringData(Map.of("token", "second-value")).build());

    // Secrets are watched: nothing periodic is due for minutes, the watch brings the new value
    await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(secretFile).equals("second-value"));
  }

  @Test
  void jenkinsRefusingTheConfigurationShowsAsApplyFailedWithItsMessage(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    play(client, controller(client, "refused"),
        p -> p.jenkins().rejectConfiguration("No configurator for the following root elements: unclassified.bogus"));

    Controller refused = awaitStatus(client, "refused", s -> s.lastApplyResult != null
        && Boolean.FALSE.equals(s.lastApplyResult.succeeded));

    assertThat(refused.getStatus().lastApplyResult.message).contains("No configurator for the following root elements");
    assertThat(refused.getStatus().attention).isEqualTo("Apply failed");
  }

  @Test
  void aLostStreamKeepsThePodAndSaysStreamLost(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    PodPlayer pod = play(client, controller(client, "lost"), p -> { });
    awaitStatus(client, "lost", s -> s.phase == ControllerStatus.Phase.Connected);

    pod.stopMite();

    Controller lost = awaitStatus(client, "lost", s -> s.phase == ControllerStatus.Phase.Running
        && s.condition(Condition.MITE_CONNECTED).map(c -> Condition.REASON_STREAM_LOST.equals(c.reason)).orElse(false));
    assertThat(lost.getStatus().attention).isEqualTo("Mite unreachable");
    assertThat(lost.getStatus().miteStatus.connected).isFalse();
    assertThat(client.pods().inNamespace("ci").withName(pod.pod().getMetadata().getName()).get()).isNotNull();
  }

  @Test
  void noCredentialValueReachesJetStreamConfigMapsStatusesEventsOrLogs(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    play(client, controller(client, "scanned"), p -> { });
    awaitStatus(client, "scanned", s -> s.lastApplyResult != null && Boolean.TRUE.equals(s.lastApplyResult.succeeded));

    byte[] needle = SECRET_VALUE.getBytes(StandardCharsets.UTF_8);
    assertThat(filesContaining(bus.storeDirectory(), needle)).isEmpty();
    assertThat(YAML.asYaml(client.configMaps().inAnyNamespace().list())).doesNotContain(SECRET_VALUE);
    assertThat(YAML.asYaml(client.resources(Controller.class).inAnyNamespace().list())).doesNotContain(SECRET_VALUE);
    assertThat(YAML.asYaml(client.v1().events().inAnyNamespace().list())).doesNotContain(SECRET_VALUE);
    assertThat(LOG.toString(StandardCharsets.UTF_8)).contains("event=desired_state_push").doesNotContain(SECRET_VALUE);
  }

  @Test
  void aDeletedControllersMiteIsRefusedWithItsStillValidCertificate(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller controller = controller(client, "deleted");
    PodPlayer pod = play(client, controller, p -> { });
    awaitStatus(client, "deleted", s -> s.phase == ControllerStatus.Phase.Connected);
    String key = BusNames.liveControllerKey(bus.cluster(), new ControllerIdentity("ci", "deleted",
        controller.getMetadata().getUid()));
    try (Connection nats = bus.operator().open()) {
      KeyValue live = nats.keyValue(BusNames.LIVE_CONTROLLERS_BUCKET);
      assertThat(new String(live.get(key).getValue(), StandardCharsets.UTF_8)).isEqualTo(controller.getMetadata().getUid());

      client.resources(Controller.class).inNamespace("ci").withName("deleted").delete();
      await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace("ci").withName("deleted")
          .get() == null);
      await().atMost(DEADLINE).until(() -> live.get(key) == null);
    }

    // the pod outlives its Controller here (no garbage collector runs): its mite restarts with the same certificate
    pod.restartMite();

    await().atMost(DEADLINE).until(() -> LOG.toString(StandardCharsets.UTF_8).lines().anyMatch(line ->
        line.contains("event=stream_refused") && line.contains("controller=ci.deleted")
            && line.contains("status=PERMISSION_DENIED") && line.contains("CONTROLLER_GONE")));
  }

  private static PodPlayer play(KubernetesClient client, Controller controller, PodPlayer.BeforeMite setup) throws Exception {
    PodPlayer pod = new PodPlayer(client, controller, work.resolve("pods").resolve(controller.getMetadata().getName()));
    PODS.add(pod);
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.inProcess(), setup);
    return pod;
  }

  private static Controller controller(KubernetesClient client, String name) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: ci}
        spec:
          secrets:
            - {name: GITHUB_TOKEN, secretKeyRef: {name: team-a-github, key: token}}
        """.formatted(name), Controller.class)).create();
  }

  private static Controller awaitStatus(KubernetesClient client, String name, Predicate<ControllerStatus> wanted) {
    await().atMost(DEADLINE).until(() -> {
      Controller c = client.resources(Controller.class).inNamespace("ci").withName(name).get();
      return c.getStatus() != null && wanted.test(c.getStatus());
    });
    return client.resources(Controller.class).inNamespace("ci").withName(name).get();
  }

  private static List<Path> filesContaining(Path directory, byte[] needle) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).filter(f -> contains(f, needle)).toList();
    }
  }

  private static boolean contains(Path file, byte[] needle) {
    try {
      byte[] content = Files.readAllBytes(file);
      for (int i = 0; i + needle.length <= content.length; i++) {
        if (java.util.Arrays.equals(content, i, i + needle.length, needle, 0, needle.length)) {
          return true;
        }
      }
      return false;
    } catch (IOException vanished) {
      // nats-server compacts and removes block files while they are read
      return false;
    }
  }

}

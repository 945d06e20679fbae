package dev.varroa.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.operator.controller.ControllerManifests;
import dev.varroa.operator.demo.BuildRecordsCheck;
import dev.varroa.operator.demo.PlayedBuild;
import dev.varroa.operator.install.ChartCoreNats;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.BusTopology;
import dev.varroa.protocol.bus.v1.ClusterPresence;
import dev.varroa.protocol.bus.v1.ControllerRow;
import dev.varroa.protocol.bus.v1.ControllerRows;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.retention.RetentionRules;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.KubeApiServerExtension;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerExtension;
import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Connection;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two clusters, each on its own real API server: the core (its NATS with JetStream and TLS as the chart renders it
 * for one member, its recorder with PostgreSQL and the s3 blob store) and a member installed from values-hive.yaml,
 * whose operator and gateway run as their own JVMs with the rendered environment and the Secret copied from the core.
 * A Controller on the member connects through the member's gateway and a mite, and its build reaches the core's
 * records; the core's registry lists the member, names it unavailable while its operator is down, and lists it
 * again once a new replica runs.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MemberClusterIT {
  @RegisterExtension
  static final KubeApiServerExtension MEMBER_API = KubeApiServerExtension.another("member");
  @RegisterExtension
  static final PostgresServerExtension POSTGRES = new PostgresServerExtension();
  @RegisterExtension
  static final S3ServerExtension S3 = new S3ServerExtension();

  private static final String MEMBER = "member-eu1";
  private static final String CORE_NAMESPACE = "varroa-system";
  private static final Duration DEADLINE = Duration.ofMinutes(3);
  /** docs/dashboard.md: a cluster whose operator refreshed its entry within two beacon intervals is healthy. */
  private static final Duration HEALTHY_WITHIN = ClusterBeacon.REFRESH_INTERVAL.multipliedBy(2);
  /** How long the BFF waits for a cluster's controller list before it names the cluster "list unavailable". */
  private static final Duration LIST_WAIT = Duration.ofSeconds(2);

  private ChartCoreNats nats;
  private Recorder recorder;
  private LogStore blobs;
  private HiveMember member;
  private PodPlayer pod;
  private PluginCore plugin;
  private Connection bff;
  private Path work;
  private dev.varroa.testfixtures.helm.HelmChart.Result dryRun;

  @BeforeAll
  void startTheCoreAndTheMember(KubeApiServer core, @TempDir Path dir) throws Exception {
    work = dir;
    nats = ChartCoreNats.start(core.client(), CORE_NAMESPACE, List.of(MEMBER), dir.resolve("core-nats"));
    // the streams, as the core's operator makes them at its start
    try (Connection coreOperator = nats.connect("operator", InstallationSecrets.KEY_OPERATOR_PASSWORD)) {
      BusTopology.ensure(coreOperator);
    }
    S3Server s3 = S3.server();
    Path blobCredentials = Files.createDirectories(dir.resolve("core-blob-credentials"));
    Files.writeString(blobCredentials.resolve("access-key-id"), s3.accessKeyId());
    Files.writeString(blobCredentials.resolve("secret-access-key"), s3.secretAccessKey());
    blobs = LogStores.open(BlobStoreSettings.s3(s3.bucketUrl(), s3.region(), blobCredentials), "varroa-recorder")
        .orElseThrow();
    PostgresServer postgres = POSTGRES.server();
    Path recorderPassword = Files.writeString(dir.resolve("recorder-password"),
        nats.password(InstallationSecrets.KEY_RECORDER_PASSWORD));
    Path natsCa = Files.writeString(dir.resolve("nats-ca.crt"), nats.caPem());
    recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(), nats.url())
        .withHealthPort(0).withNatsCredentials("recorder", recorderPassword, natsCa), RetentionRules.defaults(),
        Optional.of(blobs));
    bff = nats.connect("dashboard", InstallationSecrets.KEY_BFF_PASSWORD);

    KubernetesClient memberClient = MEMBER_API.server().client();
    member = HiveMember.install(memberClient, MEMBER_API.server().kubeconfigYaml(), MEMBER,
        "tls://127.0.0.1:" + nats.port(), core.client().secrets().inNamespace(CORE_NAMESPACE)
            .withName(InstallationSecrets.NATS_MEMBER_CREDS_PREFIX + MEMBER).get(), HiveMember.Blobs.of(s3),
        dir.resolve("member"));
    dryRun = member.helmInstallDryRun();
    member.startOperator();
    await().atMost(DEADLINE).until(() -> memberClient.secrets().inNamespace(HiveMember.NAMESPACE)
        .withName(InstallationSecrets.CA_SECRET).get() != null);
    member.startGateway();
  }

  @AfterAll
  void theMembersOperatorWasNeverForbiddenAnythingThenStop() throws Exception {
    try {
      if (member != null) {
        assertThat(member.operatorLogs()).as("the member operator's requests under the hive render's RBAC, as "
            + HiveMember.serviceAccountUser("varroa-operator")).doesNotContainIgnoringCase("forbidden")
            .contains("event=operator_started");
      }
    } finally {
      for (AutoCloseable running : new AutoCloseable[] {plugin, pod, member, bff, recorder, nats}) {
        if (running != null) {
          running.close();
        }
      }
      keepLogs();
    }
  }

  /** The processes' logs, kept beside the test reports: the temporary folder goes with the class. */
  private void keepLogs() throws java.io.IOException {
    Path kept = Files.createDirectories(Path.of("target", "member-cluster-it"));
    try (var old = Files.list(kept)) {
      for (Path file : old.toList()) {
        Files.delete(file);
      }
    }
    try (var files = Files.walk(work)) {
      for (Path log : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        Files.copy(log, kept.resolve(work.relativize(log).toString().replace('/', '_')),
            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  @Test
  @Order(0)
  void helmInstallsTheMembersValuesWithServerDryRunOnTheMembersApiServer() {
    assertThat(dryRun.succeeded()).as(dryRun.output()).isTrue();
    assertThat(dryRun.output()).contains("STATUS: pending-install", "name: VARROA_INSTALL_MODE", "value: hive")
        .doesNotContain("PodSecurity");
  }

  @Test
  @Order(1)
  void aControllerOnTheMemberConnectsThroughItsGatewayAndItsBuildReachesTheCoresRecords() throws Exception {
    KubernetesClient client = MEMBER_API.server().client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("ci").endMetadata().build())
        .create();
    StarterProfile.install(client, null);
    Controller controller = ControllerManifests.create(client, "ci", "orders", "{}");
    pod = new PodPlayer(client, controller, work.resolve("pods").resolve("orders"));
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.process(System.getProperty("java.class.path"), work.resolve("mite-orders.log")),
        p -> { });
    await("orders on the member is Connected with its desired state applied").atMost(DEADLINE).until(() -> {
      ControllerStatus status = client.resources(Controller.class).inNamespace("ci").withName("orders").get()
          .getStatus();
      return status != null && status.phase == ControllerStatus.Phase.Connected && status.lastApplyResult != null
          && Boolean.TRUE.equals(status.lastApplyResult.succeeded);
    });

    Path jenkinsHome = work.resolve("pods").resolve("orders").resolve("jenkins-home");
    plugin = PluginCore.start(PluginSettings.fromEnvironment(Map.of(
        PluginSettings.LOOPBACK_URL_VARIABLE, pod.loopbackUrl(),
        PluginSettings.TOKEN_FILE_VARIABLE, pod.loopbackTokenFile().toString())), jenkinsHome, Clock.systemUTC());
    PlayedBuild.Played build = PlayedBuild.play(plugin, jenkinsHome, "member/orders/main", 1);

    // the run, its stages, tests and activity in the core's PostgreSQL under the member's name, the whole log in s3
    assertThat(new BuildRecordsCheck(POSTGRES.server(), blobs, MEMBER).await(List.of("ci/orders"), List.of(build),
        DEADLINE)).isNull();
    assertThat(Files.readString(member.gatewayLog())).contains("gateway log writer enabled");
    assertThat(nats.log()).as("the member's users did only what they may").doesNotContain("Violation");
  }

  @Test
  @Order(2)
  void theCoresRegistryNamesTheMemberUnavailableWhileItsOperatorIsDownAndListsItAgainOnceItRuns() throws Exception {
    ClusterPresence listed = await("the member in the core's registry").atMost(DEADLINE).ignoreExceptions()
        .until(() -> presence(MEMBER), p -> p != null);
    assertThat(listed.getRole()).isEqualTo(ClusterRole.MEMBER.value());
    assertThat(controllerList(MEMBER)).isPresent();

    member.killOperator();
    Instant killed = Instant.now();
    // what the BFF shows: no list within its wait ("list unavailable"), and unhealthy once the entry is too old
    assertThat(controllerList(MEMBER)).as("list unavailable").isEmpty();
    await("the member's entry ages past the healthy window").atMost(HEALTHY_WITHIN.plus(ClusterBeacon.REFRESH_INTERVAL))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> age(presence(MEMBER)).compareTo(HEALTHY_WITHIN) > 0);
    assertThat(Duration.between(killed, Instant.now())).isLessThanOrEqualTo(HEALTHY_WITHIN.plus(
        ClusterBeacon.REFRESH_INTERVAL));

    member.startOperator();
    await("the member is healthy and answers again").atMost(DEADLINE).ignoreExceptions()
        .until(() -> age(presence(MEMBER)).compareTo(HEALTHY_WITHIN) <= 0 && controllerList(MEMBER).isPresent());
    assertThat(controllerList(MEMBER).orElseThrow().getRowsList()).extracting(ControllerRow::getName)
        .containsExactly("orders");
  }

  /** The member's entry in varroa_clusters as the BFF reads it; null when there is none. */
  private ClusterPresence presence(String cluster) throws Exception {
    KeyValueEntry entry = bff.keyValue(BusNames.CLUSTERS_BUCKET).get(BusNames.token(cluster));
    return entry == null || entry.getValue() == null ? null : ClusterPresence.parseFrom(entry.getValue());
  }

  private static Duration age(ClusterPresence presence) {
    return Duration.ofMillis(Math.max(0, Instant.now().toEpochMilli() - presence.getRefreshedAtEpochMillis()));
  }

  /** The cluster's controller rows as the BFF asks for them; empty when no answer came within its wait. */
  private Optional<ControllerRows> controllerList(String cluster) throws Exception {
    try {
      Message reply = bff.requestWithTimeout(BusNames.clusterControllers(cluster), new byte[0], LIST_WAIT)
          .get(LIST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      return Optional.of(ControllerRows.parseFrom(reply.getData()));
    } catch (ExecutionException | java.util.concurrent.TimeoutException | java.util.concurrent.CancellationException e) {
      return Optional.empty();
    }
  }
}

package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.Team;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.render.PluginsConfigMapRenderer;
import dev.varroa.operator.render.TeamFoldersFragment;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.ControllerIdentity;
import dev.varroa.protocol.bus.v1.GatewayCommand;
import dev.varroa.protocol.bus.v1.MiteRoute;
import dev.varroa.protocol.mite.v1.Command;
import dev.varroa.protocol.mite.v1.File;
import dev.varroa.protocol.seal.OpeningKey;
import dev.varroa.protocol.seal.SealedCommands;
import dev.varroa.protocol.seal.SealingCertificate;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.nats.client.Connection;
import io.nats.client.Dispatcher;
import io.nats.client.Message;
import io.nats.client.api.KeyValueEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.commons.io.output.TeeOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cell's generated layer and tenant credentials (docs/cells.md) end to end: a real API server, nats-server, gateway
 * and operator, and the mite as its own process in a played pod. A cell Controller hosting Teams alpha and beta gets a
 * folder per Team in its JCasC and the pool's plugins; each Team credential's value reaches the mite's secret folder
 * inside the sealed part of the desired state only (not the ConfigMaps, status, NATS in clear, JetStream or any log);
 * a change of a Team, or of a credential's Secret, reaches the cell at once. A Team with two pipelines of one name
 * blocks its cell, naming the Team, the field and the fix. A cell whose pod restarts while the operator is down
 * starts with its folders and without its tenant credentials, which come back with the operator.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CellLayerIT {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String NAMESPACE = "cells";
  private static final String CLUSTER = GatewaySettings.DEFAULT_CLUSTER_NAME;
  private static final String ALPHA_TOKEN = "ghp_alpha-token-only-the-mite-may-read-0xC0FFEE";
  private static final String BETA_HOOK = "https://hooks.example.com/beta-hook-only-the-mite-may-read-0xBEEF";
  private static final String BETA_HOOK_ROTATED = "https://hooks.example.com/beta-hook-rotated-0xF00D";
  /** The starter bundle's plugins and every plugin a cell's generated layer needs. */
  private static final String PROFILE = """
      apiVersion: varroa.dev/v1alpha1
      kind: JenkinsVersionProfile
      metadata: {name: cells}
      spec:
        jenkinsVersion: "2.555.2"
        image: jenkins/jenkins:2.555.2-lts-jdk21
        plugins:
          - {id: configuration-as-code, version: "2006.v001a_2ca_6b_574"}
          - {id: kubernetes, version: "4384.v1b_6367f393d9"}
          - {id: workflow-aggregator, version: "608.v67378e9d3db_1"}
          - {id: git, version: "5.8.0"}
          - {id: credentials, version: "1453.v9b_a_29777a_b_fd"}
          - {id: job-dsl, version: "1.93"}
          - {id: cloudbees-folder, version: "6.1073.va_7888eb_dd514"}
          - {id: matrix-auth, version: "3.2.6"}
          - {id: plain-credentials, version: "195.vb_906e9073dee"}
          - {id: ssh-credentials, version: "355.v9b_e5b_cde5003"}
          - {id: workflow-cps, version: "4106.v7a_8a_8176d450"}
          - {id: workflow-job, version: "1520.v56d65e3b_4566"}
      """;

  private final ByteArrayOutputStream inProcessLog = new ByteArrayOutputStream();
  private final List<Message> traffic = new CopyOnWriteArrayList<>();
  private final List<PodPlayer> pods = new ArrayList<>();
  private PrintStream originalErr;
  private PrintStream originalOut;
  private NatsServerProcess nats;
  private Connection tap;
  private Gateway gateway;
  private VarroaOperator operator;
  private CertificateAuthority ca;
  private JenkinsTokenIssuer jenkinsTokens;
  private Path work;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    work = dir;
    originalErr = System.err;
    originalOut = System.out;
    // the gateway and the operator log to this JVM's console: keep a copy to scan for the values
    System.setErr(new PrintStream(new TeeOutputStream(originalErr, inProcessLog), true, StandardCharsets.UTF_8));
    System.setOut(new PrintStream(new TeeOutputStream(originalOut, inProcessLog), true, StandardCharsets.UTF_8));
    nats = NatsServerProcess.start();
    tap = nats.value().connect();
    Dispatcher everything = tap.createDispatcher(traffic::add);
    everything.subscribe(">");
    tap.flush(Duration.ofSeconds(5));

    KubernetesClient client = kube.client();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .create();
    client.resource(YAML.unmarshal(PROFILE, GenericKubernetesResource.class)).create();
    secret(client, "alpha-git", Map.of("user", "alpha-bot", "token", ALPHA_TOKEN));
    secret(client, "beta-hooks", Map.of("webhook", BETA_HOOK));
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: alpha, namespace: cells}
        spec:
          pool: builds
          subjects: [{kind: User, name: alice}]
          credentials:
            - {id: git-token, type: usernamePassword, secretRef: {name: alpha-git, key: token, usernameKey: user}}
          pipelines:
            - {name: build, repository: "https://git.example.com/alpha/app.git", credentialsId: git-token,
               triggers: {cron: "H 2 * * *"}}
        """);
    apply(client, beta("[{name: nightly, repository: \"https://git.example.com/beta/app.git\"}]"));
    ca = CertificateAuthority.createFiles(dir.resolve("ca.crt"), dir.resolve("ca.key"));
    gateway = Gateway.start(GatewaySettings.of("gw-cells", nats.value().url(), dir.resolve("ca.crt"),
        dir.resolve("ca.key")).withListen("127.0.0.1", 0).withClusterName(CLUSTER));
    jenkinsTokens = JenkinsTokenIssuer.generate();
    startOperator(client, "cache");
  }

  private void startOperator(KubernetesClient client, String cache) throws Exception {
    ControlChannel channel = new ControlChannel(nats.value().connect(), CLUSTER, "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), jenkinsTokens, Clock.systemUTC());
    operator = new VarroaOperator(client, OperatorSettings.defaults(work.resolve(cache)), channel);
    operator.start();
  }

  @AfterAll
  void stop() throws Exception {
    for (PodPlayer pod : pods) {
      pod.close();
    }
    if (operator != null) {
      operator.close();
    }
    if (gateway != null) {
      gateway.close();
    }
    if (tap != null) {
      tap.close();
    }
    if (nats != null) {
      nats.close();
    }
    System.setErr(originalErr);
    System.setOut(originalOut);
  }

  @Test
  @Order(1)
  void aCellGetsAFolderPerTeamAndTheirCredentialsOnlyInsideTheSealedDesiredState(KubeApiServer kube)
      throws Exception {
    KubernetesClient client = kube.client();
    Controller cell = cell(client, "builds-0", "[alpha, beta]");
    ControllerNames names = names(cell);

    String teams = await().atMost(DEADLINE).until(() -> teamsFile(client, names), t -> t != null);
    assertThat(teams).contains("folder('alpha')", "pipelineJob('alpha/build')", "credentials('git-token')",
        "folder('beta')", "pipelineJob('beta/nightly')", "${fileBase64:/run/secrets/varroa-team_alpha_secret_git-token}",
        "${fileBase64:/run/secrets/varroa-team_beta_secret_slack}");
    ConfigMap plugins = await().atMost(DEADLINE).until(() -> client.configMaps().inNamespace(NAMESPACE)
        .withName(names.pluginsConfigMap()).get(), c -> c != null);
    assertThat(plugins.getData().get(PluginsConfigMapRenderer.PLUGINS_KEY)).contains("job-dsl:1.93",
        "matrix-auth:3.2.6", "cloudbees-folder:");

    PodPlayer pod = play(client, cell, "builds-0");
    Path alphaToken = pod.secretsDirectory().resolve(TeamFoldersFragment.secretFile("alpha", "git-token"));
    Path alphaUser = pod.secretsDirectory().resolve(TeamFoldersFragment.usernameFile("alpha", "git-token"));
    Path betaHook = pod.secretsDirectory().resolve(TeamFoldersFragment.secretFile("beta", "slack"));
    await().atMost(DEADLINE).until(() -> holds(alphaToken, ALPHA_TOKEN) && holds(betaHook, BETA_HOOK)
        && holds(alphaUser, "alpha-bot"));
    Controller applied = awaitStatus(client, "builds-0", s -> s.lastApplyResult != null
        && Boolean.TRUE.equals(s.lastApplyResult.succeeded));
    assertThat(applied.getStatus().condition("PluginPinIgnored")).get().satisfies(c -> {
      assertThat(c.status).isEqualTo(Condition.Status.False);
      assertThat(c.message).isEqualTo("no layer pins a plugin the pool owns");
    });

    // every desired state crossed NATS sealed; opened with the mite's key, the values are inside
    ControllerIdentity id = identity(cell);
    List<Command> pushed = desiredStatesSentTo(id);
    assertThat(pushed).isNotEmpty().allSatisfy(c -> assertThat(c.getDesiredState().getSecretFilesList()).isEmpty());
    Command opened = SealedCommands.open(pushed.get(pushed.size() - 1), List.of(miteKey(id, "builds-0")));
    Map<String, String> secretFiles = opened.getDesiredState().getSecretFilesList().stream()
        .collect(Collectors.toMap(File::getPath, f -> f.getContent().toStringUtf8()));
    assertThat(secretFiles).containsEntry(TeamFoldersFragment.secretFile("alpha", "git-token"), ALPHA_TOKEN)
        .containsEntry(TeamFoldersFragment.usernameFile("alpha", "git-token"), "alpha-bot")
        .containsEntry(TeamFoldersFragment.secretFile("beta", "slack"), BETA_HOOK);
    assertThat(opened.getDesiredState().getJcascFilesList()).anySatisfy(f -> {
      assertThat(f.getPath()).isEqualTo(TeamFoldersFragment.FILE);
      assertThat(f.getContent().toStringUtf8()).contains("folder('alpha')").doesNotContain(ALPHA_TOKEN);
    });

    String configMaps = client.configMaps().inNamespace(NAMESPACE).list().getItems().stream()
        .map(YAML::asYaml).collect(Collectors.joining());
    String status = YAML.asYaml(client.resources(Controller.class).inNamespace(NAMESPACE).withName("builds-0").get());
    byte[] bus = trafficBytes();
    for (String value : List.of(ALPHA_TOKEN, BETA_HOOK)) {
      assertThat(configMaps).as("ConfigMaps").doesNotContain(value);
      assertThat(status).as("the Controller and its status").doesNotContain(value);
      assertThat(contains(bus, value)).as("NATS traffic holds a value in clear").isFalse();
      assertThat(filesContaining(nats.value().storeDirectory(), value)).as("JetStream and KV files").isEmpty();
      assertThat(nats.log()).doesNotContain(value);
      assertThat(inProcessLog.toString(StandardCharsets.UTF_8)).as("gateway and operator logs")
          .contains("event=desired_state_push").doesNotContain(value);
      assertThat(Files.readString(work.resolve("mite-builds-0.log"))).as("the mite's log")
          .contains("event=command_received").doesNotContain(value);
    }

    // a Team's change re-renders its cell, and the mite gets it
    apply(client, beta("[{name: nightly, repository: \"https://git.example.com/beta/app.git\"},"
        + " {name: deploy, repository: \"https://git.example.com/beta/deploy.git\", branch: release}]"));
    await().atMost(DEADLINE).until(() -> teamsFile(client, names).contains("pipelineJob('beta/deploy')"));
    Path appliedTeams = work.resolve("pods").resolve("builds-0").resolve("casc").resolve(TeamFoldersFragment.FILE);
    await().atMost(DEADLINE).until(() -> Files.exists(appliedTeams)
        && Files.readString(appliedTeams).contains("branch('*/release')"));

    // so does a change of a credential's Secret: the new value replaces the old in the mite's secret folder
    secret(client, "beta-hooks", Map.of("webhook", BETA_HOOK_ROTATED));
    await().atMost(DEADLINE).until(() -> holds(betaHook, BETA_HOOK_ROTATED));
    assertThat(contains(trafficBytes(), BETA_HOOK_ROTATED)).isFalse();
  }

  @Test
  @Order(2)
  void aTeamWithTwoPipelinesOfOneNameBlocksItsCellNamingTheTeamTheFieldAndTheFix(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: gamma, namespace: cells}
        spec:
          pool: builds
          pipelines:
            - {name: build, repository: "https://git.example.com/gamma/a.git"}
            - {name: build, repository: "https://git.example.com/gamma/b.git"}
        """);
    cell(client, "builds-1", "[gamma]");

    Controller blocked = awaitStatus(client, "builds-1", s -> s.condition(Condition.RECONCILE_BLOCKED)
        .filter(c -> c.status == Condition.Status.True).isPresent());

    assertThat(blocked.getStatus().condition(Condition.RECONCILE_BLOCKED).get().message).isEqualTo("Team cells/gamma:"
        + " spec.pipelines[1].name build repeats spec.pipelines[0].name, and a folder holds one job of a name; fix:"
        + " rename one of them, or remove it");

    // the Team is watched: its fix unblocks the cell, no timer involved
    apply(client, """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: gamma, namespace: cells}
        spec:
          pool: builds
          pipelines:
            - {name: build, repository: "https://git.example.com/gamma/a.git"}
            - {name: test, repository: "https://git.example.com/gamma/b.git"}
        """);
    awaitStatus(client, "builds-1", s -> s.condition(Condition.RECONCILE_BLOCKED)
        .filter(c -> c.status == Condition.Status.False).isPresent());
    assertThat(teamsFile(client, names(client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName("builds-1").get()))).contains("pipelineJob('gamma/test')");
  }

  /** Last: it stops the operator (seed 000: "a restarted cell starts without tenant credentials"). */
  @Test
  @Order(3)
  void aCellRestartedWhileTheOperatorIsDownHasItsFoldersButNoTenantCredentialsUntilTheOperatorIsBack(
      KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    Controller cell = cell(client, "builds-2", "[alpha]");
    ControllerIdentity id = identity(cell);
    PodPlayer first = play(client, cell, "builds-2");
    String alphaFile = TeamFoldersFragment.secretFile("alpha", "git-token");
    await().atMost(DEADLINE).until(() -> holds(first.secretsDirectory().resolve(alphaFile), ALPHA_TOKEN));

    // the operator goes away; then the pod is replaced, as a node failure or an eviction would
    operator.close();
    operator = null;
    String podName = first.pod().getMetadata().getName();
    first.close();
    client.pods().inNamespace(NAMESPACE).withName(podName).withGracePeriod(0).delete();
    await().atMost(DEADLINE).until(() -> client.pods().inNamespace(NAMESPACE).withName(podName).get() == null);
    await().atMost(DEADLINE).until(() -> {
      KeyValueEntry entry = tap.keyValue(BusNames.MITE_ROUTES_BUCKET).get(id.routeKey());
      return entry == null || entry.getOperation() != io.nats.client.api.KeyValueOperation.PUT;
    });
    PodPlayer second = play(client, cell, "builds-2-restarted");
    Path seeded = work.resolve("pods").resolve("builds-2-restarted").resolve("casc").resolve(TeamFoldersFragment.FILE);
    await().atMost(DEADLINE).until(() -> Files.exists(seeded));

    assertThat(Files.readString(seeded)).as("the folders come from the ConfigMap the mite seeds Jenkins with")
        .contains("folder('alpha')", "${fileBase64:/run/secrets/" + alphaFile + "}");
    try (Stream<Path> files = Files.list(second.secretsDirectory())) {
      assertThat(files.map(f -> f.getFileName().toString())).as("a new memory volume: no tenant credential")
          .noneMatch(name -> name.startsWith("varroa-team_"));
    }

    startOperator(client, "cache-after-restart");
    await().atMost(DEADLINE).until(() -> {
      // the kubelet syncs the bootstrap token the operator mints for the new pod
      second.refreshVolumes();
      return holds(second.secretsDirectory().resolve(alphaFile), ALPHA_TOKEN);
    });
  }

  private static String beta(String pipelines) {
    return """
        apiVersion: varroa.dev/v1alpha1
        kind: Team
        metadata: {name: beta, namespace: cells}
        spec:
          pool: builds
          subjects: [{kind: Group, name: beta-devs}]
          callableBy: [alpha]
          credentials:
            - {id: slack, type: secretText, secretRef: {name: beta-hooks, key: webhook}}
          pipelines: %s
        """.formatted(pipelines);
  }

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(YAML.unmarshal(yaml, Team.class)).serverSideApply();
  }

  private static void secret(KubernetesClient client, String name, Map<String, String> values) {
    client.resource(new SecretBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withStringData(values).build()).serverSideApply();
  }

  /** A cell as the CellPool reconciler writes it: spec.cell names its pool and the Teams it hosts. */
  private static Controller cell(KubernetesClient client, String name, String teams) {
    return client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: %s, namespace: %s, labels: {varroa.dev/cell-pool: builds}}
        spec:
          versionProfileRef: {name: cells}
          cell: {pool: builds, teams: %s}
        """.formatted(name, NAMESPACE, teams), Controller.class)).create();
  }

  private static ControllerNames names(Controller controller) {
    return ControllerNames.of(controller.getMetadata().getName(), controller.getMetadata().getUid());
  }

  private static String teamsFile(KubernetesClient client, ControllerNames names) {
    ConfigMap casc = client.configMaps().inNamespace(NAMESPACE).withName(names.cascConfigMap()).get();
    return casc == null || casc.getData() == null ? null : casc.getData().get(TeamFoldersFragment.FILE);
  }

  private static boolean holds(Path file, String value) throws IOException {
    return Files.exists(file) && Files.readString(file).equals(value);
  }

  private PodPlayer play(KubernetesClient client, Controller controller, String name) throws Exception {
    PodPlayer pod = new PodPlayer(client, controller, work.resolve("pods").resolve(name));
    pods.add(pod);
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.process(System.getProperty("java.class.path"), work.resolve("mite-" + name + ".log")),
        p -> { });
    return pod;
  }

  /** The mite's key as its identity folder (the pod's memory volume) and the CA-signed route certificate hold it. */
  private OpeningKey miteKey(ControllerIdentity id, String pod) throws Exception {
    KeyValueEntry entry = await().atMost(DEADLINE).until(() -> tap.keyValue(BusNames.MITE_ROUTES_BUCKET)
        .get(id.routeKey()), e -> e != null && e.getValue() != null && e.getValue().length > 0);
    MiteRoute route = MiteRoute.parseFrom(entry.getValue());
    String pem = Files.readString(work.resolve("pods").resolve(pod).resolve("identity").resolve("client.key"),
        StandardCharsets.US_ASCII);
    PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(
        Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""))));
    return OpeningKey.of(SealingCertificate.verify(route.getCertificatePem(), ca.certificatePem(), id, Instant.now(),
        "the route"), key);
  }

  private static ControllerIdentity identity(Controller controller) {
    return new ControllerIdentity(controller.getMetadata().getNamespace(), controller.getMetadata().getName(),
        controller.getMetadata().getUid());
  }

  /** The desired-state commands the operator sent this controller's gateway, as the bus carried them. */
  private List<Command> desiredStatesSentTo(ControllerIdentity id) {
    List<Command> commands = new ArrayList<>();
    for (Message message : traffic) {
      if (!message.getSubject().startsWith("varroa.gateway.") || !message.getSubject().endsWith(".commands")) {
        continue;
      }
      try {
        GatewayCommand command = GatewayCommand.parseFrom(message.getData());
        if (ControllerIdentity.of(command.getController()).equals(id) && command.getCommand().hasDesiredState()) {
          commands.add(command.getCommand());
        }
      } catch (InvalidProtocolBufferException | IllegalArgumentException notACommand) {
        // another message on a matching subject
      }
    }
    return commands;
  }

  private byte[] trafficBytes() {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Message message : traffic) {
      all.writeBytes(message.getSubject().getBytes(StandardCharsets.UTF_8));
      if (message.getHeaders() != null) {
        message.getHeaders().entrySet().forEach(h -> all.writeBytes((h.getKey() + h.getValue())
            .getBytes(StandardCharsets.UTF_8)));
      }
      if (message.getData() != null) {
        all.writeBytes(message.getData());
      }
    }
    return all.toByteArray();
  }

  private static Controller awaitStatus(KubernetesClient client, String name, Predicate<ControllerStatus> wanted) {
    return await().atMost(DEADLINE).until(() -> client.resources(Controller.class).inNamespace(NAMESPACE)
        .withName(name).get(), c -> c.getStatus() != null && wanted.test(c.getStatus()));
  }

  private static List<Path> filesContaining(Path directory, String needle) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).filter(f -> {
        try {
          return contains(Files.readAllBytes(f), needle);
        } catch (IOException vanished) {
          // nats-server compacts and removes block files while they are read
          return false;
        }
      }).toList();
    }
  }

  private static boolean contains(byte[] haystack, String needle) {
    byte[] bytes = needle.getBytes(StandardCharsets.UTF_8);
    for (int i = 0; i + bytes.length <= haystack.length; i++) {
      if (Arrays.equals(haystack, i, i + bytes.length, bytes, 0, bytes.length)) {
        return true;
      }
    }
    return false;
  }
}

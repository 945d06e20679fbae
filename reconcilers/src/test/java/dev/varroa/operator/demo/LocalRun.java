package dev.varroa.operator.demo;

import dev.varroa.operator.OperatorSettings;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.cluster.ClusterRole;
import dev.varroa.operator.hooks.WebhookSecret;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleBundleSources;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.plugin.PluginCore;
import dev.varroa.plugin.config.PluginSettings;
import dev.varroa.recorder.Recorder;
import dev.varroa.recorder.RecorderSettings;
import dev.varroa.recorder.logs.BlobStoreSettings;
import dev.varroa.recorder.logs.LogStore;
import dev.varroa.recorder.logs.LogStores;
import dev.varroa.recorder.retention.RetentionRules;
import dev.varroa.operator.cluster.HiveMember;
import dev.varroa.operator.install.ChartCoreNats;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.protocol.BusTopology;
import io.nats.client.Connection;
import dev.varroa.testfixtures.postgres.PostgresServer;
import dev.varroa.testfixtures.postgres.PostgresServerProcess;
import dev.varroa.testfixtures.s3.S3Server;
import dev.varroa.testfixtures.s3.S3ServerProcess;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The local run behind `make demo-played`: a real API server with the examples applied, the chart's NATS (TLS, a
 * user per component), PostgreSQL, s3proxy, the recorder, the gateway and the operator, and each Controller's pod
 * played with a real mite process next to the Jenkins contract fixture; beside it a member cluster on a second API
 * server, its hive operator and gateway as processes, and one Controller. It prints `kubectl get controllers -A` of
 * both as they change; once every Controller is Connected with its desired state applied it plays one build per
 * example Controller through the plugin core and waits for its records, then reads it all back through the BFF,
 * both clusters included. With --check it exits 0 once all of that is there, 1 if it takes over 5 minutes (each).
 * Every endpoint it started is in .demo/endpoints.json.
 */
public final class LocalRun {
  /** "make demo-check exits 0 only when every example Controller got there, within 5 minutes." */
  static final Duration CHECK_DEADLINE = Duration.ofMinutes(5);
  /** How often the stand-in kubelet syncs volumes and the listing is refreshed. */
  private static final Duration TICK = Duration.ofSeconds(1);
  /** What a secret manager would hold for the example's GITHUB_TOKEN; only the demo knows it. */
  private static final String DEMO_GITHUB_TOKEN = "demo-github-token-not-a-real-one";
  /** The webhook receiver's shared secret in the local run; a cluster reads it from the Secret named by VARROA_WEBHOOK_SECRET. */
  private static final String DEMO_WEBHOOK_SECRET = "demo-webhook-secret";
  /** The core's cluster.name (the chart's default) and its release namespace, where its installation Secrets live. */
  private static final String CORE = ChartCoreNats.CORE;
  private static final String CORE_NAMESPACE = "varroa-system";
  /** The member cluster the demo runs next to the core (DemoMember). */
  private static final String MEMBER = DemoMember.NAME;

  private LocalRun() {}

  public static void main(String[] args) {
    try {
      System.exit(run(List.of(args).contains("--check")));
    } catch (Exception e) {
      System.err.println("demo: FAILED: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static int run(boolean check) throws Exception {
    Path root = ProjectLayout.root();
    Path work = root.resolve(".demo").resolve("run");
    deleteTree(work);
    Files.createDirectories(work);
    List<AutoCloseable> running = new ArrayList<>();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      closeAll(running);
      stopped.countDown();
    }, "demo-shutdown"));

    ExampleBundleSources sources = ExampleBundleSources.start(root);
    running.add(sources);
    List<HasMetadata> first = new ArrayList<>(sources.secrets());
    first.add(new SecretBuilder().withNewMetadata().withName("team-a-github").withNamespace("ci").endMetadata()
        .withStringData(Map.of("token", DEMO_GITHUB_TOKEN)).build());
    ExampleCluster cluster = ExampleCluster.start(root, first, o -> sources.rewrite(List.of(o)).get(0));
    running.add(0, cluster.kube());
    KubernetesClient client = cluster.kube().client();
    say("served the example bundle repositories locally: " + sources.urlRewrites().values());

    DemoEndpoints endpoints = new DemoEndpoints(root.resolve(".demo"));
    endpoints.put("kubeconfig", cluster.kubeconfig().toString());
    // the core's NATS as the chart runs it: TLS, one user per component, and the users of the member cluster
    ChartCoreNats nats = ChartCoreNats.start(client, CORE_NAMESPACE, List.of(MEMBER), work.resolve("nats"));
    running.add(0, nats);
    try (Connection coreOperator = nats.connect("operator", InstallationSecrets.KEY_OPERATOR_PASSWORD)) {
      BusTopology.ensure(coreOperator);
    }
    Path natsCa = Files.writeString(work.resolve("nats-ca.crt"), nats.caPem());
    say("NATS with JetStream and TLS (the chart's nats.conf, users of the core and of member " + MEMBER + ") at "
        + nats.url() + ", CA " + natsCa);
    endpoints.put("nats", nats.url());
    endpoints.put("nats_ca_file", natsCa.toString());

    PostgresServerProcess postgresProcess = PostgresServerProcess.start();
    running.add(0, postgresProcess);
    PostgresServer postgres = postgresProcess.value();
    say("PostgreSQL (the record store) at " + postgres.jdbcUrl() + " as " + postgres.user());
    endpoints.put("postgres_dsn", postgres.jdbcUrl() + "?user=" + postgres.user() + "&password=" + postgres.password());
    endpoints.put("postgres_url", "postgresql://" + postgres.user() + ":" + postgres.password() + "@127.0.0.1:"
        + postgres.port() + "/" + postgres.database());
    endpoints.put("postgres_user", postgres.user());
    endpoints.put("postgres_password", postgres.password());
    S3ServerProcess s3Process = S3ServerProcess.start();
    running.add(0, s3Process);
    S3Server s3 = s3Process.value();
    say("s3proxy (the blob store, filesystem backend) at " + s3.endpoint() + ", bucket " + s3.bucket());
    endpoints.put("s3_url", s3.endpoint());
    endpoints.put("s3_bucket", s3.bucket());
    endpoints.put("s3_region", s3.region());
    endpoints.put("s3_access_key_id", s3.accessKeyId());
    endpoints.put("s3_secret_access_key", s3.secretAccessKey());
    Path blobCredentials = Files.createDirectories(work.resolve("blob-credentials"));
    Files.writeString(blobCredentials.resolve("access-key-id"), s3.accessKeyId());
    Files.writeString(blobCredentials.resolve("secret-access-key"), s3.secretAccessKey());
    BlobStoreSettings blobs = BlobStoreSettings.s3(s3.bucketUrl(), s3.region(), blobCredentials);
    LogStore recorderLogs = LogStores.open(blobs, "varroa-recorder").orElseThrow();
    // the BFF's read-only role, which the recorder grants its tables to (as the chart's CloudNativePG role)
    String bffDbPassword = "bff-" + Long.toHexString(new java.security.SecureRandom().nextLong());
    postgres.createLoginRole(DemoBff.DB_ROLE, bffDbPassword);
    Recorder recorder = Recorder.start(RecorderSettings.of(postgres.jdbcUrl(), postgres.user(), postgres.password(),
        nats.url()).withHealthPort(0).withNatsCredentials("recorder",
            password(work, nats, InstallationSecrets.KEY_RECORDER_PASSWORD), natsCa),
        RetentionRules.defaults(), Optional.of(recorderLogs));
    running.add(0, recorder);
    say("recorder: varroa_builds and varroa_activity into PostgreSQL, the ledger, retention; /readyz on 127.0.0.1:"
        + recorder.healthPort());
    endpoints.put("recorder", "http://127.0.0.1:" + recorder.healthPort() + "/readyz");
    Path caCert = work.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, work.resolve("ca.key"));
    Gateway gateway = Gateway.start(GatewaySettings.of("gateway-0", nats.url(), caCert, work.resolve("ca.key"))
        .withListen("127.0.0.1", 0).withBlobStore(blobs).withClusterName(CORE)
        .withNatsUser("gateway", password(work, nats, InstallationSecrets.KEY_GATEWAY_PASSWORD)).withNatsCaFile(natsCa));
    running.add(0, gateway);
    say("gateway gateway-0 on 127.0.0.1:" + gateway.port() + " (TLS, Varroa CA " + caCert + "), console logs to "
        + s3.bucketUrl());
    endpoints.put("gateway", "127.0.0.1:" + gateway.port());
    ControlChannel channel = new ControlChannel(nats.connect("operator", InstallationSecrets.KEY_OPERATOR_PASSWORD), CORE,
        "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    VarroaOperator operator = new VarroaOperator(client, OperatorSettings.defaults(work.resolve("cache"))
        .withPlainHttpRegistries(java.util.Set.of(sources.plainHttpRegistry())), channel);
    running.add(0, operator);
    operator.start();
    operator.registerCluster(CORE, ClusterRole.CORE);
    int hooks = operator.serveWebhooks(0, WebhookSecret.of(DEMO_WEBHOOK_SECRET));
    say("operator running; webhook receiver at http://127.0.0.1:" + hooks + "/hooks/git and /hooks/registry"
        + " (shared secret " + DEMO_WEBHOOK_SECRET + ", see docs/webhooks.md)");
    endpoints.put("receiver", "http://127.0.0.1:" + hooks + "/hooks");
    int waker = operator.serveWaker(0);
    say("waker at http://127.0.0.1:" + waker + "/ : it answers only for a hibernated Controller, named by the Host"
        + " header (e.g. curl -H 'Host: <service>.<namespace>.svc' ...; see docs/hibernation.md)");
    endpoints.put("waker", "http://127.0.0.1:" + waker);
    DemoBff bff = DemoBff.start(client, work, new DemoBff.Bus(nats.url(), "dashboard",
        password(work, nats, InstallationSecrets.KEY_BFF_PASSWORD), natsCa), CORE,
        new DemoBff.Stores(postgres.jdbcUrl(), bffDbPassword, Map.of(
            "VARROA_BLOB_MODE", "s3", "VARROA_BLOB_S3_URL", s3.bucketUrl(), "VARROA_BLOB_S3_REGION", s3.region(),
            "VARROA_BLOB_S3_CREDENTIALS_DIR", blobCredentials.toString())));
    running.add(0, bff);
    say("BFF (read API, live activity, MCP) at " + bff.url() + " (log " + bff.log() + "); OpenID provider at "
        + bff.issuer() + "; log in as " + DemoBff.DEMO_USER + " / " + bff.password()
        + " (varroactl login --server " + bff.url() + ")");
    say("dashboard: open " + bff.dashboardUrl() + " in a browser and log in as " + DemoBff.DEMO_USER + " / "
        + bff.password());
    endpoints.put("bff", bff.url());
    endpoints.put("dashboard", bff.dashboardUrl());
    endpoints.put("mcp", bff.url() + "/mcp");
    endpoints.put("oidc_issuer", bff.issuer());
    endpoints.put("demo_user", DemoBff.DEMO_USER);
    endpoints.put("demo_password", bff.password());
    say("endpoints: " + endpoints.file());

    // the member: its own API server, the hive release's operator and gateway as processes, one Controller
    DemoMember member = DemoMember.start(root, work, nats.url(),
        client.secrets().inNamespace(CORE_NAMESPACE).withName(InstallationSecrets.memberCredsSecret(MEMBER)).get(),
        HiveMember.Blobs.of(s3), CHECK_DEADLINE);
    running.add(0, member);
    Path memberKubeconfig = member.kubeconfig();
    endpoints.put("member_kubeconfig", memberKubeconfig.toString());

    List<String> controllers = cluster.applied().stream()
        .filter(o -> o.getKind().equals("Controller") && o.getApiVersion().startsWith("varroa.dev/"))
        .map(o -> o.getMetadata().getNamespace() + "/" + o.getMetadata().getName()).toList();
    Map<String, PodPlayer> pods = new LinkedHashMap<>();
    String classpath = System.getProperty("java.class.path");
    if (controllers.isEmpty()) {
      throw new IllegalStateException("gitops-examples/varroa/ holds no Controller; nothing to run");
    }
    Instant deadline = Instant.now().plus(CHECK_DEADLINE);
    String lastListing = "";
    boolean done = false;
    while (!done && (!check || Instant.now().isBefore(deadline))) {
      member.step(classpath);
      for (String key : controllers) {
        String[] parts = key.split("/");
        Controller controller = client.resources(Controller.class).inNamespace(parts[0]).withName(parts[1]).get();
        PodPlayer pod = pods.get(key);
        if (pod == null) {
          pod = new PodPlayer(client, controller, work.resolve("pods").resolve(parts[1]));
          if (pod.podCanStart()) {
            Path log = work.resolve("mite-" + parts[1] + ".log");
            pod.start(PodPlayer.MiteRunner.process(classpath, log), p -> { });
            pods.put(key, pod);
            running.add(0, pod);
            say("pod " + pod.pod().getMetadata().getName() + " started: a mite process (log " + log
                + ") next to the Jenkins contract fixture at " + pod.jenkins().url());
          }
        } else {
          pod.refreshVolumes();
        }
      }
      String listing = cluster.kube().kubectl("get", "controllers", "-A");
      // AGE ticks every second; print when anything else changed
      String withoutAge = listing.replaceAll("(?m)\\s+\\S+$", "");
      if (!withoutAge.equals(lastListing)) {
        System.out.println(listing);
        lastListing = withoutAge;
      }
      done = controllers.stream().allMatch(key -> connectedAndApplied(client, key))
          && member.connectedAndApplied();
      if (!done) {
        Thread.sleep(TICK.toMillis());
      }
    }
    if (check && !done) {
      say("FAILED: not every example Controller and the member's reached Connected with lastApplyResult.succeeded=true"
          + " within " + CHECK_DEADLINE.toMinutes() + " minutes");
      controllers.forEach(key -> say(key + ": " + summary(client, key)));
      say(MEMBER + " " + DemoMember.key() + ": " + member.summary());
      return 1;
    }
    if (check) {
      say("OK: every example Controller, and " + DemoMember.key() + " on member " + MEMBER
          + ", is Connected with its desired state applied");
    }
    BuildRecordsCheck records = new BuildRecordsCheck(postgres, recorderLogs, CORE);
    List<PlayedBuild.Played> builds = new ArrayList<>();
    for (String key : controllers) {
      PodPlayer pod = pods.get(key);
      String name = key.split("/")[1];
      PluginCore core = PluginCore.start(PluginSettings.fromEnvironment(Map.of(
          PluginSettings.LOOPBACK_URL_VARIABLE, pod.loopbackUrl(),
          PluginSettings.TOKEN_FILE_VARIABLE, pod.loopbackTokenFile().toString())),
          work.resolve("pods").resolve(name).resolve("jenkins-home"), Clock.systemUTC());
      running.add(0, core);
      PlayedBuild.Played build = PlayedBuild.play(core, work.resolve("pods").resolve(name).resolve("jenkins-home"),
          "demo/" + name + "/main", 1);
      builds.add(build);
      say("played build demo/" + name + "/main #1 through the plugin core of " + key + " (run " + build.runId()
          + ", " + build.log().length + " log bytes)");
    }
    String recorded = records.await(controllers, builds, CHECK_DEADLINE);
    if (recorded != null) {
      say("FAILED: " + recorded);
      return 1;
    }
    say("recorded: every played build has its run, two stages, its test summary and its whole console log "
        + "(byte-identical in the blob store), and the controllers' activity is in PostgreSQL");
    List<String> listedControllers = new ArrayList<>(controllers);
    // the member's Controller, listed by the core's BFF through the member operator's answer over NATS
    listedControllers.add(DemoMember.key());
    String throughBff = bff.check(listedControllers, builds);
    if (throughBff == null) {
      throughBff = bff.checkClusters(List.of(CORE, MEMBER));
    }
    if (throughBff != null) {
      say("FAILED: through the BFF as " + DemoBff.DEMO_USER + ": " + throughBff);
      return 1;
    }
    say("read through the BFF as " + DemoBff.DEMO_USER + ": every Controller (the member's too), each played run with"
        + " its whole console log, the activity, and both clusters healthy (" + bff.url() + ")");
    if (check) {
      return 0;
    }
    controllers.forEach(key -> say(key + ": " + summary(client, key)));
    say("every endpoint started is listed in " + endpoints.file());
    say("running; use it with: export KUBECONFIG=" + cluster.kubeconfig() + " and " + cluster.kube().kubectlBinary()
        + " get controllers -A; the member's: KUBECONFIG=" + memberKubeconfig);
    say("press Ctrl-C to stop");
    stopped.await();
    return 0;
  }

  private static boolean connectedAndApplied(KubernetesClient client, String key) {
    ControllerStatus status = status(client, key);
    return status != null && status.phase == ControllerStatus.Phase.Connected && status.lastApplyResult != null
        && Boolean.TRUE.equals(status.lastApplyResult.succeeded);
  }

  private static String summary(KubernetesClient client, String key) {
    ControllerStatus status = status(client, key);
    if (status == null) {
      return "no status yet";
    }
    return "phase=" + status.phase + " attention=" + status.attention + " lastApplyResult="
        + (status.lastApplyResult == null ? "none" : status.lastApplyResult.succeeded + " " + status.lastApplyResult.message);
  }

  private static ControllerStatus status(KubernetesClient client, String key) {
    String[] parts = key.split("/");
    Controller controller = client.resources(Controller.class).inNamespace(parts[0]).withName(parts[1]).get();
    return controller == null ? null : controller.getStatus();
  }

  /** A key of the core's varroa-nats-creds as a file, as the pods mount it. */
  private static Path password(Path work, ChartCoreNats nats, String key) throws java.io.IOException {
    return Files.writeString(Files.createDirectories(work.resolve("nats-creds")).resolve(key), nats.password(key));
  }

  private static void closeAll(List<AutoCloseable> running) {
    for (AutoCloseable closeable : running) {
      try {
        closeable.close();
      } catch (Exception e) {
        System.err.println("demo: stopping " + closeable + " failed: " + e.getMessage());
      }
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (Files.exists(dir)) {
      try (var paths = Files.walk(dir)) {
        for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }

  private static void say(String line) {
    ExampleCluster.say(line);
  }
}

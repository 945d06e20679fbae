package dev.varroa.operator.demo;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.hooks.WebhookSecret;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.operator.channel.JenkinsTokenIssuer;
import dev.varroa.operator.channel.PodPlayer;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleBundleSources;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.testfixtures.nats.NatsServerProcess;
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
import java.util.concurrent.CountDownLatch;

/**
 * The local run behind `make demo`: a real API server with the examples applied, NATS, the gateway and
 * the operator, and each Controller's pod played with a real mite process next to the Jenkins contract
 * fixture. It prints `kubectl get controllers -A` as they change; with --check it exits 0 once every
 * example Controller is Connected with its desired state applied, 1 if that takes over 5 minutes.
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

    NatsServerProcess nats = NatsServerProcess.start();
    running.add(0, nats);
    say("NATS with JetStream at " + nats.value().url());
    Path caCert = work.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, work.resolve("ca.key"));
    Gateway gateway = Gateway.start(GatewaySettings.of("gateway-0", nats.value().url(), caCert, work.resolve("ca.key"))
        .withListen("127.0.0.1", 0));
    running.add(0, gateway);
    say("gateway gateway-0 on 127.0.0.1:" + gateway.port() + " (TLS, Varroa CA " + caCert + ")");
    ControlChannel channel = new ControlChannel(nats.value().connect(), "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    VarroaOperator operator = new VarroaOperator(client, work.resolve("cache"), null, channel,
        java.util.Set.of(sources.plainHttpRegistry()));
    running.add(0, operator);
    operator.start();
    int hooks = operator.serveWebhooks(0, WebhookSecret.of(DEMO_WEBHOOK_SECRET));
    say("operator running; webhook receiver at http://127.0.0.1:" + hooks + "/hooks/git and /hooks/registry"
        + " (shared secret " + DEMO_WEBHOOK_SECRET + ", see docs/webhooks.md)");

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
      done = controllers.stream().allMatch(key -> connectedAndApplied(client, key));
      if (!done) {
        Thread.sleep(TICK.toMillis());
      }
    }
    if (check) {
      if (!done) {
        say("FAILED: not every example Controller reached Connected with lastApplyResult.succeeded=true within "
            + CHECK_DEADLINE.toMinutes() + " minutes");
        controllers.forEach(key -> say(key + ": " + summary(client, key)));
        return 1;
      }
      say("OK: every example Controller is Connected with its desired state applied");
      return 0;
    }
    controllers.forEach(key -> say(key + ": " + summary(client, key)));
    say("running; use it with: export KUBECONFIG=" + cluster.kubeconfig() + " and " + cluster.kube().kubectlBinary()
        + " get controllers -A");
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

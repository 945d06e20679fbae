package dev.varroa.operator.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.operator.cluster.HiveMember;
import dev.varroa.operator.demo.BffReads;
import dev.varroa.operator.demo.DemoEndpoints;
import dev.varroa.operator.demo.DemoMember;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.demo.ExampleCluster;
import dev.varroa.testfixtures.node.RealNode;
import dev.varroa.testfixtures.oidc.OidcProvider;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

/**
 * `make demo` on the real node (bin/demo.sh brings the node up and builds the images first): the chart installed with
 * helm, full mode, every pod Ready; the minimal example Controller applied as Argo CD would, its pod running the real
 * mite beside the Jenkins stand-in (Jenkins cannot be fetched here) until Connected with its desired state applied;
 * one build played in the stand-in, recorded in PostgreSQL, its log in the S3 store, and read through the BFF as the
 * demo user. Every endpoint is in .demo/endpoints.json. With --check it exits 0 once all of that holds, 1 if a step
 * takes longer than its deadline; without, it keeps the release running until Ctrl-C.
 */
public final class NodeDemo {
  static final String DEMO_USER = "demo";
  /** The same budget as the played demo's check, for the Controller and for the build's records. */
  private static final Duration CHECK_DEADLINE = Duration.ofMinutes(5);
  private static final String JOB = "demo-main";
  private static final int LOG_LINES = 40;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The core's cluster.name: the chart's default. */
  private static final String CORE = "core";
  /** The node port the core's NATS answers members on (nats.external, NodePort). */
  private static final int MEMBER_NATS_NODE_PORT = 30422;
  /** The member cluster beside the node's core; its processes stop when the demo ends. */
  private static DemoMember member;

  private NodeDemo() {}

  /**
   * The core's values for one member, member-1: the external NATS listener on a node port of this node, the node's
   * address in the NATS certificate, and the member's own NATS users (docs/member-clusters.md).
   */
  private static List<String> memberValues(RealNode node) {
    return List.of("nats.external.enabled=true", "nats.external.serviceType=NodePort",
        "nats.external.nodePort=" + MEMBER_NATS_NODE_PORT, "nats.external.ipSANs={" + node.nodeIp() + "}",
        "nats.external.allowedCIDRs={" + node.nodeIp() + "/32,10.244.0.0/16}",
        "nats.members={" + DemoMember.NAME + "}");
  }

  /** The core's object store as the member reaches it from this machine: its Service address and its credential. */
  private static HiveMember.Blobs memberBlobs(KubernetesClient client) {
    Secret s3 = client.secrets().inNamespace(NodeInstall.NAMESPACE).withName(TestServices.S3_SECRET).get();
    return new HiveMember.Blobs("http://" + TestServices.clusterIp(client, NodeInstall.NAMESPACE, "varroa-test-s3")
        + ":8080/" + TestServices.BUCKET, "us-east-1", decoded(s3, "access-key-id"), decoded(s3, "secret-access-key"));
  }

  private static String decoded(Secret secret, String key) {
    String value = secret.getData() == null ? null : secret.getData().get(key);
    if (value == null) {
      throw new IllegalStateException("Secret " + secret.getMetadata().getName() + " has no key " + key);
    }
    return new String(Base64.getDecoder().decode(value), StandardCharsets.UTF_8);
  }

  /** The folder, emptied of what an earlier demo left there. */
  private static Path freshDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(each);
        }
      }
    }
    return Files.createDirectories(dir);
  }

  /** Null once the member's Controller is Connected and the core's BFF lists it with both clusters healthy. */
  private static String awaitMember(DemoMember member, BffReads bff, String coreController) throws Exception {
    String classpath = System.getProperty("java.class.path");
    Instant deadline = Instant.now().plus(CHECK_DEADLINE);
    String missing = "nothing checked yet";
    while (Instant.now().isBefore(deadline)) {
      member.step(classpath);
      if (!member.connectedAndApplied()) {
        missing = DemoMember.key() + " is not Connected with its desired state applied: " + member.summary();
      } else {
        String listed = bff.check(List.of(coreController, DemoMember.key()), List.of());
        missing = listed != null ? listed : bff.checkClusters(List.of(CORE, DemoMember.NAME));
        if (missing == null) {
          return null;
        }
      }
      Thread.sleep(1000);
    }
    return missing + " within " + CHECK_DEADLINE.toMinutes() + " minutes";
  }

  public static void main(String[] args) {
    try {
      System.exit(run(List.of(args).contains("--check")));
    } catch (Exception e) {
      say("FAILED: " + e);
      e.printStackTrace();
      System.exit(1);
    }
  }

  private static int run(boolean check) throws Exception {
    try {
      return runOnNode(check);
    } finally {
      if (member != null) {
        member.close();
      }
    }
  }

  private static int runOnNode(boolean check) throws Exception {
    RealNode node = RealNode.up();
    NodeImages images = NodeImages.pushed();
    TestServices.Login login = new TestServices.Login(DEMO_USER, "demo-" + HexFormat.of().formatHex(randomBytes()));
    try (KubernetesClient client = node.adminClient();
        VarroaRelease release = new VarroaRelease(node, NodeInstall.NAMESPACE)) {
      say("the real node is up: kubectl --kubeconfig " + node.kubeconfig() + " get pods -A");
      say("helm install " + VarroaRelease.NAME + " chart/ into " + NodeInstall.NAMESPACE + ", full mode, images from "
          + images.registry() + " (tag " + images.productTag() + "); PostgreSQL, S3 and the OpenID provider from test"
          + " images");
      Duration installed = NodeInstall.install(node, client, images, release, login, memberValues(node));
      say(String.format("every pod Ready %.1f s after helm install:", installed.toMillis() / 1e3));
      client.pods().inNamespace(NodeInstall.NAMESPACE).list().getItems().forEach(p ->
          System.out.println("  " + p.getMetadata().getName() + "  " + VarroaRelease.describe(p) + "  " + image(p)));
      DemoEndpoints endpoints = endpoints(node, client, login);
      say("endpoints: " + endpoints.file());

      NodeInstall.applyExamples(client, images);
      String controller = NodeInstall.CONTROLLER_NAMESPACE + "/" + NodeInstall.CONTROLLER;
      say("applied gitops-examples/varroa/ as Argo CD would: Controller " + controller + ", its Jenkins image the "
          + "stand-in " + images.test("jenkins") + " (Jenkins cannot be fetched here); the other examples take their"
          + " bundles from Git and OCI hosts the played mode serves (make demo-played)");
      if (!awaitConnectedAndApplied(client)) {
        say("FAILED: " + controller + " did not reach Connected with its desired state applied within "
            + CHECK_DEADLINE.toMinutes() + " minutes: " + summary(NodeInstall.status(client)));
        return 1;
      }
      Pod jenkins = NodeInstall.controllerPod(client);
      say("pod " + jenkins.getMetadata().getName() + " runs the mite (" + images.product("mite") + ") beside the "
          + "Jenkins stand-in; " + controller + " is Connected through the gateway's Service");

      JsonNode played = JSON.readTree(PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS",
          "-f", "-X", "POST", "http://127.0.0.1:8080/varroa-standin/builds?job=" + JOB + "&lines=" + LOG_LINES));
      String runId = played.path("runId").asText();
      say("played build " + JOB + " in the stand-in through the plugin core (run " + runId + ")");
      String recorded = awaitRecorded(client, jenkins, runId);
      if (recorded != null) {
        say("FAILED: " + recorded);
        return 1;
      }
      say("recorded: the run of " + JOB + " is in PostgreSQL and its whole console log in the S3 store");
      long logBytes = JSON.readTree(PodExec.run(client, jenkins, "jenkins", Duration.ofSeconds(30), "curl", "-sS",
          "-f", "http://127.0.0.1:8080/varroa-standin/builds/" + runId)).path("logBytes").asLong();
      OidcProvider provider = new OidcProvider(TestServices.ISSUER, 9998, List.of(
          new OidcProvider.User(login.user(), login.user(), login.password(), login.user() + "@example.com")));
      BffReads bff = BffReads.loggedIn(TestServices.DASHBOARD_URL, provider,
          TestServices.DASHBOARD_URL + "/auth/callback", login.user(), login.password());
      String throughBff = bff.check(List.of(controller), List.of(new BffReads.ExpectedRun(runId, logBytes, null)));
      if (throughBff != null) {
        say("FAILED: through the BFF as " + login.user() + ": " + throughBff);
        return 1;
      }
      say("read through the BFF as " + login.user() + ": " + controller + ", the run with its whole console log, and "
          + "the activity");

      String busUrl = "tls://" + node.nodeIp() + ":" + MEMBER_NATS_NODE_PORT;
      member = DemoMember.start(ProjectLayout.root(), freshDirectory(ProjectLayout.root().resolve(".demo/node-member")),
          busUrl, client.secrets().inNamespace(NodeInstall.NAMESPACE)
          .withName(InstallationSecrets.memberCredsSecret(DemoMember.NAME)).get(), memberBlobs(client),
          CHECK_DEADLINE);
      endpoints.put("member_kubeconfig", member.kubeconfig().toString());
      String memberFailed = awaitMember(member, bff, controller);
      if (memberFailed != null) {
        say("FAILED: member " + DemoMember.NAME + ": " + memberFailed);
        return 1;
      }
      say("member " + DemoMember.NAME + ": " + DemoMember.key() + " Connected through the member's gateway, listed by "
          + "the core's BFF, and both clusters healthy in GET /clusters");
      if (check) {
        say("OK: Varroa runs on the real node, " + controller + " Connected, its build recorded and served; member "
            + DemoMember.NAME + "'s " + DemoMember.key() + " Connected and listed by the core");
        return 0;
      }
      say("dashboard: open " + TestServices.DASHBOARD_URL + "/ui/ in a browser on this machine and log in as "
          + login.user() + " / " + login.password());
      say("use it with: export KUBECONFIG=" + node.kubeconfig() + " and " + node.kubectl() + " get controllers -A");
      say("every endpoint is listed in " + endpoints.file());
      say("press Ctrl-C to stop (bin/demo.sh then takes the node down, unless it was up before)");
      CountDownLatch stopped = new CountDownLatch(1);
      Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "demo-shutdown"));
      stopped.await();
      return 0;
    }
  }

  /** Prints each change of the Controller's phase; true once Connected with lastApplyResult.succeeded. */
  private static boolean awaitConnectedAndApplied(KubernetesClient client) throws InterruptedException {
    Instant deadline = Instant.now().plus(CHECK_DEADLINE);
    String last = "";
    while (Instant.now().isBefore(deadline)) {
      ControllerStatus status = NodeInstall.status(client);
      String now = summary(status);
      if (!now.equals(last)) {
        say(NodeInstall.CONTROLLER_NAMESPACE + "/" + NodeInstall.CONTROLLER + ": " + now);
        last = now;
      }
      if (status != null && status.phase == ControllerStatus.Phase.Connected && status.lastApplyResult != null
          && Boolean.TRUE.equals(status.lastApplyResult.succeeded)) {
        return true;
      }
      Thread.sleep(1000);
    }
    return false;
  }

  /** Null once the run is finalized in PostgreSQL and its log complete in the S3 store, else what is missing. */
  private static String awaitRecorded(KubernetesClient client, Pod jenkins, String runId) throws Exception {
    String postgres = TestServices.clusterIp(client, NodeInstall.NAMESPACE, "varroa-test-postgres");
    String s3 = TestServices.clusterIp(client, NodeInstall.NAMESPACE, "varroa-test-s3");
    Instant deadline = Instant.now().plus(CHECK_DEADLINE);
    String missing = "nothing read yet";
    while (Instant.now().isBefore(deadline)) {
      try {
        if (!RecordStore.results(postgres, JOB).contains("SUCCESS")) {
          missing = "no finalized run of " + JOB + " in PostgreSQL";
        } else if (RecordStore.logBytes(s3, NodeInstall.CONTROLLER_NAMESPACE, NodeInstall.CONTROLLER, runId) < 0) {
          missing = "the console log of run " + runId + " is not complete in the S3 store";
        } else {
          return null;
        }
      } catch (Exception e) {
        missing = "the record store did not answer: " + e.getMessage();
      }
      Thread.sleep(1000);
    }
    return missing + " within " + CHECK_DEADLINE.toMinutes() + " minutes (pod " + jenkins.getMetadata().getName() + ")";
  }

  /**
   * The endpoints file, with the played demo's keys where the node has the same thing: Service ClusterIPs and pod IPs,
   * which this machine reaches through kube-proxy's rules and the node's bridge.
   */
  private static DemoEndpoints endpoints(RealNode node, KubernetesClient client, TestServices.Login login)
      throws Exception {
    String ns = NodeInstall.NAMESPACE;
    DemoEndpoints endpoints = new DemoEndpoints(ProjectLayout.root().resolve(".demo"));
    endpoints.put("mode", "node");
    endpoints.put("kubeconfig", node.kubeconfig().toString());
    endpoints.put("nats", "nats://" + TestServices.clusterIp(client, ns, "varroa-nats") + ":4222");
    String postgres = TestServices.clusterIp(client, ns, "varroa-test-postgres");
    // the owner role of test-fixtures/node/manifests/postgres.yaml, as the played demo gives its superuser
    endpoints.put("postgres_dsn", "jdbc:postgresql://" + postgres + ":5432/varroa?user=varroa_recorder"
        + "&password=varroa-test-recorder-password");
    endpoints.put("postgres_url", "postgresql://varroa_recorder:varroa-test-recorder-password@" + postgres
        + ":5432/varroa");
    endpoints.put("postgres_user", "varroa_recorder");
    endpoints.put("postgres_password", "varroa-test-recorder-password");
    String s3 = "http://" + TestServices.clusterIp(client, ns, "varroa-test-s3") + ":8080";
    endpoints.put("s3_url", s3);
    endpoints.put("s3_bucket", TestServices.BUCKET);
    endpoints.put("s3_region", "us-east-1");
    endpoints.put("s3_access_key_id", "varroa-test");
    endpoints.put("s3_secret_access_key", "varroa-test-s3-secret-access-key");
    client.pods().inNamespace(ns).withLabel("app.kubernetes.io/component", "recorder").list().getItems().stream()
        .map(p -> p.getStatus().getPodIP()).filter(Objects::nonNull).findFirst()
        .ifPresent(ip -> put(endpoints, "recorder", "http://" + ip + ":9097/readyz"));
    endpoints.put("gateway", TestServices.clusterIp(client, ns, "varroa-gateway") + ":9090");
    endpoints.put("receiver", "http://" + TestServices.clusterIp(client, ns, "varroa-operator-webhooks") + ":8082/hooks");
    endpoints.put("waker", "http://" + TestServices.clusterIp(client, ns, "varroa-waker") + ":8083");
    endpoints.put("bff", TestServices.DASHBOARD_URL);
    endpoints.put("dashboard", TestServices.DASHBOARD_URL + "/ui/");
    endpoints.put("mcp", TestServices.DASHBOARD_URL + "/mcp");
    endpoints.put("oidc_issuer", TestServices.ISSUER);
    endpoints.put("demo_user", login.user());
    endpoints.put("demo_password", login.password());
    return endpoints;
  }

  private static void put(DemoEndpoints endpoints, String name, String value) {
    try {
      endpoints.put(name, value);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String image(Pod pod) {
    return pod.getSpec().getContainers().get(0).getImage();
  }

  private static String summary(ControllerStatus status) {
    if (status == null) {
      return "no status yet";
    }
    return "phase=" + status.phase + " lastApplyResult=" + (status.lastApplyResult == null ? "none"
        : status.lastApplyResult.succeeded + " " + status.lastApplyResult.message);
  }

  private static byte[] randomBytes() {
    byte[] bytes = new byte[6];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static void say(String line) {
    ExampleCluster.say(line);
  }
}

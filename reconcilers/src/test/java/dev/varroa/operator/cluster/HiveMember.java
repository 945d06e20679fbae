package dev.varroa.operator.cluster;

import dev.varroa.operator.install.ChartContainer;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.testfixtures.helm.HelmChart;
import dev.varroa.testfixtures.helm.RenderedManifests;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import dev.varroa.testfixtures.s3.S3Server;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A member cluster installed the way docs/member-clusters.md says, on its own API server: the core's Secret
 * {@code varroa-nats-creds-<member>} copied in as {@code varroa-nats-creds} (its three keys only), the core's blob
 * store credential copied in, {@code values-hive.yaml} rendered with {@code cluster.name}, {@code bus.url} and the s3
 * record store, and the rendered operator and gateway containers run as their own JVMs with the environment and the
 * mounted Secrets of their pods (see {@link ChartContainer}). Only what a pod on loopback must differ in is
 * overridden: listen ports, the kubeconfig (the admin's, impersonating the operator's ServiceAccount under the
 * release's RBAC, where a pod has its account's token), and the gateway address the operator hands the mites (the
 * loopback port instead of the Service).
 */
public final class HiveMember implements AutoCloseable {
  public static final String NAMESPACE = "varroa-system";
  /** The Secret the member's values name as recordStore.blobs.s3.existingSecret. */
  static final String BLOB_SECRET = "varroa-blobs";
  private static final Duration READY_DEADLINE = Duration.ofSeconds(120);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  private final KubernetesClient member;
  private final String cluster;
  private final Path kubeconfig;
  private final Path dir;
  private final RenderedManifests rendered;
  private final HelmChart.Render values;
  private final int gatewayPort = LoopbackPort.pickFree();
  private final List<LocalProcess> operators = new ArrayList<>();
  private LocalProcess operator;
  private LocalProcess gateway;

  private HiveMember(KubernetesClient member, String cluster, Path kubeconfig, Path dir, RenderedManifests rendered,
      HelmChart.Render values) {
    this.member = member;
    this.values = values;
    this.cluster = cluster;
    this.kubeconfig = kubeconfig;
    this.dir = dir;
    this.rendered = rendered;
  }

  /** The core's object store as a member reaches it: the bucket URL, its region and the credential copied in. */
  public record Blobs(String bucketUrl, String region, String accessKeyId, String secretAccessKey) {
    public static Blobs of(S3Server s3) {
      return new Blobs(s3.bucketUrl(), s3.region(), s3.accessKeyId(), s3.secretAccessKey());
    }
  }

  /** The values a member sets on top of values-hive.yaml (docs/member-clusters.md, seed 002's record store table). */
  static HelmChart.Render values(String cluster, String busUrl, Blobs s3) {
    return HelmChart.Render.in(NAMESPACE).values(Path.of("values-hive.yaml")).set("cluster.name", cluster)
        .set("bus.url", busUrl).set("networkPolicy.coreNatsEgress.cidrs", "{" + hostCidr(busUrl) + "}")
        .set("recordStore.enabled", "true").set("recordStore.postgres.mode", "external")
        .set("recordStore.blobs.mode", "s3").set("recordStore.blobs.s3.url", s3.bucketUrl())
        .set("recordStore.blobs.s3.region", s3.region()).set("recordStore.blobs.s3.existingSecret", BLOB_SECRET)
        .set("networkPolicy.recordStoreBlobEgress.cidrs", "{" + hostCidr(s3.bucketUrl()) + "}");
  }

  /** The address of a URL's (first) host as a /32: what the member's egress policies must let through. */
  static String hostCidr(String url) {
    return URI.create(url.split(",")[0]).getHost() + "/32";
  }

  /**
   * Copies the member's Secrets from the core and renders its release; starts nothing yet.
   *
   * @param memberSecret the core's varroa-nats-creds-&lt;member&gt;
   */
  public static HiveMember install(KubernetesClient member, String kubeconfigYaml, String cluster, String busUrl,
      Secret memberSecret, Blobs s3, Path dir) throws IOException {
    // the release namespace enforces the restricted Pod Security level, as docs/install.md suggests: the pods created
    // from the rendered templates below are admitted by it
    member.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE)
        .addToLabels("pod-security.kubernetes.io/enforce", "restricted")
        .addToLabels("pod-security.kubernetes.io/warn", "restricted").endMetadata().build()).create();
    Map<String, String> keys = new LinkedHashMap<>();
    for (String key : List.of(InstallationSecrets.KEY_OPERATOR_PASSWORD, InstallationSecrets.KEY_GATEWAY_PASSWORD,
        InstallationSecrets.KEY_CA_CERT)) {
      keys.put(key, memberSecret.getData().get(key));
    }
    member.resource(new SecretBuilder().withNewMetadata().withName(InstallationSecrets.NATS_CREDS_SECRET)
        .withNamespace(NAMESPACE).endMetadata().withType(memberSecret.getType()).withData(keys).build()).create();
    member.resource(new SecretBuilder().withNewMetadata().withName(BLOB_SECRET).withNamespace(NAMESPACE).endMetadata()
        .withStringData(Map.of("access-key-id", s3.accessKeyId(), "secret-access-key", s3.secretAccessKey())).build())
        .create();
    HelmChart.Render values = values(cluster, busUrl, s3);
    RenderedManifests rendered;
    try (HelmChart chart = HelmChart.varroa()) {
      rendered = chart.template(values);
    }
    Path kubeconfig = Files.writeString(Files.createDirectories(dir).resolve("kubeconfig.yaml"), kubeconfigYaml);
    return new HiveMember(member, cluster, kubeconfig, dir, rendered, values);
  }

  /**
   * {@code helm install --dry-run=server} of the member's values against its API server, before anything of the
   * release exists there (helm refuses objects it did not create).
   */
  public HelmChart.Result helmInstallDryRun() {
    if (!operators.isEmpty()) {
      throw new IllegalStateException("run the dry run before the first operator: its pod and ServiceAccounts "
          + "are not helm's");
    }
    try (HelmChart chart = HelmChart.varroa()) {
      List<String> args = new ArrayList<>(List.of("install", "varroa", chart.chartDirectory().toString(),
          "--dry-run=server", "--kubeconfig", kubeconfig.toString()));
      args.addAll(values.arguments(chart.chartDirectory()));
      return chart.run(args);
    }
  }

  public String cluster() {
    return cluster;
  }

  /** Starts a new operator replica, as a new pod of the Deployment: ready once its /readyz answers. */
  public LocalProcess startOperator() throws IOException, InterruptedException {
    String pod = "varroa-operator-" + (operators.size() + 1);
    Map<String, String> env = podEnvironment("varroa-operator", "operator", pod);
    int http = LoopbackPort.pickFree();
    env.put("VARROA_HTTP_PORT", Integer.toString(http));
    env.put("VARROA_WEBHOOK_PORT", Integer.toString(LoopbackPort.pickFree()));
    env.put("VARROA_WAKER_PORT", Integer.toString(LoopbackPort.pickFree()));
    env.put("VARROA_GATEWAY_ENDPOINT", LoopbackPort.HOST + ":" + gatewayPort);
    env.put("KUBECONFIG", kubeconfig.toString());
    // the admin kubeconfig, impersonating the pod's ServiceAccount: the API server judges each request by the
    // release's RBAC, as it would the pod's token (fabric8 reads these as it reads the kubeconfig)
    env.put("KUBERNETES_IMPERSONATE_USERNAME", serviceAccountUser("varroa-operator"));
    env.put("KUBERNETES_IMPERSONATE_GROUP", "system:serviceaccounts,system:serviceaccounts:" + NAMESPACE
        + ",system:authenticated");
    operator = LocalProcess.start(pod, java(env, "dev.varroa.operator.VarroaOperator"),
        dir.resolve(pod + ".log"), READY_DEADLINE, () -> HTTP.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + http + "/readyz")).build(), HttpResponse.BodyHandlers.discarding())
            .statusCode() == 200);
    operators.add(operator);
    return operator;
  }

  public static String serviceAccountUser(String account) {
    return "system:serviceaccount:" + NAMESPACE + ":" + account;
  }

  /** SIGKILL to the running operator replica, as a crashed node ends it. */
  public void killOperator() throws InterruptedException {
    operator.kill();
  }

  /** Starts the gateway once the operator made varroa-ca: ready once its port accepts connections. */
  public LocalProcess startGateway() throws IOException, InterruptedException {
    Map<String, String> env = podEnvironment("varroa-gateway", "gateway", "varroa-gateway-1");
    env.put("VARROA_GATEWAY_LISTEN", LoopbackPort.HOST + ":" + gatewayPort);
    // a pod is reached through its Service's names; here the mites dial the loopback address
    env.put("VARROA_TLS_IP_ADDRESSES", LoopbackPort.HOST);
    gateway = LocalProcess.start("varroa-gateway-1", java(env, "dev.varroa.gateway.GatewayMain"),
        dir.resolve("varroa-gateway-1.log"), READY_DEADLINE, () -> {
          try (java.net.Socket socket = new java.net.Socket(LoopbackPort.HOST, gatewayPort)) {
            return socket.isConnected();
          }
        });
    return gateway;
  }

  public Path gatewayLog() {
    return dir.resolve("varroa-gateway-1.log");
  }

  /** The log files of the operator replicas started so far. */
  public List<Path> operatorLogFiles() {
    return operators.stream().map(LocalProcess::logFile).toList();
  }

  /** Every operator replica's log so far, oldest replica first. */
  public String operatorLogs() throws IOException {
    StringBuilder all = new StringBuilder();
    for (LocalProcess replica : operators) {
      all.append(Files.readString(replica.logFile()));
    }
    return all.toString();
  }

  /** The rendered pod's environment, with the pod created on the API server as the kubelet would see it. */
  private Map<String, String> podEnvironment(String deployment, String container, String pod) throws IOException {
    if (member.serviceAccounts().inNamespace(NAMESPACE).withName(deployment).get() == null) {
      // the release's ServiceAccounts (the API server takes a pod only when its account exists) and their RBAC
      for (Class<? extends HasMetadata> kind : List.of(ServiceAccount.class, ClusterRole.class,
          ClusterRoleBinding.class, Role.class, RoleBinding.class)) {
        rendered.all(kind).forEach(o -> member.resource(o).serverSideApply());
      }
    }
    PodSpec spec = rendered.get(Deployment.class, deployment).getSpec().getTemplate().getSpec();
    member.pods().inNamespace(NAMESPACE).resource(new PodBuilder().withNewMetadata().withName(pod)
        .withNamespace(NAMESPACE).withLabels(rendered.get(Deployment.class, deployment).getSpec().getTemplate()
            .getMetadata().getLabels()).endMetadata().withSpec(spec).build()).create();
    return new LinkedHashMap<>(ChartContainer.of(spec, container).environment(member, NAMESPACE, pod,
        Files.createDirectories(dir.resolve(pod))));
  }

  private static List<String> java(Map<String, String> env, String mainClass) {
    List<String> command = new ArrayList<>(List.of("env"));
    env.forEach((k, v) -> command.add(k + "=" + v));
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
        System.getProperty("java.class.path"), mainClass));
    return command;
  }

  @Override
  public void close() throws InterruptedException {
    if (gateway != null) {
      gateway.close();
    }
    for (LocalProcess replica : operators) {
      replica.close();
    }
  }
}

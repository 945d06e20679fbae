package dev.varroa.operator.demo;

import dev.varroa.api.v1alpha1.VarroaRole;
import dev.varroa.api.v1alpha1.VarroaRoleBinding;
import dev.varroa.testfixtures.ProjectLayout;
import dev.varroa.testfixtures.oidc.OidcProvider;
import dev.varroa.testfixtures.oidc.OidcProviderProcess;
import dev.varroa.testfixtures.process.LocalProcess;
import dev.varroa.testfixtures.process.LoopbackPort;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's BFF: the OpenID provider with one demo user, a VarroaRoleBinding that lets that user read everything,
 * and the BFF itself as its own process (dev.varroa.dashboard.BffMain, configured by environment as in the image),
 * reading NATS, the record store as varroa_dashboard, and the blob store.
 */
final class DemoBff implements AutoCloseable {

  static final String DEMO_USER = "demo";
  /** The loopback redirect varroactl login listens on by default. */
  static final String VARROACTL_REDIRECT = "http://localhost:8000/callback";
  static final String DB_ROLE = "varroa_dashboard";
  private static final Duration READY_DEADLINE = Duration.ofSeconds(90);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
  private static final KubernetesSerialization YAML = new KubernetesSerialization();

  private final OidcProviderProcess provider;
  private final LocalProcess bff;
  private final int port;
  private final String password;

  private DemoBff(OidcProviderProcess provider, LocalProcess bff, int port, String password) {
    this.provider = provider;
    this.bff = bff;
    this.port = port;
    this.password = password;
  }

  /** What the BFF reads besides NATS: the record store (as its own role) and the blob store. */
  record Stores(String jdbcUrl, String dbPassword, Map<String, String> blobEnv) {}

  /** The core's NATS as the BFF logs in: its chart user (dashboard), that user's password, the NATS CA. */
  record Bus(String url, String user, Path passwordFile, Path caFile) {}

  static DemoBff start(KubernetesClient client, Path work, Bus bus, String cluster, Stores stores)
      throws IOException, InterruptedException {
    grantDemoUser(client);
    String password = "demo-" + HexFormat.of().formatHex(randomBytes(6));
    int port = LoopbackPort.pickFree();
    OidcProviderProcess provider = OidcProviderProcess.start(
        List.of(new OidcProvider.User(DEMO_USER, DEMO_USER, password, "demo@example.com")),
        List.of(callback(port), VARROACTL_REDIRECT));
    try {
      Path secrets = Files.createDirectories(work.resolve("bff"));
      Path clientSecret = secrets.resolve("oidc-client-secret");
      Files.writeString(clientSecret, OidcProvider.WEB_CLIENT_SECRET);
      Path dbPassword = secrets.resolve("db-password");
      Files.writeString(dbPassword, stores.dbPassword());
      Map<String, String> env = new LinkedHashMap<>();
      env.put("VARROA_HTTP_PORT", String.valueOf(port));
      env.put("VARROA_CLUSTER_NAME", cluster);
      env.put("VARROA_NATS_URL", bus.url());
      env.put("VARROA_NATS_USER", bus.user());
      env.put("VARROA_NATS_PASSWORD_FILE", bus.passwordFile().toString());
      env.put("VARROA_NATS_CA_FILE", bus.caFile().toString());
      env.put("VARROA_RECORD_STORE_ENABLED", "true");
      env.put("VARROA_BFF_DSN", stores.jdbcUrl());
      env.put("VARROA_BFF_DB_USER", DB_ROLE);
      env.put("VARROA_BFF_DB_PASSWORD_FILE", dbPassword.toString());
      env.putAll(stores.blobEnv());
      env.put("VARROA_OIDC_ISSUER", provider.value().issuer());
      // the example provider's confidential client for the browser, its public client for varroactl
      env.put("VARROA_OIDC_CLIENT_ID", OidcProvider.WEB_CLIENT_ID);
      env.put("VARROA_OIDC_CLIENT_SECRET_FILE", clientSecret.toString());
      env.put("VARROA_OIDC_AUDIENCES", OidcProvider.WEB_CLIENT_ID + "," + OidcProvider.NATIVE_CLIENT_ID);
      env.put("VARROA_OIDC_CLI_CLIENT_ID", OidcProvider.NATIVE_CLIENT_ID);
      // the example provider's ID tokens carry no email claim: users are named by their subject
      env.put("VARROA_OIDC_USERNAME_CLAIM", "sub");
      env.put("VARROA_OIDC_SCOPES", "openid profile email");
      env.put("VARROA_BFF_PUBLIC_URL", "http://localhost:" + port);
      List<String> command = new ArrayList<>(List.of("env"));
      env.forEach((k, v) -> command.add(k + "=" + v));
      command.addAll(List.of(javaBinary(), "-Xmx256m", "-cp", classpath(), "dev.varroa.dashboard.BffMain"));
      LocalProcess bff = LocalProcess.start("bff", command, work.resolve("bff.log"), READY_DEADLINE,
          () -> HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
              HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
      return new DemoBff(provider, bff, port, password);
    } catch (RuntimeException | IOException | InterruptedException e) {
      provider.close();
      throw e;
    }
  }

  String url() {
    return "http://localhost:" + port;
  }

  /** The browser client, served by the BFF itself. */
  String dashboardUrl() {
    return url() + "/ui/";
  }

  String issuer() {
    return provider.value().issuer();
  }

  OidcProvider provider() {
    return provider.value();
  }

  String password() {
    return password;
  }

  String callback() {
    return callback(port);
  }

  Path log() {
    return bff.logFile();
  }

  /**
   * What a person sees through the BFF once the builds are recorded: every example Controller, each played run with
   * its whole console log, and the Controllers' activity; null when it all holds, else what is missing.
   */
  String check(List<String> controllers, List<PlayedBuild.Played> builds) throws IOException, InterruptedException {
    return reads().check(controllers, builds.stream().map(BffReads.ExpectedRun::played).toList());
  }

  /** Null when GET /clusters lists exactly these clusters, each healthy; else what differs. */
  String checkClusters(List<String> clusters) throws IOException, InterruptedException {
    return reads().checkClusters(clusters);
  }

  private BffReads reads() throws IOException, InterruptedException {
    return BffReads.loggedIn("http://127.0.0.1:" + port, provider.value(), callback(), DEMO_USER, password);
  }

  private static String callback(int port) {
    return "http://localhost:" + port + "/auth/callback";
  }

  /** The demo user reads everything; a real installation binds its own users and groups (docs/identity.md). */
  private static void grantDemoUser(KubernetesClient client) {
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRole
        metadata: {name: demo-reader}
        spec:
          rules:
            - verbs: [get, list, watch]
              resources: ["*"]
        """, VarroaRole.class)).createOr(existing -> existing.update());
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: VarroaRoleBinding
        metadata: {name: demo-reads-everything}
        spec:
          roleRef: {name: demo-reader}
          subjects: [{kind: User, name: demo}]
        """, VarroaRoleBinding.class)).createOr(existing -> existing.update());
  }

  private static byte[] randomBytes(int count) {
    byte[] bytes = new byte[count];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }

  private static String javaBinary() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** dashboard/target/classes and the dependencies `make build` listed in dashboard/target/classpath.txt. */
  private static String classpath() throws IOException {
    Path dashboard = ProjectLayout.root().resolve("dashboard").resolve("target");
    Path listed = dashboard.resolve("classpath.txt");
    if (!Files.exists(listed)) {
      throw new IllegalStateException(listed + " is missing: run make build");
    }
    return dashboard.resolve("classes") + java.io.File.pathSeparator + Files.readString(listed).trim();
  }

  @Override
  public void close() throws InterruptedException {
    try {
      bff.close();
    } finally {
      provider.close();
    }
  }

  @Override
  public String toString() {
    return "the BFF on port " + port;
  }
}

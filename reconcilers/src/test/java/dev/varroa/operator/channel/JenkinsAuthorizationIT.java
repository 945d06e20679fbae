package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.api.v1alpha1.Condition;
import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.JenkinsRole;
import dev.varroa.api.v1alpha1.JenkinsRoleBinding;
import dev.varroa.api.v1alpha1.Subject;
import dev.varroa.gateway.Gateway;
import dev.varroa.gateway.GatewaySettings;
import dev.varroa.gateway.ca.CertificateAuthority;
import dev.varroa.operator.OperatorSettings;
import dev.varroa.operator.VarroaOperator;
import dev.varroa.operator.render.JenkinsAuthorizationRenderer;
import dev.varroa.operator.render.resolve.InstallationDefaults;
import dev.varroa.operator.render.resolve.JenkinsLogin;
import dev.varroa.testfixtures.jenkins.ConfigurationSource;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.StarterProfile;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * JenkinsRole and JenkinsRoleBinding end to end: the operator on a real API server renders the bindings into the
 * Controller's JCasC with the OIDC realm as a public client (no secret reaches Jenkins), the real gateway and mite
 * deliver it, and the Jenkins contract fixture applies it; a changed binding reloads without a new pod; a binding whose plugin the profile lacks blocks.
 */
@WithKubeApiServer
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JenkinsAuthorizationIT {
  @RegisterExtension
  static final NatsServerExtension NATS = new NatsServerExtension();

  private static final Duration DEADLINE = Duration.ofSeconds(90);
  private static final KubernetesSerialization YAML = new KubernetesSerialization();
  private static final String OPERATOR_NAMESPACE = "varroa-system";
  /** A confidential client's secret left in the operator's namespace by an older install: it must reach no Jenkins. */
  private static final String CLIENT_SECRET = "oidc-client-secret-for-jenkins-7f3a";
  private static final JenkinsLogin LOGIN = new JenkinsLogin("https://dex.example.com/dex", "varroa-jenkins",
      "email", "groups", "openid profile email groups");
  /** The starter's plugins plus the two the bindings and the realm need. */
  private static final String AUTH_PROFILE_YAML = StarterProfile.PROFILE_YAML.replace("name: lts", "name: lts-auth")
      + "    - {id: matrix-auth, version: \"3.2.6\"}\n    - {id: oic-auth, version: \"4.482.v1140b_fe87a_33\"}\n";

  private final List<PodPlayer> pods = new ArrayList<>();
  private Gateway gateway;
  private VarroaOperator operator;
  private Path work;

  @BeforeAll
  void start(KubeApiServer kube, @TempDir Path dir) throws Exception {
    work = dir;
    KubernetesClient client = kube.client();
    for (String namespace : List.of("ci", "bare", OPERATOR_NAMESPACE)) {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .create();
    }
    StarterProfile.install(client, null);
    client.resource(YAML.unmarshal(AUTH_PROFILE_YAML, GenericKubernetesResource.class)).create();
    client.resource(new SecretBuilder().withNewMetadata().withName("varroa-jenkins-oidc")
        .withNamespace(OPERATOR_NAMESPACE).endMetadata().withStringData(Map.of("client-secret", CLIENT_SECRET))
        .build()).create();
    Path caCert = dir.resolve("ca.crt");
    CertificateAuthority ca = CertificateAuthority.createFiles(caCert, dir.resolve("ca.key"));
    gateway = Gateway.start(GatewaySettings.of("gw-1", NATS.server().url(), caCert, dir.resolve("ca.key"))
        .withListen("127.0.0.1", 0));
    ControlChannel channel = new ControlChannel(NATS.server().connect(), GatewaySettings.DEFAULT_CLUSTER_NAME,
        "127.0.0.1:" + gateway.port(),
        ca.certificatePem(), JenkinsTokenIssuer.generate(), Clock.systemUTC());
    operator = new VarroaOperator(client, OperatorSettings.defaults(dir.resolve("cache"))
        .withInstallation(InstallationDefaults.none().withJenkinsLogin(Optional.of(LOGIN))), channel);
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
  }

  @Test
  void aBindingReachesJenkinsAsMatrixAuthWithTheOidcRealmAndAChangeReloadsInPlace(KubeApiServer kube)
      throws Exception {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsRole
        metadata: {name: reader}
        spec: {permissions: [Overall/Read, Job/Read]}
        """, JenkinsRole.class)).create();
    client.resource(binding("ci-readers", "[{kind: Group, name: devs}, {kind: User, name: alice@example.com}]", "[ci]"))
        .create();
    PodPlayer pod = play(client, client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: secured, namespace: ci}
        spec: {versionProfileRef: {name: lts-auth}}
        """, Controller.class)).create());

    awaitStatus(client, "ci", "secured", s -> s.lastApplyResult != null
        && Boolean.TRUE.equals(s.lastApplyResult.succeeded));
    String applied = await().atMost(DEADLINE).until(() -> authorizationApplied(pod), Optional::isPresent).orElseThrow();
    assertThat(applied).contains("globalMatrix", "alice@example.com", "devs", "Overall/Read", "oic:",
        "wellKnownOpenIDConfigurationUrl: \"https://dex.example.com/dex/.well-known/openid-configuration\"",
        "clientSecret: \"\"", "pkceEnabled: true").doesNotContain(CLIENT_SECRET, "${");
    assertThat(pod.jenkins().lastAppliedConfiguration().orElseThrow().sources())
        .extracting(s -> Path.of(s.origin()).getFileName().toString()).doesNotContain("varroa-security.yaml");
    // what the tenant's Jenkins admin can read: the secret files the mite wrote hold no client secret
    try (Stream<Path> files = Files.isDirectory(pod.secretsDirectory()) ? Files.list(pod.secretsDirectory())
        : Stream.empty()) {
      for (Path file : files.toList()) {
        assertThat(file.getFileName().toString()).doesNotContain("OIDC");
        assertThat(Files.readString(file)).doesNotContain(CLIENT_SECRET);
      }
    }

    String podUid = client.pods().inNamespace("ci").withName(pod.pod().getMetadata().getName()).get()
        .getMetadata().getUid();
    String stsName = pod.pod().getMetadata().getName().replaceFirst("-0$", "");
    Long stsGeneration = client.apps().statefulSets().inNamespace("ci").withName(stsName).get().getMetadata()
        .getGeneration();
    client.resources(JenkinsRoleBinding.class).withName("ci-readers").edit(b -> {
      Subject bob = new Subject();
      bob.kind = Subject.Kind.User;
      bob.name = "bob@example.com";
      b.getSpec().subjects.add(bob);
      return b;
    });

    // the binding is watched: the next reload carries bob, in the same pod
    await().atMost(DEADLINE).until(() -> authorizationApplied(pod).filter(y -> y.contains("bob@example.com"))
        .isPresent());
    assertThat(client.pods().inNamespace("ci").withName(pod.pod().getMetadata().getName()).get().getMetadata()
        .getUid()).isEqualTo(podUid);
    assertThat(client.apps().statefulSets().inNamespace("ci").withName(stsName).get().getMetadata().getGeneration())
        .isEqualTo(stsGeneration);
  }

  @Test
  void aBindingWhosePluginIsNotInTheLockBlocksTheControllerNamingIt(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsRole
        metadata: {name: viewer}
        spec: {permissions: [Overall/Read]}
        """, JenkinsRole.class)).create();
    JenkinsRoleBinding binding = binding("bare-viewers", "[{kind: Group, name: qa}]", "[bare]");
    binding.getSpec().roleRef.name = "viewer";
    client.resource(binding).create();
    client.resource(YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: Controller
        metadata: {name: plain, namespace: bare}
        spec: {versionProfileRef: {name: lts}}
        """, Controller.class)).create();

    ControllerStatus status = awaitStatus(client, "bare", "plain", s -> "Blocked".equals(s.attention));
    assertThat(status.condition(Condition.RECONCILE_BLOCKED)).get().satisfies(c -> assertThat(c.message)
        .contains("JenkinsRoleBinding bare-viewers", "plugin matrix-auth", "JenkinsVersionProfile lts",
            "fix: add matrix-auth to JenkinsVersionProfile lts spec.plugins"));

    // the binding is watched: taking it away unblocks the Controller without any other change
    client.resources(JenkinsRoleBinding.class).withName("bare-viewers").delete();
    awaitStatus(client, "bare", "plain", s -> s.attention == null
        && s.condition(Condition.RECONCILE_BLOCKED).map(c -> c.status != Condition.Status.True).orElse(true));
  }

  private static Optional<String> authorizationApplied(PodPlayer pod) {
    return pod.jenkins().lastAppliedConfiguration().flatMap(applied -> applied.sources().stream()
        .filter(s -> Path.of(s.origin()).getFileName().toString().equals(JenkinsAuthorizationRenderer.FILE))
        .map(ConfigurationSource::yaml).findFirst());
  }

  private static JenkinsRoleBinding binding(String name, String subjects, String namespaces) {
    return YAML.unmarshal("""
        apiVersion: varroa.dev/v1alpha1
        kind: JenkinsRoleBinding
        metadata: {name: %s}
        spec:
          roleRef: {name: reader}
          subjects: %s
          namespaces: %s
        """.formatted(name, subjects, namespaces), JenkinsRoleBinding.class);
  }

  private PodPlayer play(KubernetesClient client, Controller controller) throws Exception {
    PodPlayer pod = new PodPlayer(client, controller, work.resolve("pods").resolve(controller.getMetadata().getName()));
    pods.add(pod);
    await().atMost(DEADLINE).until(pod::podCanStart);
    pod.start(PodPlayer.MiteRunner.inProcess(), p -> { });
    return pod;
  }

  private static ControllerStatus awaitStatus(KubernetesClient client, String namespace, String name,
      Predicate<ControllerStatus> wanted) {
    await().atMost(DEADLINE).until(() -> {
      Controller c = client.resources(Controller.class).inNamespace(namespace).withName(name).get();
      return c != null && c.getStatus() != null && wanted.test(c.getStatus());
    });
    return client.resources(Controller.class).inNamespace(namespace).withName(name).get().getStatus();
  }
}

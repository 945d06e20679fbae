package dev.varroa.operator.install;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.varroa.operator.channel.ChannelSettings;
import dev.varroa.operator.channel.ControlChannel;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.ServiceAccountClient;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The installation Secrets on a real API server, and the operator reaching a TLS NATS with them. */
@WithKubeApiServer
class InstallationSecretsIT {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();

  private static String namespace(KubernetesClient client) {
    String name = "varroa-install-" + NAMESPACES.incrementAndGet();
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    return name;
  }

  private static InstallationSettings settings(String namespace, InstallMode mode, List<String> ips) {
    return new InstallationSettings(namespace, mode, "core", List.of("varroa-nats." + namespace + ".svc"), ips,
        Optional.of("varroa-webhook-secret"));
  }

  private static InstallationSecrets.Material ensure(KubernetesClient client, InstallationSettings settings)
      throws IOException {
    return new InstallationSecrets(client, settings, Clock.systemUTC()).ensure();
  }

  private static Secret secret(KubernetesClient client, String namespace, String name) {
    return client.secrets().inNamespace(namespace).withName(name).get();
  }

  @Test
  void fullModeCreatesEverySecretOnceAndNeverRewritesThem(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);

    InstallationSecrets.Material first = ensure(client, settings(ns, InstallMode.FULL, List.of()));
    Map<String, String> versions = Map.of(
        "varroa-ca", secret(client, ns, "varroa-ca").getMetadata().getResourceVersion(),
        "varroa-jwt-signing", secret(client, ns, "varroa-jwt-signing").getMetadata().getResourceVersion(),
        "varroa-nats-creds", secret(client, ns, "varroa-nats-creds").getMetadata().getResourceVersion(),
        "varroa-nats-tls", secret(client, ns, "varroa-nats-tls").getMetadata().getResourceVersion(),
        "varroa-webhook-secret", secret(client, ns, "varroa-webhook-secret").getMetadata().getResourceVersion());
    InstallationSecrets.Material second = ensure(client, settings(ns, InstallMode.FULL, List.of()));

    assertThat(secret(client, ns, "varroa-nats-creds").getData()).containsOnlyKeys("operator-password",
        "gateway-password", "bff-password", "recorder-password", "ca.crt");
    assertThat(secret(client, ns, "varroa-nats-tls").getData()).containsOnlyKeys("tls.crt", "tls.key", "ca.crt",
        "ca.key");
    assertThat(secret(client, ns, "varroa-ca").getData()).containsOnlyKeys("ca.crt", "ca.key");
    assertThat(InstallationKeys.certificate(first.caCertificatePem()).getBasicConstraints()).isZero();
    // the members' copy of ca.crt is the NATS CA, not the Varroa CA that signs mites' certificates
    assertThat(InstallationSecrets.value(secret(client, ns, "varroa-nats-creds"), "ca.crt"))
        .isEqualTo(InstallationSecrets.value(secret(client, ns, "varroa-nats-tls"), "ca.crt"))
        .isNotEqualTo(first.caCertificatePem());
    versions.forEach((name, version) ->
        assertThat(secret(client, ns, name).getMetadata().getResourceVersion()).as(name).isEqualTo(version));
    assertThat(second.caCertificatePem()).isEqualTo(first.caCertificatePem());
    assertThat(second.jenkinsTokens().publicKeyPem()).isEqualTo(first.jenkinsTokens().publicKeyPem());
  }

  @Test
  void theSecretsItMakesBelongToTheOperatorServiceAccountSoUninstallTakesThemAway(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    // an older operator's Secret (no owner), and a user's own webhook Secret
    client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("varroa-ca")
        .addToLabels("app.kubernetes.io/managed-by", "varroa-operator").endMetadata()
        .withStringData(Map.of("ca.crt", InstallationKeys.newCa("old", Clock.systemUTC().instant()).certificatePem(),
            "ca.key", "unused")).build()).create();
    client.secrets().inNamespace(ns).resource(new SecretBuilder().withNewMetadata().withName("varroa-webhook-secret")
        .endMetadata().withStringData(Map.of("token", "the user's")).build()).create();
    ServiceAccount account = client.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName(InstallationOwner.SERVICE_ACCOUNT).endMetadata().build()).create();

    ensure(client, settings(ns, InstallMode.FULL, List.of()));

    for (String name : List.of("varroa-ca", "varroa-jwt-signing", "varroa-nats-creds", "varroa-nats-tls")) {
      assertThat(secret(client, ns, name).getMetadata().getOwnerReferences()).as(name).singleElement()
          .satisfies(o -> {
            assertThat(o.getKind()).isEqualTo("ServiceAccount");
            assertThat(o.getUid()).isEqualTo(account.getMetadata().getUid());
          });
    }
    assertThat(secret(client, ns, "varroa-webhook-secret").getMetadata().getOwnerReferences()).isEmpty();
  }

  @Test
  void theLeaderGivesTheLeaseTheSameOwner(KubeApiServer kube) {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    client.leases().inNamespace(ns).resource(new LeaseBuilder().withNewMetadata().withName("varroa-operator")
        .endMetadata().withNewSpec().withHolderIdentity("varroa-operator-7d9f-abcde").endSpec().build()).create();
    InstallationOwner owner = new InstallationOwner(client, ns);

    owner.adoptLease("varroa-operator");
    assertThat(client.leases().inNamespace(ns).withName("varroa-operator").get().getMetadata().getOwnerReferences())
        .as("no ServiceAccount yet: nothing to own it").isEmpty();

    ServiceAccount account = client.serviceAccounts().inNamespace(ns).resource(new ServiceAccountBuilder()
        .withNewMetadata().withName(InstallationOwner.SERVICE_ACCOUNT).endMetadata().build()).create();
    owner.adoptLease("varroa-operator");
    assertThat(client.leases().inNamespace(ns).withName("varroa-operator").get().getMetadata().getOwnerReferences())
        .singleElement().satisfies(o -> assertThat(o.getUid()).isEqualTo(account.getMetadata().getUid()));
    assertThat(client.leases().inNamespace(ns).withName("varroa-operator").get().getSpec().getHolderIdentity())
        .isEqualTo("varroa-operator-7d9f-abcde");
  }

  @Test
  void hiveModeMakesItsOwnCaButLeavesTheNatsSecretsToTheUser(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);

    ensure(client, settings(ns, InstallMode.HIVE, List.of()));

    assertThat(secret(client, ns, "varroa-ca")).isNotNull();
    assertThat(secret(client, ns, "varroa-jwt-signing")).isNotNull();
    assertThat(secret(client, ns, "varroa-nats-creds")).isNull();
    assertThat(secret(client, ns, "varroa-nats-tls")).isNull();
  }

  @Test
  void replicasStartingTogetherAgreeOnOneCa(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    InstallationSettings settings = settings(ns, InstallMode.FULL, List.of());

    List<CompletableFuture<InstallationSecrets.Material>> replicas = List.of(1, 2, 3).stream()
        .map(i -> CompletableFuture.supplyAsync(() -> {
          try {
            return ensure(client, settings);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        })).toList();

    assertThat(replicas.stream().map(CompletableFuture::join).map(InstallationSecrets.Material::caCertificatePem)
        .distinct()).hasSize(1);
  }

  @Test
  void aNewAddressReissuesTheNatsCertificateWithTheSameCaAndRollsNats(KubeApiServer kube) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    client.apps().statefulSets().inNamespace(ns).resource(natsStatefulSet()).create();
    ensure(client, settings(ns, InstallMode.FULL, List.of()));
    Secret before = secret(client, ns, "varroa-nats-tls");

    ensure(client, settings(ns, InstallMode.FULL, List.of("203.0.113.7")));

    Secret after = secret(client, ns, "varroa-nats-tls");
    String certificate = InstallationSecrets.value(after, "tls.crt");
    assertThat(certificate).isNotEqualTo(InstallationSecrets.value(before, "tls.crt"));
    assertThat(InstallationKeys.covers(certificate, List.of("varroa-nats." + ns + ".svc"), List.of("203.0.113.7"),
        Clock.systemUTC().instant())).isTrue();
    assertThat(InstallationSecrets.value(after, "ca.crt")).isEqualTo(InstallationSecrets.value(before, "ca.crt"));
    assertThat(client.apps().statefulSets().inNamespace(ns).withName("varroa-nats").get().getSpec().getTemplate()
        .getMetadata().getAnnotations()).containsEntry(InstallationSecrets.NATS_TLS_ANNOTATION,
        after.getMetadata().getResourceVersion());
  }

  @Test
  void theChartsServiceAccountMayCreateAndRenewThemAndRollNats(KubeApiServer kube) throws Exception {
    ServiceAccountClient account = ChartRbac.installOperatorAccount(kube, ChartRbac.render(), "installer");
    KubernetesClient admin = kube.client();
    admin.apps().statefulSets().inNamespace(ChartRbac.NAMESPACE).resource(natsStatefulSet()).create();
    InstallationSettings first = settings(ChartRbac.NAMESPACE, InstallMode.FULL, List.of());

    ensure(account.client(), first);
    ensure(account.client(), settings(ChartRbac.NAMESPACE, InstallMode.FULL, List.of("198.51.100.4")));

    assertThat(account.forbidden()).isEmpty();
    assertThat(admin.apps().statefulSets().inNamespace(ChartRbac.NAMESPACE).withName("varroa-nats").get().getSpec()
        .getTemplate().getMetadata().getAnnotations()).containsKey(InstallationSecrets.NATS_TLS_ANNOTATION);
  }

  private static io.fabric8.kubernetes.api.model.apps.StatefulSet natsStatefulSet() {
    return new StatefulSetBuilder().withNewMetadata().withName("varroa-nats").endMetadata().withNewSpec()
        .withNewSelector().addToMatchLabels("app", "nats").endSelector().withNewTemplate().withNewMetadata()
        .addToLabels("app", "nats").endMetadata().withNewSpec().addNewContainer().withName("nats").withImage("nats")
        .endContainer().endSpec().endTemplate().endSpec().build();
  }

  @Test
  void theOperatorReachesTlsNatsWithThePasswordFromTheSecretAndAWrongOneIsRefused(KubeApiServer kube,
      @TempDir Path dir) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    InstallationSecrets.Material material = ensure(client, settings(ns, InstallMode.FULL, List.of("127.0.0.1")));
    Secret tls = secret(client, ns, "varroa-nats-tls");
    Secret creds = secret(client, ns, "varroa-nats-creds");
    Files.writeString(dir.resolve("tls.crt"), InstallationSecrets.value(tls, "tls.crt"));
    Files.writeString(dir.resolve("tls.key"), InstallationSecrets.value(tls, "tls.key"));
    String config = """
        tls { cert_file: "%s", key_file: "%s" }
        authorization { users: [ {user: operator, password: "%s"} ] }
        """.formatted(dir.resolve("tls.crt"), dir.resolve("tls.key"),
        InstallationSecrets.value(creds, "operator-password"));

    try (NatsServerProcess nats = NatsServerProcess.startWithConfig(config)) {
      InstallationSettings installation = settings(ns, InstallMode.FULL, List.of("127.0.0.1"));
      ChannelSettings channel = InstalledChannelSettings.of(Map.of("VARROA_NATS_URL", nats.value().url()),
          client, installation, material).orElseThrow();
      try (ControlChannel opened = channel.open("core", Clock.systemUTC())) {
        assertThat(opened.endpoint().caCertificatePem()).isEqualTo(material.caCertificatePem());
      }

      Options wrongPassword = Options.builder().server(nats.value().url()).userInfo("operator", "not-the-password")
          .sslContext(dev.varroa.protocol.bus.BusTrust.trusting(InstallationSecrets.value(creds, "ca.crt"), "ca"))
          .connectionTimeout(Duration.ofSeconds(5)).noReconnect().build();
      assertThatThrownBy(() -> Nats.connect(wrongPassword).close()).hasMessageContaining("Authorization");
    }
  }

  @Test
  void makesEachMembersSecretWithExactlyTwoPasswordsAndTheNatsCaThatLogTheMemberIntoTheRenderedNats(
      KubeApiServer kube, @TempDir Path dir) throws Exception {
    KubernetesClient client = kube.client();
    String ns = namespace(client);
    InstallationSettings settings = new InstallationSettings(ns, InstallMode.FULL, "core",
        List.of("varroa-nats." + ns + ".svc"), List.of("127.0.0.1"), Optional.empty(), List.of("member-eu1"));
    ensure(client, settings);
    Secret member = secret(client, ns, "varroa-nats-creds-member-eu1");
    Secret core = secret(client, ns, "varroa-nats-creds");
    Secret tls = secret(client, ns, "varroa-nats-tls");

    // seed 002: the member's varroa-nats-creds holds only these; no private key, no BFF or recorder password
    assertThat(member.getData()).containsOnlyKeys("operator-password", "gateway-password", "ca.crt");
    assertThat(InstallationSecrets.value(member, "ca.crt")).isEqualTo(InstallationSecrets.value(tls, "ca.crt"));
    assertThat(InstallationSecrets.value(member, "operator-password"))
        .isNotEqualTo(InstallationSecrets.value(core, "operator-password"));
    assertThat(member.getMetadata().getOwnerReferences()).isEqualTo(core.getMetadata().getOwnerReferences());
    String version = member.getMetadata().getResourceVersion();
    ensure(client, settings);
    assertThat(secret(client, ns, "varroa-nats-creds-member-eu1").getMetadata().getResourceVersion())
        .as("a second start rewrites nothing").isEqualTo(version);

    // the core's rendered nats.conf, its passwords from the environment the pod builds from these Secrets
    Path tlsDir = Files.createDirectories(dir.resolve("nats-tls"));
    for (String key : List.of("tls.crt", "tls.key", "ca.crt")) {
      Files.writeString(tlsDir.resolve(key), InstallationSecrets.value(tls, key));
    }
    String config;
    try (dev.varroa.testfixtures.helm.HelmChart chart = dev.varroa.testfixtures.helm.HelmChart.varroa()) {
      config = ChartNatsConfig.forLoopback(chart.template(dev.varroa.testfixtures.helm.HelmChart.Render.in(ns)
              .set("networkPolicy.enabled", "false").set("nats.external.enabled", "true")
              .set("nats.external.host", "nats.example.com").set("nats.members", "{member-eu1}")),
          Map.of("SERVER_NAME", "varroa-nats-0",
              "OPERATOR_PASSWORD", InstallationSecrets.value(core, "operator-password"),
              "GATEWAY_PASSWORD", InstallationSecrets.value(core, "gateway-password"),
              "MEMBER_MEMBER_EU1_OPERATOR_PASSWORD", InstallationSecrets.value(member, "operator-password"),
              "MEMBER_MEMBER_EU1_GATEWAY_PASSWORD", InstallationSecrets.value(member, "gateway-password")))
          .replace("/etc/nats/tls/", tlsDir + "/");
    }
    try (NatsServerProcess nats = NatsServerProcess.startWithConfig(config)) {
      // what the member holds after the copy: it trusts the core's NATS and logs in as its own two users
      for (String component : List.of("operator", "gateway")) {
        Options options = Options.builder().server(nats.value().url())
            .userInfo(component + "-member-eu1", InstallationSecrets.value(member, component + "-password"))
            .sslContext(dev.varroa.protocol.bus.BusTrust.trusting(InstallationSecrets.value(member, "ca.crt"),
                "varroa-nats-creds-member-eu1 ca.crt"))
            .connectionTimeout(Duration.ofSeconds(5)).noReconnect().build();
        try (io.nats.client.Connection connection = Nats.connect(options)) {
          assertThat(connection.getStatus()).as(component).isEqualTo(io.nats.client.Connection.Status.CONNECTED);
        }
      }
      Options corePassword = Options.builder().server(nats.value().url())
          .userInfo("operator-member-eu1", InstallationSecrets.value(core, "operator-password"))
          .sslContext(dev.varroa.protocol.bus.BusTrust.trusting(InstallationSecrets.value(member, "ca.crt"), "ca"))
          .connectionTimeout(Duration.ofSeconds(5)).noReconnect().build();
      assertThatThrownBy(() -> Nats.connect(corePassword).close()).hasMessageContaining("Authorization");
    }
  }
}

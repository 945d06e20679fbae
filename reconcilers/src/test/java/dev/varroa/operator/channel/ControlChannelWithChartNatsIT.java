package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.install.ChartNatsConfig;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.install.InstallMode;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.operator.install.InstallationSettings;
import dev.varroa.protocol.BusNames;
import dev.varroa.protocol.bus.BusTrust;
import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.nats.NatsServerProcess;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.nats.client.Nats;
import io.nats.client.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;

/**
 * The control channel of {@link ControlChannelIT} over NATS configured by the chart: its rendered nats.conf
 * (TLS with the certificate the operator issued, one user per component, each with only its subjects),
 * the passwords from {@code varroa-nats-creds}. The server must log no permission violation.
 */
class ControlChannelWithChartNatsIT extends ControlChannelIT {
  private NatsServerProcess nats;

  @Override
  protected Bus bus(KubeApiServer kube, Path dir) throws Exception {
    KubernetesClient admin = kube.client();
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ChartRbac.NAMESPACE).endMetadata()
        .build()).create();
    new InstallationSecrets(admin, new InstallationSettings(ChartRbac.NAMESPACE, InstallMode.FULL, "core",
        List.of("varroa-nats.varroa-system.svc"), List.of("127.0.0.1"), Optional.empty()), Clock.systemUTC()).ensure();
    Secret tls = admin.secrets().inNamespace(ChartRbac.NAMESPACE).withName(InstallationSecrets.NATS_TLS_SECRET).get();
    Secret creds = admin.secrets().inNamespace(ChartRbac.NAMESPACE).withName(InstallationSecrets.NATS_CREDS_SECRET)
        .get();
    Path tlsDir = Files.createDirectories(dir.resolve("nats-tls"));
    for (String key : List.of("tls.crt", "tls.key", "ca.crt")) {
      Files.writeString(tlsDir.resolve(key), value(tls, key));
    }
    String operatorPassword = value(creds, InstallationSecrets.KEY_OPERATOR_PASSWORD);
    String config = ChartNatsConfig.forLoopback(Map.of("SERVER_NAME", "varroa-nats-0",
            "OPERATOR_PASSWORD", operatorPassword,
            "GATEWAY_PASSWORD", value(creds, InstallationSecrets.KEY_GATEWAY_PASSWORD)))
        // the pod's mount of varroa-nats-tls
        .replace("/etc/nats/tls/", tlsDir + "/");
    nats = NatsServerProcess.startWithConfig(config);
    Path passwordFile = Files.writeString(dir.resolve("nats-password"),
        value(creds, InstallationSecrets.KEY_GATEWAY_PASSWORD) + "\n");
    String natsCa = value(creds, InstallationSecrets.KEY_CA_CERT);
    Path caFile = Files.writeString(dir.resolve("nats-ca.crt"), natsCa);
    return new Bus(nats.value().url(), nats.value().storeDirectory(),
        // as ChannelSettings connects: the operator's own inbox prefix, which only its user may subscribe to
        () -> Nats.connect(Options.builder().server(nats.value().url()).userInfo("operator", operatorPassword)
            .sslContext(BusTrust.trusting(natsCa, "varroa-nats-creds ca.crt")).connectionTimeout(Duration.ofSeconds(5))
            .inboxPrefix(BusNames.operatorInboxPrefix("core")).maxReconnects(-1).build()),
        // as the chart's gateway Deployment sets them: VARROA_NATS_USER, the password and CA mounted from the Secret
        settings -> settings.withNatsUser("gateway", passwordFile).withNatsCaFile(caFile),
        // the chart's default cluster.name, which its nats.conf scopes the control subjects to
        "core");
  }

  @AfterAll
  void noPermissionWasViolated() throws Exception {
    try {
      assertThat(nats.log()).doesNotContainIgnoringCase("violation");
    } finally {
      nats.close();
    }
  }

  private static String value(Secret secret, String key) {
    return new String(java.util.Base64.getDecoder().decode(secret.getData().get(key)),
        java.nio.charset.StandardCharsets.UTF_8);
  }
}

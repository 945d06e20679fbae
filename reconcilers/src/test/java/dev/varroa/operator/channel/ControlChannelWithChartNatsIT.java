package dev.varroa.operator.channel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.operator.install.ChartCoreNats;
import dev.varroa.operator.install.ChartRbac;
import dev.varroa.operator.install.InstallationSecrets;
import dev.varroa.testfixtures.kube.KubeApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * The control channel of {@link ControlChannelIT} over NATS configured by the chart ({@link ChartCoreNats}): its
 * rendered nats.conf (TLS with the certificate the operator issued, one user per component, each with only its
 * subjects), the passwords from {@code varroa-nats-creds}. The server must log no permission violation.
 */
class ControlChannelWithChartNatsIT extends ControlChannelIT {
  private ChartCoreNats nats;

  @Override
  protected Bus bus(KubeApiServer kube, Path dir) throws Exception {
    nats = ChartCoreNats.start(kube.client(), ChartRbac.NAMESPACE, List.of(), dir.resolve("nats"));
    Path passwordFile = Files.writeString(dir.resolve("nats-password"),
        nats.password(InstallationSecrets.KEY_GATEWAY_PASSWORD) + "\n");
    Path caFile = Files.writeString(dir.resolve("nats-ca.crt"), nats.caPem());
    return new Bus(nats.url(), nats.storeDirectory(),
        // as ChannelSettings connects: the operator's own inbox prefix, which only its user may subscribe to
        () -> nats.connect("operator", InstallationSecrets.KEY_OPERATOR_PASSWORD),
        // as the chart's gateway Deployment sets them: VARROA_NATS_USER, the password and CA mounted from the Secret
        settings -> settings.withNatsUser("gateway", passwordFile).withNatsCaFile(caFile),
        // the chart's default cluster.name, which its nats.conf scopes the control subjects to
        ChartCoreNats.CORE);
  }

  @AfterAll
  void noPermissionWasViolated() throws Exception {
    try {
      assertThat(nats.log()).doesNotContainIgnoringCase("violation");
    } finally {
      nats.close();
    }
  }
}

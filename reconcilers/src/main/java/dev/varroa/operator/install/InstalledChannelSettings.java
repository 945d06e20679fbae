package dev.varroa.operator.install;

import dev.varroa.operator.channel.ChannelSettings;
import dev.varroa.operator.render.ChannelEndpoint;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;

/**
 * The control channel of an installation made by the chart: the CA and the signing key come from the installation
 * Secrets, the NATS password and CA from {@code varroa-nats-creds} (read through the API, see
 * {@link SecretBusCredential}). It lives here, not in the channel package, so the channel knows nothing of how an
 * installation keeps its Secrets.
 */
public final class InstalledChannelSettings {

  private InstalledChannelSettings() {}

  /** Empty without VARROA_NATS_URL: the operator then runs without a control channel. */
  public static Optional<ChannelSettings> of(Map<String, String> env, KubernetesClient client,
      InstallationSettings installation, InstallationSecrets.Material material) {
    String url = env.get(ChannelSettings.ENV_NATS_URL);
    if (url == null || url.isBlank()) {
      return Optional.empty();
    }
    SecretBusCredential creds = new SecretBusCredential(client, installation.namespace(),
        env.getOrDefault(ChannelSettings.ENV_NATS_CREDS_SECRET, InstallationSecrets.NATS_CREDS_SECRET),
        env.getOrDefault(ChannelSettings.ENV_NATS_USER, ChannelSettings.DEFAULT_NATS_USER),
        InstallationSecrets.KEY_OPERATOR_PASSWORD);
    return Optional.of(new ChannelSettings(url, creds, () -> creds.value(InstallationSecrets.KEY_CA_CERT),
        env.getOrDefault(ChannelSettings.ENV_GATEWAY_ENDPOINT, ChannelEndpoint.DEFAULT_GATEWAY_ENDPOINT),
        material.caCertificatePem(), material.jenkinsTokens()));
  }
}

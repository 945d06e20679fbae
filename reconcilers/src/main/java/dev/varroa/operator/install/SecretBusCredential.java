package dev.varroa.operator.install;

import dev.varroa.protocol.bus.BusCredential;
import dev.varroa.protocol.bus.BusCredentialSource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's NATS password, read from {@code varroa-nats-creds} through the API before every
 * connect attempt: the operator does not mount the Secret (in full mode it creates it), and a
 * rotated password takes effect at the next reconnect.
 */
public final class SecretBusCredential implements BusCredentialSource {
  private static final Logger LOG = LoggerFactory.getLogger(SecretBusCredential.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String secretName;
  private final String user;
  private final String passwordKey;

  public SecretBusCredential(KubernetesClient client, String namespace, String secretName, String user,
      String passwordKey) {
    this.client = client;
    this.namespace = namespace;
    this.secretName = secretName;
    this.user = user;
    this.passwordKey = passwordKey;
  }

  @Override
  public Optional<BusCredential> read() {
    return value(passwordKey).map(password -> new BusCredential(user, password.strip()));
  }

  /** Another key of the same Secret, e.g. ca.crt; empty (and logged) when the Secret or key is missing. */
  public Optional<String> value(String key) {
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(secretName).get();
    } catch (KubernetesClientException e) {
      LOG.warn("event=nats_credential_unreadable secret={}/{} error=\"{}\"", namespace, secretName, e.getMessage());
      return Optional.empty();
    }
    Optional<String> encoded = Optional.ofNullable(secret).map(Secret::getData).map(d -> d.get(key));
    if (encoded.isEmpty()) {
      LOG.warn("event=nats_credential_missing secret={}/{} key={} fix=\"{}\"", namespace, secretName, key,
          "on a member, create it with operator-password, gateway-password and ca.crt copied from the core's "
              + "varroa-nats-creds-<cluster.name> (docs/member-clusters.md)");
      return Optional.empty();
    }
    return Optional.of(new String(Base64.getDecoder().decode(encoded.get()), StandardCharsets.UTF_8));
  }
}

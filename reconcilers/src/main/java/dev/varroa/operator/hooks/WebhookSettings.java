package dev.varroa.operator.hooks;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * The receiver's settings from the operator's environment. The shared secret is a key of a Secret in
 * the operator's own namespace; without {@value #ENV_SECRET} every delivery is refused.
 *
 * @param secretName the Secret holding the shared secret; empty when not set
 * @param secretKey the key of that Secret
 * @param port the receiver's port
 */
public record WebhookSettings(Optional<String> secretName, String secretKey, int port) {
  /** Name of the Secret, in the operator's namespace, that holds the shared secret. */
  public static final String ENV_SECRET = "VARROA_WEBHOOK_SECRET";
  /** The key of that Secret. */
  public static final String ENV_SECRET_KEY = "VARROA_WEBHOOK_SECRET_KEY";
  public static final String DEFAULT_SECRET_KEY = "token";
  public static final String ENV_PORT = "VARROA_WEBHOOK_PORT";

  public static WebhookSettings fromEnv(Map<String, String> env) {
    Optional<String> name = Optional.ofNullable(env.get(ENV_SECRET)).map(String::strip).filter(s -> !s.isEmpty());
    String key = Optional.ofNullable(env.get(ENV_SECRET_KEY)).map(String::strip).filter(s -> !s.isEmpty())
        .orElse(DEFAULT_SECRET_KEY);
    String port = env.getOrDefault(ENV_PORT, String.valueOf(WebhookReceiver.DEFAULT_PORT)).strip();
    try {
      return new WebhookSettings(name, key, Integer.parseInt(port));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(ENV_PORT + "='" + port + "' is not a port number; fix: set it to a port"
          + " such as " + WebhookReceiver.DEFAULT_PORT + ", or leave it unset", e);
    }
  }

  /**
   * The secret the receiver checks deliveries against, read from the API server in the namespace.
   *
   * @param clock when the Secret was last read, for its re-read interval: the operator's clock
   */
  public WebhookSecret secret(KubernetesClient client, String namespace, Clock clock) {
    return secretName.<WebhookSecret>map(name -> new KubernetesWebhookSecret(client, namespace, name, secretKey,
            KubernetesWebhookSecret.REREAD_AFTER, clock))
        .orElseGet(() -> WebhookSecret.unset(ENV_SECRET + " is not set; fix: set it to the name of a Secret in "
            + namespace + " whose key '" + secretKey + "' holds the shared secret"));
  }
}

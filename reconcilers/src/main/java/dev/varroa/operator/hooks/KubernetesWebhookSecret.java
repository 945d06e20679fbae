package dev.varroa.operator.hooks;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared secret as one key of a Kubernetes Secret, read again once {@link #REREAD_AFTER} has passed:
 * a rotated value is used within seconds without a restart, and a burst of deliveries (forged ones
 * included) costs the API server at most one read per period.
 */
public final class KubernetesWebhookSecret implements WebhookSecret {
  /** How long a value read is used before the Secret is read again. */
  public static final Duration REREAD_AFTER = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(KubernetesWebhookSecret.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final String key;
  private final Duration rereadAfter;
  private final Clock clock;
  private volatile Read last;

  public KubernetesWebhookSecret(KubernetesClient client, String namespace, String name, String key,
      Duration rereadAfter, Clock clock) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
    this.key = key;
    this.rereadAfter = rereadAfter;
    this.clock = clock;
  }

  @Override
  public SecretLookup current() {
    Read previous = last;
    Instant now = clock.instant();
    if (previous != null && now.isBefore(previous.at.plus(rereadAfter))) {
      return previous.lookup;
    }
    SecretLookup lookup = read(previous);
    if (previous == null || previous.lookup.isFound() != lookup.isFound()
        || !Objects.equals(previous.lookup.problem(), lookup.problem())) {
      if (lookup.isFound()) {
        LOG.info("event=webhook_secret_read secret={}/{} key={}", namespace, name, key);
      } else {
        LOG.warn("event=webhook_secret_missing secret={}/{} key={} reason=\"{}\"", namespace, name, key, lookup.problem());
      }
    }
    last = new Read(lookup, now);
    return lookup;
  }

  private SecretLookup read(Read previous) {
    String where = "Secret " + namespace + "/" + name;
    Secret secret;
    try {
      secret = client.secrets().inNamespace(namespace).withName(name).get();
    } catch (KubernetesClientException e) {
      // An API hiccup must not lock out deliveries: the value read before stays in force until it answers.
      if (previous != null && previous.lookup.isFound()) {
        LOG.warn("event=webhook_secret_reread_failed secret={}/{} code={} effect=\"the value read before stays in use\"",
            namespace, name, e.getCode());
        return previous.lookup;
      }
      return SecretLookup.missing("cannot read " + where + " (HTTP " + e.getCode() + "); fix: let the operator's"
          + " ServiceAccount get Secrets in " + namespace);
    }
    if (secret == null) {
      return SecretLookup.missing(where + " does not exist; fix: create it with key '" + key
          + "' holding the shared secret the webhooks send");
    }
    String encoded = secret.getData() == null ? null : secret.getData().get(key);
    if (encoded == null) {
      return SecretLookup.missing(where + " has no key '" + key + "'; fix: add it, or set "
          + WebhookSettings.ENV_SECRET_KEY + " to the key that holds the shared secret");
    }
    String value;
    try {
      value = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8).strip();
    } catch (IllegalArgumentException e) {
      return SecretLookup.missing("key '" + key + "' of " + where + " is not base64; fix: write the value with kubectl");
    }
    if (value.isEmpty()) {
      return SecretLookup.missing("key '" + key + "' of " + where + " is empty; fix: put the shared secret in it");
    }
    return SecretLookup.found(value.getBytes(StandardCharsets.UTF_8));
  }

  /** A lookup and when it was made. */
  private record Read(SecretLookup lookup, Instant at) {}
}

package dev.varroa.operator.controller;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The values of the Secrets Controllers reference, read once per resourceVersion: the metadata-only
 * informer says which version is current, and only a new version costs a GET.
 */
final class SecretValues {
  private record Read(String resourceVersion, Secret secret) {}

  private final BiFunction<String, String, Optional<Secret>> metadata;
  private final Map<String, Read> reads = new ConcurrentHashMap<>();

  /** @param metadata (namespace, name) to the Secret's metadata as the informer holds it */
  SecretValues(BiFunction<String, String, Optional<Secret>> metadata) {
    this.metadata = metadata;
  }

  /** The Secret with its values; empty when the informer holds no such Secret. */
  Optional<Secret> read(KubernetesClient client, String namespace, String name) {
    String key = namespace + "/" + name;
    Optional<Secret> current = metadata.apply(namespace, name);
    if (current.isEmpty()) {
      reads.remove(key);
      return Optional.empty();
    }
    String version = current.get().getMetadata().getResourceVersion();
    Read last = reads.get(key);
    if (last != null && last.resourceVersion().equals(version)) {
      return Optional.of(last.secret());
    }
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      reads.remove(key);
      return Optional.empty();
    }
    reads.put(key, new Read(secret.getMetadata().getResourceVersion(), secret));
    return Optional.of(secret);
  }

  void forget(String namespace, String name) {
    reads.remove(namespace + "/" + name);
  }
}

package dev.varroa.operator.controller;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The Secret informer's store: it keeps each Secret's metadata and type and drops its values, so the
 * operator learns of every change without holding the cluster's secrets in memory.
 */
final class SecretMetadataStore extends BasicItemStore<Secret> {
  SecretMetadataStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public Secret put(String key, Secret secret) {
    return super.put(key, metadataOnly(secret));
  }

  static Secret metadataOnly(Secret secret) {
    Secret stripped = new SecretBuilder().withMetadata(secret.getMetadata()).withType(secret.getType()).build();
    stripped.getMetadata().setManagedFields(null);
    return stripped;
  }
}

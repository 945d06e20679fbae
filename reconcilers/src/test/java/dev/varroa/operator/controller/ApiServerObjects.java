package dev.varroa.operator.controller;

import dev.varroa.operator.render.naming.ControllerLabels;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.Optional;

/**
 * The objects a Controller owns as the API server holds them now, selected as {@link ControllerCaches}' informers
 * select them (Varroa's managed-by label; every Secret): what the apply and delivery steps read, with no operator and
 * no informer running. Each read is a GET.
 */
final class ApiServerObjects implements OwnedObjectLookup {
  private final KubernetesClient client;
  private final SecretValues secretValues;

  ApiServerObjects(KubernetesClient client) {
    this.client = client;
    this.secretValues = new SecretValues((namespace, name) -> owned(Secret.class, name, namespace));
  }

  @Override
  public <T extends HasMetadata> Optional<T> owned(Class<T> kind, String name, String namespace) {
    T found = namespace == null ? client.resources(kind).withName(name).get()
        : client.resources(kind).inNamespace(namespace).withName(name).get();
    return Optional.ofNullable(found).filter(o -> o instanceof Secret || managed(o));
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<HasMetadata> existing(HasMetadata desired) {
    return owned((Class<HasMetadata>) desired.getClass(), desired.getMetadata().getName(),
        desired.getMetadata().getNamespace());
  }

  @Override
  public SecretValues secretValues() {
    return secretValues;
  }

  private static boolean managed(HasMetadata object) {
    Map<String, String> labels = object.getMetadata().getLabels();
    return labels != null && ControllerLabels.MANAGED_BY_VALUE.equals(labels.get(ControllerLabels.MANAGED_BY));
  }
}

package dev.varroa.operator.bundle;

import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.bundle.compose.SourceObjects;
import dev.varroa.bundle.source.FluxArtifact;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a ComposedBundle's inputs refer to, read from the API server in the bundle's namespace. */
final class ClusterSourceObjects implements SourceObjects {
  /** API versions of the Flux source kinds an input may name (Flux 2.x). */
  private static final Map<FluxSourceRef.Kind, String> FLUX_API_VERSIONS = Map.of(
      FluxSourceRef.Kind.GitRepository, "source.toolkit.fluxcd.io/v1",
      FluxSourceRef.Kind.OCIRepository, "source.toolkit.fluxcd.io/v1",
      FluxSourceRef.Kind.Bucket, "source.toolkit.fluxcd.io/v1",
      FluxSourceRef.Kind.ExternalArtifact, "source.toolkit.fluxcd.io/v1");

  private final KubernetesClient client;
  private final String namespace;

  ClusterSourceObjects(KubernetesClient client, String namespace) {
    this.client = client;
    this.namespace = namespace;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public Optional<CatalogItem> catalogItem(String name) {
    return Optional.ofNullable(client.resources(CatalogItem.class).inNamespace(namespace).withName(name).get());
  }

  @Override
  public Optional<CatalogSource> catalogSource(String name) {
    return Optional.ofNullable(client.resources(CatalogSource.class).inNamespace(namespace).withName(name).get());
  }

  @Override
  public List<CatalogSource> catalogSources() {
    // In the cluster a catalog item is always named by its CatalogItem object; no guessing.
    return List.of();
  }

  @Override
  @SuppressWarnings("unchecked")
  public Optional<FluxArtifact> fluxArtifact(FluxSourceRef.Kind kind, String name) {
    GenericKubernetesResource source;
    try {
      source = client.genericKubernetesResources(FLUX_API_VERSIONS.get(kind), kind.name())
          .inNamespace(namespace).withName(name).get();
    } catch (RuntimeException noSuchKind) {
      // Flux is not installed: the input waits like a missing object.
      return Optional.empty();
    }
    if (source == null || !(source.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("artifact") instanceof Map<?, ?> artifact)) {
      return Optional.empty();
    }
    Map<String, Object> a = (Map<String, Object>) artifact;
    return Optional.of(new FluxArtifact(String.valueOf(a.get("url")), String.valueOf(a.get("digest")),
        String.valueOf(a.get("revision"))));
  }

  @Override
  public Optional<Map<String, byte[]>> secret(String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      return Optional.empty();
    }
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> data.put(k, Base64.getDecoder().decode(v)));
    }
    if (secret.getStringData() != null) {
      secret.getStringData().forEach((k, v) -> data.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return Optional.of(data);
  }
}

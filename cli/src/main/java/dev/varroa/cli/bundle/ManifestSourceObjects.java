package dev.varroa.cli.bundle;

import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.bundle.compose.SourceObjects;
import dev.varroa.bundle.source.FluxArtifact;
import dev.varroa.cli.input.ManifestSet;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Answers what inputs refer to from the objects in the -f files. */
final class ManifestSourceObjects implements SourceObjects {
  /** Every Flux source kind a bundle input may name lives in this API group. */
  private static final String FLUX_SOURCE_GROUP = "source.toolkit.fluxcd.io";
  /** The tenant name varroactl's Git cache keys use. */
  static final String LOCAL_TENANT = "varroactl";

  private final ManifestSet manifests;

  ManifestSourceObjects(ManifestSet manifests) {
    this.manifests = manifests;
  }

  // One user's own cache folder: every bundle rendered here reads as the same local tenant.
  @Override
  public String namespace() {
    return LOCAL_TENANT;
  }

  @Override
  public Optional<CatalogItem> catalogItem(String name) {
    return manifests.named(CatalogItem.class, name);
  }

  @Override
  public Optional<CatalogSource> catalogSource(String name) {
    return manifests.named(CatalogSource.class, name);
  }

  @Override
  public List<CatalogSource> catalogSources() {
    return manifests.all(CatalogSource.class);
  }

  @Override
  public Optional<FluxArtifact> fluxArtifact(FluxSourceRef.Kind kind, String name) {
    return manifests.generic(FLUX_SOURCE_GROUP, kind.name(), name).flatMap(ManifestSourceObjects::artifact);
  }

  @SuppressWarnings("unchecked")
  private static Optional<FluxArtifact> artifact(GenericKubernetesResource object) {
    Object status = object.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> s) || !(s.get("artifact") instanceof Map<?, ?> artifact)) {
      return Optional.empty();
    }
    Map<String, Object> a = (Map<String, Object>) artifact;
    return Optional.of(new FluxArtifact(String.valueOf(a.get("url")), String.valueOf(a.get("digest")),
        String.valueOf(a.get("revision"))));
  }

  @Override
  public Optional<Map<String, byte[]>> secret(String name) {
    return manifests.generic("", "Secret", name).map(ManifestSourceObjects::secretData);
  }

  private static Map<String, byte[]> secretData(GenericKubernetesResource secret) {
    Map<String, byte[]> data = new LinkedHashMap<>();
    if (secret.getAdditionalProperties().get("data") instanceof Map<?, ?> encoded) {
      encoded.forEach((k, v) -> data.put(String.valueOf(k), Base64.getDecoder().decode(String.valueOf(v))));
    }
    if (secret.getAdditionalProperties().get("stringData") instanceof Map<?, ?> plain) {
      plain.forEach((k, v) -> data.put(String.valueOf(k), String.valueOf(v).getBytes(StandardCharsets.UTF_8)));
    }
    return data;
  }
}

package dev.varroa.bundle.compose;

import dev.varroa.api.v1alpha1.CatalogItem;
import dev.varroa.api.v1alpha1.CatalogSource;
import dev.varroa.api.v1alpha1.FluxSourceRef;
import dev.varroa.bundle.source.FluxArtifact;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The objects inputs refer to, in the ComposedBundle's namespace: the operator answers from its
 * informer caches, varroactl from the files given with -f.
 */
public interface SourceObjects {
  /**
   * The namespace these objects are read from: the tenant the Git cache keeps apart from the others.
   * varroactl, which has no cluster, answers a name of its own.
   */
  String namespace();

  Optional<CatalogItem> catalogItem(String name);

  Optional<CatalogSource> catalogSource(String name);

  /** Every CatalogSource, for a catalogItem input with no CatalogItem object (varroactl only). */
  List<CatalogSource> catalogSources();

  /** The status.artifact of a Flux source object; empty when the object or its artifact is missing. */
  Optional<FluxArtifact> fluxArtifact(FluxSourceRef.Kind kind, String name);

  /** The data of a Secret, keys to decoded bytes; empty when there is no such Secret. */
  Optional<Map<String, byte[]>> secret(String name);

  /** No objects at all in {@code namespace}: enough for bundles of public Git and OCI inputs. */
  static SourceObjects none(String namespace) {
    return new SourceObjects() {
      @Override
      public String namespace() {
        return namespace;
      }

      @Override
      public Optional<CatalogItem> catalogItem(String name) {
        return Optional.empty();
      }

      @Override
      public Optional<CatalogSource> catalogSource(String name) {
        return Optional.empty();
      }

      @Override
      public List<CatalogSource> catalogSources() {
        return List.of();
      }

      @Override
      public Optional<FluxArtifact> fluxArtifact(FluxSourceRef.Kind kind, String name) {
        return Optional.empty();
      }

      @Override
      public Optional<Map<String, byte[]>> secret(String name) {
        return Optional.empty();
      }
    };
  }
}

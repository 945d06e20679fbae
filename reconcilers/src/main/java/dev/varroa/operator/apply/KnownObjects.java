package dev.varroa.operator.apply;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Optional;

/** Where the applier reads what exists and tells what it wrote: a reconciler's informers. */
public interface KnownObjects {
  /** For a reconciler without an informer of the kind: every object is looked up on the API server. */
  KnownObjects NONE = desired -> Optional.empty();

  /** The object of that kind, namespace and name as the cache holds it; empty when the cache has none. */
  Optional<HasMetadata> existing(HasMetadata desired);

  /** What the applier just wrote, so the next pass reads it before its watch event arrives. */
  default void remember(HasMetadata applied, Optional<HasMetadata> previous) {}

  /**
   * Marks {@code desired} (annotations mutable) so the watch event of this very write starts no pass, even when it
   * reaches the informer before the API server's answer reaches {@link #remember}: java-operator-sdk's
   * {@code javaoperatorsdk.io/previous} annotation (this informer's id and the version written over).
   */
  default void beforeWrite(HasMetadata desired, Optional<HasMetadata> previous) {}

  /** The objects of one kind one informer holds. */
  static <T extends HasMetadata> KnownObjects in(InformerEventSource<T, ?> informer, Class<T> kind) {
    return new KnownObjects() {
      @Override
      public Optional<HasMetadata> existing(HasMetadata desired) {
        return informer.get(ResourceID.fromResource(desired)).map(HasMetadata.class::cast);
      }

      @Override
      public void beforeWrite(HasMetadata desired, Optional<HasMetadata> previous) {
        informer.addPreviousAnnotation(previous.map(p -> p.getMetadata().getResourceVersion()).orElse(null),
            kind.cast(desired));
      }

      @Override
      public void remember(HasMetadata applied, Optional<HasMetadata> previous) {
        ResourceID id = ResourceID.fromResource(applied);
        if (previous.isPresent()) {
          informer.handleRecentResourceUpdate(id, kind.cast(applied), kind.cast(previous.get()));
        } else {
          informer.handleRecentResourceCreate(id, kind.cast(applied));
        }
      }
    };
  }
}

package dev.varroa.operator.controller;

import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.render.AppliedHash;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;

/**
 * Applies rendered objects with server-side apply, and only when they changed: each object carries
 * the hash of what was last applied, so a reconcile that finds nothing changed writes nothing.
 */
final class OwnedObjectApplier {
  /** The hash of the desired object as last applied. */
  static final String APPLIED_HASH = AppliedHash.ANNOTATION;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  /** Where the applier reads what exists and tells what it wrote: the operator's informers. */
  interface OwnedObjects {
    Optional<HasMetadata> existing(HasMetadata desired);

    void remember(HasMetadata applied, Optional<HasMetadata> previous);
  }

  private final KubernetesClient client;
  private final OwnedObjects owned;

  OwnedObjectApplier(KubernetesClient client, OwnedObjects owned) {
    this.client = client;
    this.owned = owned;
  }

  /** @return true when the object was written */
  boolean apply(HasMetadata desired, HasMetadata owner) {
    if (Objects.equals(desired.getMetadata().getNamespace(), owner.getMetadata().getNamespace())) {
      // Objects in other namespaces or cluster-scoped (the agents namespace, its RBAC) cannot be owned; labels find them.
      desired.getMetadata().setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder()
          .withApiVersion(owner.getApiVersion()).withKind(owner.getKind()).withName(owner.getMetadata().getName())
          .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build()));
    }
    String hash = AppliedHash.of(desired);
    Optional<HasMetadata> existing = owned.existing(desired);
    if (existing.isPresent() && existing.get().getMetadata().getAnnotations() != null
        && hash.equals(existing.get().getMetadata().getAnnotations().get(APPLIED_HASH))) {
      return false;
    }
    // Renderers may hand out immutable maps: annotate a copy.
    java.util.Map<String, String> annotations = desired.getMetadata().getAnnotations() == null
        ? new HashMap<>() : new HashMap<>(desired.getMetadata().getAnnotations());
    annotations.put(APPLIED_HASH, hash);
    desired.getMetadata().setAnnotations(annotations);
    owned.remember(client.resource(desired).fieldManager(ComposedBundleReconciler.FIELD_MANAGER).forceConflicts()
        .serverSideApply(), existing);
    return true;
  }
}

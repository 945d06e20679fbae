package dev.varroa.operator.controller;

import dev.varroa.operator.bundle.ComposedBundleReconciler;
import dev.varroa.operator.render.AppliedHash;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies rendered objects with server-side apply, and only when they changed: each object carries
 * the hash of what was last applied, so a reconcile that finds nothing changed writes nothing. It
 * force-applies, so an object that exists and is not Varroa's ({@link ObjectOwnership}) is refused first.
 */
final class OwnedObjectApplier {
  /** The hash of the desired object as last applied. */
  static final String APPLIED_HASH = AppliedHash.ANNOTATION;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  private static final Logger LOG = LoggerFactory.getLogger(OwnedObjectApplier.class);

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

  /** @return why the object was not written, with the fix: it exists and is not Varroa's; empty when applied */
  Optional<String> apply(HasMetadata desired, HasMetadata owner) {
    if (Objects.equals(desired.getMetadata().getNamespace(), owner.getMetadata().getNamespace())) {
      // Objects in other namespaces or cluster-scoped (the agents namespace, its RBAC) cannot be owned; labels find them.
      desired.getMetadata().setOwnerReferences(java.util.List.of(new OwnerReferenceBuilder()
          .withApiVersion(owner.getApiVersion()).withKind(owner.getKind()).withName(owner.getMetadata().getName())
          .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build()));
    }
    String hash = AppliedHash.of(desired);
    Optional<HasMetadata> cached = owned.existing(desired);
    // the informers hold Varroa's objects only (label selection): one absent there may still exist, unlabelled
    Optional<HasMetadata> existing = cached.isPresent() ? cached : Optional.ofNullable(client.resource(desired).get());
    if (existing.isPresent()) {
      Optional<String> refusal = ObjectOwnership.refusal(existing.get(), owner);
      if (refusal.isPresent()) {
        LOG.warn("event=apply_refused_not_owned kind={} namespace={} name={} owner={}/{}", desired.getKind(),
            desired.getMetadata().getNamespace(), desired.getMetadata().getName(), owner.getMetadata().getNamespace(),
            owner.getMetadata().getName());
        return refusal;
      }
    }
    if (existing.isPresent() && existing.get().getMetadata().getAnnotations() != null
        && hash.equals(existing.get().getMetadata().getAnnotations().get(APPLIED_HASH))) {
      return Optional.empty();
    }
    if (existing.isPresent() && existing.get() instanceof RoleBinding was && desired instanceof RoleBinding wanted
        && !was.getRoleRef().equals(wanted.getRoleRef())) {
      // roleRef is immutable: a binding from before the chart's agents ClusterRole (a Role of its own) is replaced
      client.resource(was).delete();
      cached = Optional.empty();
    }
    // Renderers may hand out immutable maps: annotate a copy.
    java.util.Map<String, String> annotations = desired.getMetadata().getAnnotations() == null
        ? new HashMap<>() : new HashMap<>(desired.getMetadata().getAnnotations());
    annotations.put(APPLIED_HASH, hash);
    desired.getMetadata().setAnnotations(annotations);
    owned.remember(client.resource(desired).fieldManager(ComposedBundleReconciler.FIELD_MANAGER).forceConflicts()
        .serverSideApply(), cached);
    return Optional.empty();
  }
}

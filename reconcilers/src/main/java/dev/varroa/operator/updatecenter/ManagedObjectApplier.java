package dev.varroa.operator.updatecenter;

import dev.varroa.api.v1alpha1.UpdateCenter;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Applies a managed UpdateCenter's objects with server-side apply, owned by the UpdateCenter (a
 * cluster-scoped owner may own namespaced objects), and only when the rendered object changed: each
 * carries the hash of what was last applied.
 */
final class ManagedObjectApplier {
  static final String APPLIED_HASH = AppliedHash.ANNOTATION;
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private final KubernetesClient client;
  private final Function<HasMetadata, Optional<? extends HasMetadata>> existing;

  ManagedObjectApplier(KubernetesClient client, Function<HasMetadata, Optional<? extends HasMetadata>> existing) {
    this.client = client;
    this.existing = existing;
  }

  /** @return true when the object was written */
  boolean apply(HasMetadata desired, UpdateCenter owner) {
    desired.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
        .withApiVersion(owner.getApiVersion()).withKind(owner.getKind()).withName(owner.getMetadata().getName())
        .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build()));
    String hash = AppliedHash.of(desired);
    Optional<? extends HasMetadata> current = existing.apply(desired);
    if (current.isPresent() && current.get().getMetadata().getAnnotations() != null
        && hash.equals(current.get().getMetadata().getAnnotations().get(APPLIED_HASH))) {
      return false;
    }
    Map<String, String> annotations = desired.getMetadata().getAnnotations() == null
        ? new HashMap<>() : new HashMap<>(desired.getMetadata().getAnnotations());
    annotations.put(APPLIED_HASH, hash);
    desired.getMetadata().setAnnotations(annotations);
    client.resource(desired).fieldManager(ComposedBundleReconciler.FIELD_MANAGER).forceConflicts().serverSideApply();
    return true;
  }

  /** Creates the object when it does not exist, and never touches it after (the plugin volume's claim). */
  boolean createIfAbsent(HasMetadata desired) {
    if (existing.apply(desired).isPresent()) {
      return false;
    }
    client.resource(desired).fieldManager(ComposedBundleReconciler.FIELD_MANAGER).forceConflicts().serverSideApply();
    return true;
  }
}

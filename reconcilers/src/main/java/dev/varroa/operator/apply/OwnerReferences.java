package dev.varroa.operator.apply;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.Objects;

/** The owner references Varroa writes: the only place one is built. */
public final class OwnerReferences {
  private OwnerReferences() {}

  /**
   * The reference of an object {@code owner} controls: the garbage collector removes it with the owner, and
   * a foreground deletion of the owner waits for it.
   */
  public static OwnerReference controller(HasMetadata owner) {
    return reference(owner).withController(true).withBlockOwnerDeletion(true).build();
  }

  /** A plain reference (no controller): the object goes with the owner, nothing more (the installation's objects). */
  public static OwnerReference owner(HasMetadata owner) {
    return reference(owner).build();
  }

  /**
   * Whether {@code owner} may own {@code object}: Kubernetes allows a cluster-scoped owner for anything, and a
   * namespaced owner only for objects of its own namespace (the agents namespace and its RBAC are found by label).
   */
  public static boolean canOwn(HasMetadata owner, HasMetadata object) {
    String ownerNamespace = owner.getMetadata().getNamespace();
    return ownerNamespace == null || Objects.equals(ownerNamespace, object.getMetadata().getNamespace());
  }

  private static OwnerReferenceBuilder reference(HasMetadata owner) {
    return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid());
  }
}

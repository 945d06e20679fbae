package dev.varroa.operator.apply;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.render.naming.ControllerNames;
import dev.varroa.operator.render.naming.StatefulSetName;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether an object that already exists is Varroa's to overwrite for one Controller (issue 24): the applier
 * force-applies, so anything it does not own must be refused before, never taken over. Pure.
 */
public final class ObjectOwnership {
  /**
   * The check for a Controller's objects: {@link #refusal}, and no read before the first write of an object whose
   * name starts with the Controller's StatefulSet name, which embeds its UID (everything in its own namespace and its
   * agents RoleBinding): nobody knew that name before the Controller existed, so a new Controller sends no GET.
   * The agents Namespace, its {@code default} ServiceAccount and its known-hosts ConfigMap are read as before.
   */
  public static final OwnedObjectApplier.OwnershipCheck CONTROLLER = new OwnedObjectApplier.OwnershipCheck() {
    @Override
    public Optional<String> refusal(HasMetadata existing, HasMetadata owner) {
      return ObjectOwnership.refusal(existing, owner);
    }

    @Override
    public boolean reservedFor(HasMetadata desired, HasMetadata owner) {
      return owner.getMetadata().getUid() != null && desired.getMetadata().getName().startsWith(
          StatefulSetName.of(owner.getMetadata().getName(), owner.getMetadata().getUid()));
    }
  };

  private ObjectOwnership() {}

  /** @return why {@code existing} is not the owner's to write, with the fix; empty when it is */
  public static Optional<String> refusal(HasMetadata existing, HasMetadata owner) {
    Map<String, String> labels = existing.getMetadata().getLabels() == null ? Map.of()
        : existing.getMetadata().getLabels();
    String what = existing.getKind() + " " + where(existing);
    if (existing instanceof ServiceAccount && ControllerNames.AGENTS_DEFAULT_SERVICE_ACCOUNT.equals(
        existing.getMetadata().getName()) && !existing.getMetadata().getNamespace().equals(
        owner.getMetadata().getNamespace())) {
      // Kubernetes creates `default` in every namespace; it is written only once its agents namespace passed this check
      return Optional.empty();
    }
    if (!ControllerLabels.MANAGED_BY_VALUE.equals(labels.get(ControllerLabels.MANAGED_BY))) {
      return Optional.of(what + " exists and was not created by Varroa (no label " + ControllerLabels.MANAGED_BY
          + "=" + ControllerLabels.MANAGED_BY_VALUE + "); Varroa does not overwrite it; fix: "
          + (existing.getMetadata().getNamespace() == null || !existing.getMetadata().getNamespace().equals(
              owner.getMetadata().getNamespace())
              ? "set spec.agents.namespace to a namespace Varroa creates (e.g. " + owner.getMetadata().getNamespace()
                  + "-jobs), or have an administrator label the namespace " + ControllerLabels.MANAGED_BY + "="
                  + ControllerLabels.MANAGED_BY_VALUE + " if Varroa should manage it"
              : "rename or delete that " + existing.getKind() + ", or rename the Controller"));
    }
    List<OwnerReference> owners = existing.getMetadata().getOwnerReferences() == null ? List.of()
        : existing.getMetadata().getOwnerReferences();
    Optional<OwnerReference> controllerRef = owners.stream().filter(r -> Boolean.TRUE.equals(r.getController()))
        .findFirst();
    if (controllerRef.isPresent()) {
      return controllerRef.get().getUid().equals(owner.getMetadata().getUid()) ? Optional.empty()
          : Optional.of(what + " belongs to " + controllerRef.get().getKind() + " " + controllerRef.get().getName()
              + "; Varroa does not overwrite it for " + owner.getKind() + " " + where(owner)
              + "; fix: rename or delete one of them");
    }
    String controllerLabel = labels.get(ControllerLabels.CONTROLLER);
    if (controllerLabel != null && !controllerLabel.equals(ControllerLabels.value(owner.getMetadata().getName()))) {
      return Optional.of(what + " belongs to Controller " + controllerLabel + "; Varroa does not overwrite it for "
          + owner.getKind() + " " + where(owner) + "; fix: rename or delete one of them");
    }
    return Optional.empty();
  }

  /**
   * For objects a Varroa resource other than a Controller writes in its own namespace (a bundle's ConfigMap, a
   * source's CatalogItems, a waker route): Varroa's when a controller reference names the owner's kind and name.
   * The UID may differ: a predecessor of the same name whose objects the garbage collector has not removed yet.
   *
   * @return why {@code existing} is not the owner's to overwrite, with the fix; empty when it is
   */
  public static Optional<String> controllerRefusal(HasMetadata existing, HasMetadata owner) {
    List<OwnerReference> owners = existing.getMetadata().getOwnerReferences() == null ? List.of()
        : existing.getMetadata().getOwnerReferences();
    boolean owned = owners.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController())
        && owner.getKind().equals(r.getKind()) && owner.getMetadata().getName().equals(r.getName()));
    return owned ? Optional.empty() : Optional.of(existing.getKind() + " " + where(existing)
        + " exists and was not written for " + owner.getKind() + " " + where(owner)
        + " (no controller reference to it); Varroa does not overwrite it; fix: rename or delete that "
        + existing.getKind() + ", or rename the " + owner.getKind());
  }

  private static String where(HasMetadata object) {
    return object.getMetadata().getNamespace() == null ? object.getMetadata().getName()
        : object.getMetadata().getNamespace() + "/" + object.getMetadata().getName();
  }
}

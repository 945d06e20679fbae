package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.ControllerAnnotations;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A StatefulSet's volumeClaimTemplates cannot change once it exists. A larger persistence.size is
 * carried out on the claim itself (volume expansion, where the storage class allows it) while the
 * StatefulSet keeps its original template; a smaller size cannot be done and blocks with the fix. Another
 * storage class is a move of JENKINS_HOME (dev.varroa.operator.home): it blocks until the user confirms it.
 */
final class PersistenceResize {
  /** What the API server sets on a claim template that names no volumeMode. */
  private static final String DEFAULT_VOLUME_MODE = "Filesystem";

  private PersistenceResize() {}

  /** What to do about the JENKINS_HOME claim. */
  sealed interface Plan permits Unchanged, Grow, Refused {}

  record Unchanged() implements Plan {}

  /** Keep the existing template; ask for the new size on the claim. */
  record Grow(Quantity size) implements Plan {}

  record Refused(String message) implements Plan {}

  /**
   * Compares the rendered StatefulSet's JENKINS_HOME template with the one in the cluster and, when
   * they differ, puts the existing template back into the rendered object.
   */
  static Plan plan(StatefulSet desired, StatefulSet existing) {
    return plan(desired, existing, null);
  }

  /** @param claimSize what pod 0's claim requests now (it may have grown past the template); null if none */
  static Plan plan(StatefulSet desired, StatefulSet existing, Quantity claimSize) {
    return plan(desired, existing, claimSize, false);
  }

  /**
   * @param classChangeHandled a move of JENKINS_HOME is under way or failed: the template keeps its class and the
   *     change is not refused
   */
  static Plan plan(StatefulSet desired, StatefulSet existing, Quantity claimSize, boolean classChangeHandled) {
    if (existing == null || existing.getSpec().getVolumeClaimTemplates().isEmpty()) {
      return new Unchanged();
    }
    PersistentVolumeClaim want = desired.getSpec().getVolumeClaimTemplates().get(0);
    PersistentVolumeClaim have = existing.getSpec().getVolumeClaimTemplates().get(0);
    Quantity wantSize = want.getSpec().getResources().getRequests().get("storage");
    Quantity haveSize = have.getSpec().getResources().getRequests().get("storage");
    if (claimSize != null && Quantity.getAmountInBytes(claimSize).compareTo(Quantity.getAmountInBytes(haveSize)) > 0) {
      haveSize = claimSize;
    }
    String wantClass = want.getSpec().getStorageClassName();
    String haveClass = have.getSpec().getStorageClassName();
    desired.getSpec().setVolumeClaimTemplates(asApplied(existing.getSpec().getVolumeClaimTemplates(),
        desired.getSpec().getVolumeClaimTemplates()));
    if (wantClass != null && !Objects.equals(wantClass, haveClass) && !classChangeHandled) {
      return new Refused("persistence.storageClassName changed from " + Optional.ofNullable(haveClass).orElse("(default)")
          + " to " + wantClass + ": JENKINS_HOME stays on its volume until the move is confirmed; fix: to move it"
          + " (drain, stop, copy, verify, swap; see docs/storage-moves.md) annotate the Controller "
          + ControllerAnnotations.CONFIRM_HOME_MOVE + "=" + wantClass + ", or set persistence.storageClassName back to "
          + Optional.ofNullable(haveClass).orElse("its former value"));
    }
    int order = Quantity.getAmountInBytes(wantSize).compareTo(Quantity.getAmountInBytes(haveSize));
    if (order < 0) {
      return new Refused("persistence.size " + wantSize + " is smaller than the " + haveSize
          + " JENKINS_HOME already has; volumes do not shrink; fix: set persistence.size to " + haveSize + " or more");
    }
    return order > 0 ? new Grow(wantSize) : new Unchanged();
  }

  /**
   * Copies of the existing templates without what the API server added to them (the claim's status and the
   * default volumeMode): an unchanged StatefulSet then hashes as it was first applied, and its second pass
   * writes nothing (it wrote the StatefulSet again once per new Controller).
   */
  private static List<PersistentVolumeClaim> asApplied(List<PersistentVolumeClaim> existing,
      List<PersistentVolumeClaim> rendered) {
    List<PersistentVolumeClaim> copies = new ArrayList<>();
    for (int i = 0; i < existing.size(); i++) {
      PersistentVolumeClaim copy = new PersistentVolumeClaimBuilder(existing.get(i)).withStatus(null).build();
      boolean modeRendered = i < rendered.size() && rendered.get(i).getSpec().getVolumeMode() != null;
      if (!modeRendered && DEFAULT_VOLUME_MODE.equals(copy.getSpec().getVolumeMode())) {
        copy.getSpec().setVolumeMode(null);
      }
      copies.add(copy);
    }
    return copies;
  }
}

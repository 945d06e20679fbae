package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerAnnotations;
import dev.varroa.operator.render.resolve.ResolvedController;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.time.Instant;
import java.util.Optional;

/**
 * What one pass of the home step knows: the Controller, its resolved settings, the rendered StatefulSet and the one
 * the informer holds, and the time.
 */
record HomeContext(Controller controller, ResolvedController resolved, StatefulSet desired,
    Optional<StatefulSet> existing, Instant now, HomeNames names) {

  String namespace() {
    return controller.getMetadata().getNamespace();
  }

  String uid() {
    return controller.getMetadata().getUid();
  }

  /** What the user asks for: the rendered claim template's class (empty: the cluster's default). */
  Optional<String> desiredClass() {
    return templateClass(desired);
  }

  Optional<String> existingClass() {
    return existing.flatMap(HomeContext::templateClass);
  }

  /** The value of varroa.dev/confirm-home-move, or empty. */
  Optional<String> confirmation() {
    var annotations = controller.getMetadata().getAnnotations();
    return Optional.ofNullable(annotations == null ? null : annotations.get(ControllerAnnotations.CONFIRM_HOME_MOVE))
        .map(String::strip);
  }

  Quantity persistenceSize() {
    return new Quantity(resolved.persistence().size());
  }

  private static Optional<String> templateClass(StatefulSet sts) {
    if (sts.getSpec().getVolumeClaimTemplates() == null || sts.getSpec().getVolumeClaimTemplates().isEmpty()) {
      return Optional.empty();
    }
    PersistentVolumeClaim template = sts.getSpec().getVolumeClaimTemplates().get(0);
    return Optional.ofNullable(template.getSpec().getStorageClassName());
  }
}

package dev.varroa.operator.controller;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.apply.ObjectOwnership;
import dev.varroa.operator.apply.OwnedObjectApplier;
import dev.varroa.operator.home.HomeWorkload;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The apply step of a Controller pass: writes the rendered objects that changed and grows
 * JENKINS_HOME on its claim. Reads what exists from the caches. Returns why it could not, with the fix.
 */
final class WorkloadApplier {
  /** How soon a claim resize the storage class refused is tried again: StorageClasses are not watched. */
  static final Duration RETRY_REFUSED_RESIZE = Duration.ofMinutes(1);
  /** How soon an object that is not Varroa's is looked at again: an administrator's label on a Namespace sends no event. */
  static final Duration RETRY_NOT_OWNED = Duration.ofMinutes(1);
  private static final Logger LOG = LoggerFactory.getLogger(WorkloadApplier.class);

  /** Why the apply step stopped, with the fix; {@code retry} when only time can tell it changed. */
  record Refusal(String message, Optional<Duration> retry) {}

  private final KubernetesClient client;
  private final OwnedObjectLookup caches;

  WorkloadApplier(KubernetesClient client, OwnedObjectLookup caches) {
    this.client = client;
    this.caches = caches;
  }

  Optional<Refusal> apply(Controller controller, List<HasMetadata> objects) {
    return apply(controller, objects, HomeWorkload.RUN);
  }

  /** @param home what a restore or a move of JENKINS_HOME lets this pass do with the StatefulSet */
  Optional<Refusal> apply(Controller controller, List<HasMetadata> objects, HomeWorkload home) {
    StatefulSet desired = objects.stream().filter(StatefulSet.class::isInstance).map(StatefulSet.class::cast)
        .findFirst().orElseThrow();
    StatefulSet existing = caches.statefulSet(desired.getMetadata().getNamespace(), desired.getMetadata().getName())
        .orElse(null);
    Optional<PersistentVolumeClaim> claim = Optional.ofNullable(existing).flatMap(this::jenkinsHomeClaim);
    PersistenceResize.Plan resize = PersistenceResize.plan(desired, existing,
        claim.map(c -> c.getSpec().getResources().getRequests().get("storage")).orElse(null),
        home.keepsClaimTemplate());
    if (resize instanceof PersistenceResize.Refused refused) {
      return Optional.of(new Refusal(refused.message(), Optional.empty()));
    }
    if (home.mode() == HomeWorkload.Mode.STOPPED) {
      desired.getSpec().setReplicas(0);
    }
    if (existing == null) {
      home.storageClassName().ifPresent(c -> desired.getSpec().getVolumeClaimTemplates().get(0).getSpec()
          .setStorageClassName(c));
    }
    OwnedObjectApplier applier = new OwnedObjectApplier(client, caches, ObjectOwnership.CONTROLLER);
    for (HasMetadata object : objects) {
      // withheld: not created before its restored claim is Bound, nor re-created during a swap
      if (object != desired || home.mode() != HomeWorkload.Mode.WITHHELD) {
        Optional<String> notOurs = applier.apply(object, controller).refusal();
        if (notOurs.isPresent()) {
          // nothing after it either: the agents Namespace comes first, and what follows it lives there
          return Optional.of(new Refusal(notOurs.get(), Optional.of(RETRY_NOT_OWNED)));
        }
      }
    }
    if (resize instanceof PersistenceResize.Grow grow && claim.isPresent() && home.mode() != HomeWorkload.Mode.STOPPED
        && home.mode() != HomeWorkload.Mode.WITHHELD) {
      return growJenkinsHome(claim.get(), grow.size())
          .map(message -> new Refusal(message, Optional.of(RETRY_REFUSED_RESIZE)));
    }
    return Optional.empty();
  }

  private Optional<PersistentVolumeClaim> jenkinsHomeClaim(StatefulSet sts) {
    if (sts.getSpec().getVolumeClaimTemplates().isEmpty()) {
      return Optional.empty();
    }
    return caches.claim(sts.getMetadata().getNamespace(), claimName(sts));
  }

  static String claimName(StatefulSet sts) {
    return sts.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName() + "-" + sts.getMetadata().getName()
        + "-0";
  }

  /**
   * Asks for the larger size on the claim of pod 0; the storage class decides whether it can expand.
   * Returns why Kubernetes refused, with the fix.
   */
  private Optional<String> growJenkinsHome(PersistentVolumeClaim pvc, Quantity size) {
    String claim = pvc.getMetadata().getName();
    // Kubernetes resizes bound claims only; an unbound one is provisioned later at the template's size.
    boolean bound = pvc.getStatus() != null && "Bound".equals(pvc.getStatus().getPhase());
    if (!bound) {
      LOG.info("event=jenkins_home_expansion_waiting claim={} reason=claim_not_bound", claim);
      return Optional.empty();
    }
    Quantity current = pvc.getSpec().getResources().getRequests().get("storage");
    if (Quantity.getAmountInBytes(current).compareTo(Quantity.getAmountInBytes(size)) >= 0) {
      return Optional.empty();
    }
    try {
      // a merge patch without resourceVersion: the volume controllers update the claim too
      client.persistentVolumeClaims().inNamespace(pvc.getMetadata().getNamespace()).withName(claim)
          .patch(PatchContext.of(PatchType.JSON_MERGE),
              "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"" + size + "\"}}}}");
    } catch (KubernetesClientException e) {
      if (e.getCode() != 403 && e.getCode() != 422) {
        throw e;
      }
      return Optional.of("persistence.size " + size + " cannot be applied to claim " + claim + ": "
          + e.getStatus().getMessage() + "; fix: give the claim's storage class allowVolumeExpansion: true, or set"
          + " persistence.size back to " + current);
    }
    LOG.info("event=jenkins_home_expansion_requested claim={} size={}", claim, size);
    return Optional.empty();
  }
}

package dev.varroa.operator.actions;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.protocol.bus.v1.VolumeFate;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The JENKINS_HOME claims of a Controller (every claim carrying its controller label, the moved homes included),
 * and what deleting each does to its data: the bound PersistentVolume's reclaim policy decides, else the
 * StorageClass's (Kubernetes' default is Delete).
 */
public final class DrainedVolumes {

  /** Kubernetes' reclaim policy for a StorageClass that names none. */
  static final String DEFAULT_RECLAIM_POLICY = "Delete";

  private final KubernetesClient client;

  public DrainedVolumes(KubernetesClient client) {
    this.client = client;
  }

  public List<PersistentVolumeClaim> claims(Controller controller) {
    return client.persistentVolumeClaims().inNamespace(controller.getMetadata().getNamespace())
        .withLabel(ControllerLabels.CONTROLLER, ControllerLabels.value(controller.getMetadata().getName()))
        .list().getItems();
  }

  /** What the drain would release for each of these Controllers, in namespace, name, claim order. */
  public List<VolumeFate> fates(List<Controller> controllers) {
    List<VolumeFate> fates = new ArrayList<>();
    for (Controller controller : controllers) {
      for (PersistentVolumeClaim claim : claims(controller)) {
        String storageClass = Optional.ofNullable(claim.getSpec().getStorageClassName()).orElse("");
        String volume = Optional.ofNullable(claim.getSpec().getVolumeName()).orElse("");
        fates.add(VolumeFate.newBuilder()
            .setNamespace(controller.getMetadata().getNamespace())
            .setController(controller.getMetadata().getName())
            .setClaim(claim.getMetadata().getName())
            .setStorageClass(storageClass)
            .setVolume(volume)
            .setReclaimPolicy(reclaimPolicy(volume, storageClass))
            .build());
      }
    }
    fates.sort(Comparator.comparing(VolumeFate::getNamespace).thenComparing(VolumeFate::getController)
        .thenComparing(VolumeFate::getClaim));
    return fates;
  }

  private String reclaimPolicy(String volume, String storageClass) {
    if (!volume.isEmpty()) {
      PersistentVolume bound = client.persistentVolumes().withName(volume).get();
      if (bound != null && bound.getSpec().getPersistentVolumeReclaimPolicy() != null) {
        return bound.getSpec().getPersistentVolumeReclaimPolicy();
      }
    }
    if (storageClass.isEmpty()) {
      // no class named: the cluster's default class provisions it, unknown here
      return "";
    }
    StorageClass found = client.storage().v1().storageClasses().withName(storageClass).get();
    if (found == null) {
      return "";
    }
    return Optional.ofNullable(found.getReclaimPolicy()).orElse(DEFAULT_RECLAIM_POLICY);
  }
}

package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the pvc-protection and pv-protection controllers. The API server's StorageObjectInUseProtection admission
 * puts {@value #PVC_PROTECTION} on every claim and {@value #PV_PROTECTION} on every volume, and without these
 * controllers a deleted claim or volume would stay Terminating for ever: a claim goes once no running pod mounts
 * it, a volume once it is no longer Bound.
 */
final class StorageProtection {
  static final String PVC_PROTECTION = "kubernetes.io/pvc-protection";
  static final String PV_PROTECTION = "kubernetes.io/pv-protection";
  private static final Logger LOG = LoggerFactory.getLogger(StorageProtection.class);

  private final KubernetesClient client;

  StorageProtection(KubernetesClient client) {
    this.client = client;
  }

  void releaseClaim(PersistentVolumeClaim claim) {
    if (claim.getMetadata().getDeletionTimestamp() == null || !claim.getMetadata().getFinalizers().contains(PVC_PROTECTION)) {
      return;
    }
    String namespace = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    List<String> users = client.pods().inNamespace(namespace).list().getItems().stream()
        .filter(pod -> !terminated(pod) && mounts(pod, name))
        .map(pod -> pod.getMetadata().getName())
        .toList();
    if (!users.isEmpty()) {
      // the claim stays Terminating until its pods go; a pod event queues it again
      LOG.info("event=claim_in_use claim={}/{} pods={}", namespace, name, users);
      return;
    }
    client.persistentVolumeClaims().inNamespace(namespace).withName(name).edit(c -> {
      c.getMetadata().getFinalizers().remove(PVC_PROTECTION);
      return c;
    });
  }

  void releaseVolume(PersistentVolume volume) {
    boolean bound = volume.getStatus() != null && "Bound".equals(volume.getStatus().getPhase());
    if (volume.getMetadata().getDeletionTimestamp() == null || bound
        || !volume.getMetadata().getFinalizers().contains(PV_PROTECTION)) {
      return;
    }
    client.persistentVolumes().withName(volume.getMetadata().getName()).edit(v -> {
      v.getMetadata().getFinalizers().remove(PV_PROTECTION);
      return v;
    });
  }

  static boolean terminated(Pod pod) {
    String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
    return "Succeeded".equals(phase) || "Failed".equals(phase);
  }

  static List<String> claimsOf(Pod pod) {
    return pod.getSpec().getVolumes().stream()
        .filter(v -> v.getPersistentVolumeClaim() != null)
        .map(v -> v.getPersistentVolumeClaim().getClaimName())
        .filter(Objects::nonNull)
        .toList();
  }

  private static boolean mounts(Pod pod, String claim) {
    return claimsOf(pod).contains(claim);
  }
}

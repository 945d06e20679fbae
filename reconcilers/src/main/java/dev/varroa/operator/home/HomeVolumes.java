package dev.varroa.operator.home;

import dev.varroa.operator.apply.OwnerReferences;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import dev.varroa.operator.snapshot.VolumeSnapshotClass;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reads and writes of a restore or a move: claims, volumes, the pod, snapshots and their classes, straight from
 * the API server (not informers: these steps are rare, a snapshot CRD may not be installed, and each step must see
 * what the previous one wrote). Creates and deletes tolerate finding the work done, so every step can run again.
 */
final class HomeVolumes {
  static final String RETAIN = "Retain";
  static final String DELETE = "Delete";
  static final String PROVISIONING_FAILED = "ProvisioningFailed";
  private static final Logger LOG = LoggerFactory.getLogger(HomeVolumes.class);

  private final KubernetesClient client;

  HomeVolumes(KubernetesClient client) {
    this.client = client;
  }

  Optional<PersistentVolumeClaim> claim(String namespace, String name) {
    return Optional.ofNullable(client.persistentVolumeClaims().inNamespace(namespace).withName(name).get());
  }

  Optional<PersistentVolume> volume(String name) {
    return name == null || name.isEmpty() ? Optional.empty()
        : Optional.ofNullable(client.persistentVolumes().withName(name).get());
  }

  Optional<Pod> pod(String namespace, String name) {
    return Optional.ofNullable(client.pods().inNamespace(namespace).withName(name).get());
  }

  Optional<StorageClass> storageClass(String name) {
    return name == null ? Optional.empty()
        : Optional.ofNullable(client.storage().v1().storageClasses().withName(name).get());
  }

  /** Empty when it does not exist, or when the snapshot API is not installed at all. */
  Optional<VolumeSnapshot> snapshot(String namespace, String name) {
    try {
      return Optional.ofNullable(client.resources(VolumeSnapshot.class).inNamespace(namespace).withName(name).get());
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** The VolumeSnapshotClass of a CSI driver, its default first; empty without one or without the snapshot API. */
  Optional<VolumeSnapshotClass> snapshotClass(String driver) {
    try {
      return client.resources(VolumeSnapshotClass.class).list().getItems().stream()
          .filter(c -> driver.equals(c.driver))
          .min(Comparator.comparing((VolumeSnapshotClass c) -> !"true".equals(
              c.getMetadata().getAnnotations() == null ? null
                  : c.getMetadata().getAnnotations().get(VolumeSnapshotClass.DEFAULT_ANNOTATION)))
              .thenComparing(c -> c.getMetadata().getName()));
    } catch (KubernetesClientException e) {
      if (e.getCode() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Creates an object owned by {@code owner} (when given); finding it already there is success. */
  <T extends HasMetadata> void create(T object, Optional<HasMetadata> owner) {
    owner.ifPresent(o -> object.getMetadata().setOwnerReferences(List.of(OwnerReferences.controller(o))));
    try {
      client.resource(object).create();
      LOG.info("event=home_object_created kind={} namespace={} name={}", object.getKind(),
          object.getMetadata().getNamespace(), object.getMetadata().getName());
    } catch (KubernetesClientException e) {
      if (e.getCode() != 409) {
        throw e;
      }
    }
  }

  void deleteClaim(String namespace, String name) {
    client.persistentVolumeClaims().inNamespace(namespace).withName(name).delete();
    LOG.info("event=home_claim_deleted namespace={} claim={}", namespace, name);
  }

  void deleteSnapshot(String namespace, String name) {
    try {
      client.resources(VolumeSnapshot.class).inNamespace(namespace).withName(name).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        throw e;
      }
    }
  }

  /** Deletes the StatefulSet and leaves what it made (claims, a pod): volumeClaimTemplates cannot change otherwise. */
  void orphanDelete(String namespace, String name) {
    client.apps().statefulSets().inNamespace(namespace).withName(name)
        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.ORPHAN).delete();
    LOG.info("event=home_statefulset_orphan_deleted namespace={} statefulset={}", namespace, name);
  }

  /** Sets the reclaim policy and a label (value null removes it) with one merge patch. */
  PersistentVolume reclaim(String volume, String policy, String label, String value) {
    String labelValue = value == null ? "null" : "\"" + value + "\"";
    PersistentVolume patched = client.persistentVolumes().withName(volume).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"metadata\":{\"labels\":{\"" + label + "\":" + labelValue + "}},"
            + "\"spec\":{\"persistentVolumeReclaimPolicy\":\"" + policy + "\"}}");
    LOG.info("event=home_volume_reclaim_policy volume={} policy={} {}={}", volume, policy, label, value);
    return patched;
  }

  /** Clears a Released volume's claimRef so a new claim can bind to it by name. */
  void release(String volume) {
    client.persistentVolumes().withName(volume).patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"claimRef\":null}}");
    LOG.info("event=home_volume_released volume={}", volume);
  }

  List<PersistentVolume> labelled(String label, String value) {
    return client.persistentVolumes().withLabel(label, value).list().getItems();
  }

  /** The provisioner's last ProvisioningFailed message about this claim (this very claim, by uid), if any. */
  Optional<String> provisioningFailure(PersistentVolumeClaim claim) {
    List<Event> events = client.v1().events().inNamespace(claim.getMetadata().getNamespace())
        .withField("involvedObject.name", claim.getMetadata().getName())
        .withField("reason", PROVISIONING_FAILED)
        .list().getItems();
    return events.stream()
        .filter(e -> e.getInvolvedObject() != null && claim.getMetadata().getUid().equals(e.getInvolvedObject().getUid()))
        .map(Event::getMessage)
        .reduce((first, last) -> last);
  }
}

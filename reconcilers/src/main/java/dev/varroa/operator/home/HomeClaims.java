package dev.varroa.operator.home;

import dev.varroa.operator.render.naming.ControllerLabels;
import dev.varroa.operator.snapshot.VolumeSnapshot;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Optional;

/** The claims a restore or a move creates; pure. Labels are the volumeClaimTemplate's, so the claim informer sees them. */
final class HomeClaims {
  /** On a home claim the operator made: where its data came from, e.g. snapshot/backup-1 or move/standard. */
  static final String SOURCE_ANNOTATION = "varroa.dev/home-source";
  static final String ACCESS_MODE = "ReadWriteOnce";

  private HomeClaims() {}

  /** A claim provisioned from a VolumeSnapshot (the restore, or the snapshot method of a move). */
  static PersistentVolumeClaim fromSnapshot(String namespace, String name, String controllerName, String snapshot,
      Quantity size, Optional<String> storageClassName) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).withLabels(ControllerLabels.of(controllerName))
        .withAnnotations(Map.of(SOURCE_ANNOTATION, "snapshot/" + snapshot)).endMetadata()
        .withNewSpec()
        .withAccessModes(ACCESS_MODE)
        .withStorageClassName(storageClassName.orElse(null))
        .withNewResources().addToRequests("storage", size).endResources()
        .withNewDataSource().withApiGroup(VolumeSnapshot.GROUP).withKind("VolumeSnapshot").withName(snapshot)
        .endDataSource()
        .endSpec()
        .build();
  }

  /** An empty claim in the target class, which the copy Job fills. */
  static PersistentVolumeClaim empty(String namespace, String name, String controllerName, Quantity size,
      String storageClassName) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).withLabels(ControllerLabels.of(controllerName))
        .endMetadata()
        .withNewSpec()
        .withAccessModes(ACCESS_MODE)
        .withStorageClassName(storageClassName)
        .withNewResources().addToRequests("storage", size).endResources()
        .endSpec()
        .build();
  }

  /** The home claim bound to an existing volume by name (static binding): the swap's last write. */
  static PersistentVolumeClaim boundTo(String namespace, String name, String controllerName, String volumeName,
      Optional<String> storageClassName, Quantity size, String source) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(namespace).withName(name).withLabels(ControllerLabels.of(controllerName))
        .withAnnotations(Map.of(SOURCE_ANNOTATION, source)).endMetadata()
        .withNewSpec()
        .withAccessModes(ACCESS_MODE)
        // an empty string, not null, when the volume has no class: null would pick the default class
        .withStorageClassName(storageClassName.orElse(""))
        .withVolumeName(volumeName)
        .withNewResources().addToRequests("storage", size).endResources()
        .endSpec()
        .build();
  }

  static boolean bound(PersistentVolumeClaim claim) {
    return claim.getStatus() != null && "Bound".equals(claim.getStatus().getPhase());
  }

  static boolean terminating(io.fabric8.kubernetes.api.model.HasMetadata object) {
    return object.getMetadata().getDeletionTimestamp() != null;
  }

  /** Where the claim's data came from, as {@link #SOURCE_ANNOTATION} or its dataSource says. */
  static Optional<String> source(PersistentVolumeClaim claim) {
    Map<String, String> annotations = claim.getMetadata().getAnnotations();
    if (annotations != null && annotations.get(SOURCE_ANNOTATION) != null) {
      return Optional.of(annotations.get(SOURCE_ANNOTATION));
    }
    var dataSource = claim.getSpec().getDataSource();
    return dataSource != null && "VolumeSnapshot".equals(dataSource.getKind())
        ? Optional.of("snapshot/" + dataSource.getName()) : Optional.empty();
  }

  /** What the claim asks for, or holds when the volume grew past it. */
  static Quantity size(PersistentVolumeClaim claim) {
    Quantity requested = claim.getSpec().getResources().getRequests().get("storage");
    Quantity capacity = claim.getStatus() == null || claim.getStatus().getCapacity() == null ? null
        : claim.getStatus().getCapacity().get("storage");
    return larger(requested, capacity);
  }

  static Quantity larger(Quantity a, Quantity b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return Quantity.getAmountInBytes(a).compareTo(Quantity.getAmountInBytes(b)) >= 0 ? a : b;
  }
}

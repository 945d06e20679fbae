package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TypedObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the CSI external-provisioner and the PV controller's binder for the stand-in's StorageClasses: provisions a
 * volume folder and a PersistentVolume for each new claim, binds claims to volumes (dynamic and static), and reclaims
 * a volume when its claim goes (Delete: the PV and its folder; Retain: the PV becomes Released).
 */
final class Provisioner {
  static final String RESTORED_FROM_MARKER = ".varroa-restored-from";

  /** Where a volume folder's restored-from marker lives: a file beside the folder, named after it. */
  static java.nio.file.Path marker(java.nio.file.Path volumeFolder) {
    return volumeFolder.resolveSibling(volumeFolder.getFileName() + RESTORED_FROM_MARKER);
  }
  static final String PROVISIONING_FAILED = "ProvisioningFailed";
  static final String FAILED_BINDING = "FailedBinding";
  private static final String PV_CONTROLLER = "persistentvolume-controller";
  private static final Logger LOG = LoggerFactory.getLogger(Provisioner.class);

  private final KubernetesClient client;
  private final VolumeFolders folders;
  private final Map<String, StorageClassSpec> classes;
  private final Map<String, String> refusals;
  private final Snapshotter snapshotter;
  private final ClaimEvents events;
  private final Predicate<String> servesNamespace;
  private final StorageProtection protection;

  Provisioner(KubernetesClient client, VolumeFolders folders, Map<String, StorageClassSpec> classes,
      Map<String, String> refusals, Snapshotter snapshotter, ClaimEvents events, Predicate<String> servesNamespace) {
    this.client = client;
    this.folders = folders;
    this.classes = classes;
    this.refusals = refusals;
    this.snapshotter = snapshotter;
    this.events = events;
    this.servesNamespace = servesNamespace;
    this.protection = new StorageProtection(client);
  }

  boolean servesDriver(String driver) {
    return classes.values().stream().anyMatch(c -> c.driver().equals(driver));
  }

  void reconcileClaim(String namespace, String name) {
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
    if (claim == null) {
      return;
    }
    if (claim.getMetadata().getDeletionTimestamp() != null) {
      protection.releaseClaim(claim);
      return;
    }
    String volumeName = claim.getSpec().getVolumeName();
    boolean bound = claim.getStatus() != null && "Bound".equals(claim.getStatus().getPhase());
    if (bound && volumeName != null) {
      return;
    }
    if (volumeName != null) {
      bindToNamedVolume(claim, volumeName);
      return;
    }
    StorageClassSpec storageClass = classes.get(claim.getSpec().getStorageClassName());
    if (storageClass == null) {
      return; // another provisioner's class, or none: not this stand-in's claim
    }
    String component = storageClass.driver() + "_csi-stand-in";
    String refusal = refusals.get(storageClass.name());
    if (refusal != null) {
      events.warning(claim, component, PROVISIONING_FAILED, refusal);
      return;
    }
    Quantity size = claim.getSpec().getResources() == null || claim.getSpec().getResources().getRequests() == null
        ? null : claim.getSpec().getResources().getRequests().get("storage");
    if (size == null) {
      events.warning(claim, component, PROVISIONING_FAILED, "claim " + namespace + "/" + name
          + " has no spec.resources.requests.storage: set the size to provision");
      return;
    }
    String pvName = "pvc-" + claim.getMetadata().getUid();
    PersistentVolume volume = client.persistentVolumes().withName(pvName).get();
    if (volume == null) {
      Optional<Population> population = population(claim, storageClass, size, component);
      if (population.isEmpty()) {
        return;
      }
      Path folder = folders.volume(pvName);
      population.get().fill().accept(folder);
      volume = client.resource(newVolume(pvName, claim, storageClass, size)).create();
      LOG.info("event=volume_provisioned claim={}/{} volume={} class={} driver={} folder={} source={}", namespace, name,
          pvName, storageClass.name(), storageClass.driver(), folder, population.get().description());
    }
    bind(claim, volume);
  }

  /** Where a new volume's data comes from: empty, a ready snapshot's folder, or a bound claim's folder (a clone). */
  private record Population(String description, java.util.function.Consumer<Path> fill) {}

  private Optional<Population> population(PersistentVolumeClaim claim, StorageClassSpec storageClass, Quantity size,
      String component) {
    TypedObjectReference source = dataSource(claim);
    if (source == null) {
      return Optional.of(new Population("empty", folder -> {
        folders.delete(folder);
        folders.create(folder);
      }));
    }
    String namespace = claim.getMetadata().getNamespace();
    if ("VolumeSnapshot".equals(source.getKind()) && SnapshotCrds.GROUP.equals(source.getApiGroup())) {
      Optional<Snapshotter.ReadySnapshot> snapshot = snapshotter.readySnapshot(namespace, source.getName());
      if (snapshot.isEmpty()) {
        return Optional.empty(); // Pending until the snapshot is readyToUse; its update queues this claim again
      }
      if (!snapshot.get().driver().equals(storageClass.driver())) {
        events.warning(claim, component, PROVISIONING_FAILED, "VolumeSnapshot " + namespace + "/" + source.getName()
            + " was taken by driver " + snapshot.get().driver() + ", but StorageClass " + storageClass.name()
            + " provisions with " + storageClass.driver() + ": restore it into a class of the same driver");
        return Optional.empty();
      }
      if (Quantity.getAmountInBytes(size).longValue() < snapshot.get().restoreBytes()) {
        events.warning(claim, component, PROVISIONING_FAILED, "requested volume size "
            + Quantity.getAmountInBytes(size).longValue() + " is less than the size " + snapshot.get().restoreBytes()
            + " for the source snapshot " + source.getName() + ": request at least its status.restoreSize");
        return Optional.empty();
      }
      return Optional.of(new Population("VolumeSnapshot/" + source.getName(), folder -> {
        folders.copy(snapshot.get().folder(), folder);
        // beside the volume, not in it: a real restore adds nothing to the data, and a check that compares homes must
        // find them equal
        write(marker(folder), source.getName());
      }));
    }
    if ("PersistentVolumeClaim".equals(source.getKind()) && (source.getApiGroup() == null || source.getApiGroup().isEmpty())) {
      PersistentVolumeClaim original = client.persistentVolumeClaims().inNamespace(namespace).withName(source.getName()).get();
      PersistentVolume originalVolume = original == null || original.getSpec().getVolumeName() == null ? null
          : client.persistentVolumes().withName(original.getSpec().getVolumeName()).get();
      if (originalVolume == null || originalVolume.getSpec().getCsi() == null) {
        return Optional.empty();
      }
      Path from = folders.volume(originalVolume.getSpec().getCsi().getVolumeHandle());
      return Optional.of(new Population("PersistentVolumeClaim/" + source.getName(), folder -> folders.copy(from, folder)));
    }
    events.warning(claim, component, PROVISIONING_FAILED, "the stand-in provisioner cannot populate a claim from "
        + source.getKind() + " " + source.getName() + ": use a VolumeSnapshot or a PersistentVolumeClaim");
    return Optional.empty();
  }

  private static TypedObjectReference dataSource(PersistentVolumeClaim claim) {
    if (claim.getSpec().getDataSourceRef() != null) {
      return claim.getSpec().getDataSourceRef();
    }
    var old = claim.getSpec().getDataSource();
    return old == null ? null : new TypedObjectReference(old.getApiGroup(), old.getKind(), old.getName(), null);
  }

  private static PersistentVolume newVolume(String pvName, PersistentVolumeClaim claim, StorageClassSpec storageClass,
      Quantity size) {
    List<String> accessModes = claim.getSpec().getAccessModes() == null || claim.getSpec().getAccessModes().isEmpty()
        ? List.of("ReadWriteOnce") : claim.getSpec().getAccessModes();
    return new PersistentVolumeBuilder()
        .withNewMetadata()
        .withName(pvName)
        .addToAnnotations("pv.kubernetes.io/provisioned-by", storageClass.driver())
        .endMetadata()
        .withNewSpec()
        .withCapacity(Map.of("storage", size))
        .withAccessModes(accessModes)
        .withPersistentVolumeReclaimPolicy(storageClass.reclaimPolicy())
        .withStorageClassName(storageClass.name())
        .withVolumeMode(claim.getSpec().getVolumeMode() == null ? "Filesystem" : claim.getSpec().getVolumeMode())
        .withNewCsi().withDriver(storageClass.driver()).withVolumeHandle(pvName).endCsi()
        .withClaimRef(reference(claim))
        .endSpec()
        .build();
  }

  /** The static path: a claim that names its volume binds to it if the volume is free or reserved for it. */
  private void bindToNamedVolume(PersistentVolumeClaim claim, String volumeName) {
    PersistentVolume volume = client.persistentVolumes().withName(volumeName).get();
    if (volume == null || volume.getMetadata().getDeletionTimestamp() != null) {
      return; // Pending until the volume exists; a PV event queues this claim again
    }
    if (volume.getSpec().getCsi() == null || !servesDriver(volume.getSpec().getCsi().getDriver())) {
      return;
    }
    ObjectReference ref = volume.getSpec().getClaimRef();
    if (ref != null && !reservedFor(ref, claim)) {
      events.warning(claim, PV_CONTROLLER, FAILED_BINDING, "volume " + volumeName + " is already bound to claim "
          + ref.getNamespace() + "/" + ref.getName() + (ref.getUid() == null ? "" : " (uid " + ref.getUid() + ")")
          + ": clear its spec.claimRef to bind it to " + claim.getMetadata().getNamespace() + "/"
          + claim.getMetadata().getName());
      return;
    }
    String claimClass = Objects.requireNonNullElse(claim.getSpec().getStorageClassName(), "");
    String volumeClass = Objects.requireNonNullElse(volume.getSpec().getStorageClassName(), "");
    if (!claimClass.equals(volumeClass)) {
      events.warning(claim, PV_CONTROLLER, FAILED_BINDING, "Cannot bind to requested volume \"" + volumeName
          + "\": storageClassName does not match (claim '" + claimClass + "', volume '" + volumeClass + "')");
      return;
    }
    bind(claim, volume);
  }

  private static boolean reservedFor(ObjectReference ref, PersistentVolumeClaim claim) {
    return Objects.equals(ref.getNamespace(), claim.getMetadata().getNamespace())
        && Objects.equals(ref.getName(), claim.getMetadata().getName())
        && (ref.getUid() == null || ref.getUid().equals(claim.getMetadata().getUid()));
  }

  /** Binds both ways in the PV controller's order: volume claimRef, volume Bound, claim volumeName, claim Bound. */
  private void bind(PersistentVolumeClaim claim, PersistentVolume volume) {
    if (volume.getSpec().getClaimRef() == null || volume.getSpec().getClaimRef().getUid() == null) {
      volume.getSpec().setClaimRef(reference(claim));
      volume = client.resource(volume).update();
    }
    if (volume.getStatus() == null || !"Bound".equals(volume.getStatus().getPhase())) {
      volume.setStatus(new PersistentVolumeStatusBuilder().withPhase("Bound").build());
      volume = client.resource(volume).updateStatus();
    }
    if (claim.getSpec().getVolumeName() == null) {
      claim.getSpec().setVolumeName(volume.getMetadata().getName());
      Map<String, String> annotations = new java.util.HashMap<>(
          Objects.requireNonNullElse(claim.getMetadata().getAnnotations(), Map.of()));
      annotations.put("pv.kubernetes.io/bind-completed", "yes");
      annotations.put("pv.kubernetes.io/bound-by-controller", "yes");
      claim.getMetadata().setAnnotations(annotations);
      claim = client.resource(claim).update();
    }
    claim.setStatus(new PersistentVolumeClaimStatusBuilder()
        .withPhase("Bound")
        .withAccessModes(volume.getSpec().getAccessModes())
        .withCapacity(volume.getSpec().getCapacity())
        .build());
    client.resource(claim).updateStatus();
    LOG.info("event=claim_bound claim={}/{} volume={}", claim.getMetadata().getNamespace(), claim.getMetadata().getName(),
        volume.getMetadata().getName());
  }

  void reconcileVolume(String name) {
    PersistentVolume volume = client.persistentVolumes().withName(name).get();
    if (volume == null) {
      return;
    }
    if (volume.getMetadata().getDeletionTimestamp() != null) {
      protection.releaseVolume(volume);
      return;
    }
    if (volume.getSpec().getCsi() == null || !servesDriver(volume.getSpec().getCsi().getDriver())) {
      return;
    }
    ObjectReference ref = volume.getSpec().getClaimRef();
    String phase = volume.getStatus() == null ? null : volume.getStatus().getPhase();
    if (ref == null || ref.getUid() == null) {
      // free, or reserved for a claim by name only (the static path): Available until a claim binds it
      if (!"Available".equals(phase)) {
        volume.setStatus(new PersistentVolumeStatusBuilder().withPhase("Available").build());
        client.resource(volume).updateStatus();
      }
      return;
    }
    if (!servesNamespace.test(ref.getNamespace())) {
      return;
    }
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(ref.getNamespace()).withName(ref.getName()).get();
    if (claim != null && ref.getUid().equals(claim.getMetadata().getUid())) {
      return;
    }
    boolean delete = StorageClassSpec.DELETE.equals(volume.getSpec().getPersistentVolumeReclaimPolicy());
    if (!"Released".equals(phase) && !"Failed".equals(phase)) {
      // Released first, also before a delete, so the pv-protection stand-in lets the deleted object go
      volume.setStatus(new PersistentVolumeStatusBuilder().withPhase("Released").build());
      volume = client.resource(volume).updateStatus();
      if (!delete) {
        // Retain: the data and the claimRef stay, as Kubernetes keeps them, until someone clears spec.claimRef
        LOG.info("event=volume_released volume={} claim={}/{}", name, ref.getNamespace(), ref.getName());
      }
    }
    if (delete) {
      client.resource(volume).delete();
      folders.delete(folders.volume(volume.getSpec().getCsi().getVolumeHandle()));
      LOG.info("event=volume_deleted volume={} claim={}/{} reason=claim_gone", name, ref.getNamespace(), ref.getName());
    }
  }

  private static ObjectReference reference(PersistentVolumeClaim claim) {
    return new ObjectReferenceBuilder()
        .withApiVersion("v1").withKind("PersistentVolumeClaim")
        .withNamespace(claim.getMetadata().getNamespace()).withName(claim.getMetadata().getName())
        .withUid(claim.getMetadata().getUid()).withResourceVersion(claim.getMetadata().getResourceVersion())
        .build();
  }

  private static void write(Path file, String content) {
    try {
      Files.writeString(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}

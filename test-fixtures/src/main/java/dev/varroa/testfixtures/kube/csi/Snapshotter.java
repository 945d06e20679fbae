package dev.varroa.testfixtures.kube.csi;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plays the snapshot-controller and the CSI external-snapshotter sidecar for the stand-in's drivers: a VolumeSnapshot
 * of a bound claim gets a VolumeSnapshotContent and a copy of the volume's folder; deleting the snapshot deletes a
 * Delete-policy content and its folder. Faults: the next snapshot fails with a message; held snapshots stay not ready.
 */
final class Snapshotter {
  static final String DEFAULT_CLASS_ANNOTATION = "snapshot.storage.kubernetes.io/is-default-class";
  private static final Logger LOG = LoggerFactory.getLogger(Snapshotter.class);

  /** A snapshot a claim can be restored from: the driver that took it, its folder and its size in bytes. */
  record ReadySnapshot(String driver, Path folder, long restoreBytes) {}

  /** What the stand-in last saw of a content, for cleaning up after it is deleted. */
  private record ContentSeen(String driver, String deletionPolicy, String snapshotHandle) {}

  private final KubernetesClient client;
  private final VolumeFolders folders;
  private final Set<String> drivers;
  private final Predicate<String> servesNamespace;
  private final AtomicReference<String> failNext = new AtomicReference<>();
  private volatile boolean holding;
  private final Map<String, ContentSeen> contentsSeen = new ConcurrentHashMap<>();

  Snapshotter(KubernetesClient client, VolumeFolders folders, Set<String> drivers, Predicate<String> servesNamespace) {
    this.client = client;
    this.folders = folders;
    this.drivers = drivers;
    this.servesNamespace = servesNamespace;
  }

  void failNext(String message) {
    failNext.set(Objects.requireNonNull(message, "message"));
  }

  void hold() {
    holding = true;
  }

  void release() {
    holding = false;
  }

  void reconcileSnapshot(String namespace, String name) {
    GenericKubernetesResource snapshot = SnapshotKinds.snapshots(client).inNamespace(namespace).withName(name).get();
    if (snapshot == null || snapshot.getMetadata().getDeletionTimestamp() != null
        || snapshot.get("status", "error") != null) {
      return;
    }
    String bound = snapshot.get("status", "boundVolumeSnapshotContentName");
    if (bound != null) {
      if (!Boolean.TRUE.equals(snapshot.get("status", "readyToUse")) && !holding) {
        markReady(snapshot, bound);
      }
      return;
    }
    String claimName = snapshot.get("spec", "source", "persistentVolumeClaimName");
    if (claimName == null) {
      String contentName = snapshot.get("spec", "source", "volumeSnapshotContentName");
      if (contentName != null) {
        bindPreProvisioned(snapshot, contentName);
      }
      return;
    }
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(namespace).withName(claimName).get();
    PersistentVolume volume = claim == null || claim.getSpec().getVolumeName() == null ? null
        : client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
    if (volume == null || volume.getSpec().getCsi() == null || !drivers.contains(volume.getSpec().getCsi().getDriver())) {
      return; // the claim is not bound yet (its update queues this snapshot again), or another driver's volume
    }
    String driver = volume.getSpec().getCsi().getDriver();
    String contentName = "snapcontent-" + snapshot.getMetadata().getUid();
    GenericKubernetesResource content = SnapshotKinds.contents(client).withName(contentName).get();
    if (content == null) {
      Optional<GenericKubernetesResource> snapshotClass = snapshotClass(snapshot, driver);
      if (snapshotClass.isEmpty()) {
        return;
      }
      content = takeSnapshot(snapshot, volume, snapshotClass.get(), contentName);
    }
    setStatusFromContent(snapshot, content);
  }

  private Optional<GenericKubernetesResource> snapshotClass(GenericKubernetesResource snapshot, String driver) {
    String className = snapshot.get("spec", "volumeSnapshotClassName");
    if (className == null) {
      List<GenericKubernetesResource> defaults = SnapshotKinds.classes(client).list().getItems().stream()
          .filter(c -> driver.equals(c.get("driver")))
          .filter(c -> "true".equals(annotation(c, DEFAULT_CLASS_ANNOTATION)))
          .toList();
      if (defaults.size() != 1) {
        setError(snapshot, (defaults.isEmpty() ? "no" : defaults.size()) + " default VolumeSnapshotClass for driver "
            + driver + ": set spec.volumeSnapshotClassName or mark one class with " + DEFAULT_CLASS_ANNOTATION);
        return Optional.empty();
      }
      return Optional.of(defaults.get(0));
    }
    GenericKubernetesResource snapshotClass = SnapshotKinds.classes(client).withName(className).get();
    if (snapshotClass == null) {
      setError(snapshot, "VolumeSnapshotClass " + className + " not found: create it or fix spec.volumeSnapshotClassName");
      return Optional.empty();
    }
    if (!driver.equals(snapshotClass.get("driver"))) {
      setError(snapshot, "VolumeSnapshotClass " + className + " is for driver " + snapshotClass.get("driver")
          + ", but claim's volume is on driver " + driver + ": choose a class of driver " + driver);
      return Optional.empty();
    }
    return Optional.of(snapshotClass);
  }

  /** Cuts the snapshot (copies the folder now, a point in time) and records its content; a fault fails it instead. */
  private GenericKubernetesResource takeSnapshot(GenericKubernetesResource snapshot, PersistentVolume volume,
      GenericKubernetesResource snapshotClass, String contentName) {
    String failure = failNext.get();
    String driver = volume.getSpec().getCsi().getDriver();
    Quantity size = volume.getSpec().getCapacity().get("storage");
    if (failure == null) {
      folders.copy(folders.volume(volume.getSpec().getCsi().getVolumeHandle()), folders.snapshot(contentName));
    }
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("apiVersion", SnapshotKinds.API_VERSION);
    ref.put("kind", "VolumeSnapshot");
    ref.put("namespace", snapshot.getMetadata().getNamespace());
    ref.put("name", snapshot.getMetadata().getName());
    ref.put("uid", snapshot.getMetadata().getUid());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("driver", driver);
    spec.put("deletionPolicy", Objects.requireNonNullElse(snapshotClass.get("deletionPolicy"), "Delete"));
    spec.put("source", Map.of("volumeHandle", volume.getSpec().getCsi().getVolumeHandle()));
    spec.put("sourceVolumeMode", Objects.requireNonNullElse(volume.getSpec().getVolumeMode(), "Filesystem"));
    spec.put("volumeSnapshotClassName", snapshotClass.getMetadata().getName());
    spec.put("volumeSnapshotRef", ref);
    GenericKubernetesResource content = new GenericKubernetesResource();
    content.setApiVersion(SnapshotKinds.API_VERSION);
    content.setKind("VolumeSnapshotContent");
    content.setMetadata(new ObjectMetaBuilder().withName(contentName).build());
    content.setAdditionalProperty("spec", spec);
    content = SnapshotKinds.contents(client).resource(content).create();

    Map<String, Object> status = new LinkedHashMap<>();
    if (failure == null) {
      status.put("snapshotHandle", contentName);
      status.put("creationTime", nanos(Instant.now()));
      status.put("readyToUse", !holding);
      status.put("restoreSize", Quantity.getAmountInBytes(size).longValueExact());
    } else {
      status.put("readyToUse", false);
      status.put("error", Map.of("message", failure, "time", now()));
    }
    content.setAdditionalProperty("status", status);
    content = SnapshotKinds.contents(client).resource(content).updateStatus();
    // consumed only once the failure is recorded, so a retried reconcile still fails this snapshot
    failNext.compareAndSet(failure, null);
    LOG.info("event=snapshot_taken snapshot={}/{} content={} driver={} ready={} error=\"{}\"",
        snapshot.getMetadata().getNamespace(), snapshot.getMetadata().getName(), contentName, driver,
        status.get("readyToUse"), failure == null ? "" : failure);
    return content;
  }

  private void setStatusFromContent(GenericKubernetesResource snapshot, GenericKubernetesResource content) {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("boundVolumeSnapshotContentName", content.getMetadata().getName());
    Object created = content.get("status", "creationTime");
    if (created instanceof Number n) {
      status.put("creationTime", DateTimeFormatter.ISO_INSTANT.format(
          Instant.EPOCH.plusNanos(n.longValue()).truncatedTo(ChronoUnit.SECONDS)));
    }
    Object restoreSize = content.get("status", "restoreSize");
    if (restoreSize instanceof Number n) {
      status.put("restoreSize", binarySize(n.longValue()));
    }
    status.put("readyToUse", Boolean.TRUE.equals(content.get("status", "readyToUse")));
    Map<String, Object> error = content.get("status", "error");
    if (error != null) {
      status.put("error", error);
    }
    snapshot.setAdditionalProperty("status", status);
    SnapshotKinds.snapshots(client).inNamespace(snapshot.getMetadata().getNamespace()).resource(snapshot).updateStatus();
  }

  private void markReady(GenericKubernetesResource snapshot, String contentName) {
    GenericKubernetesResource content = SnapshotKinds.contents(client).withName(contentName).get();
    if (content == null || !drivers.contains(content.<String>get("spec", "driver"))
        || content.get("status", "error") != null) {
      return;
    }
    Map<String, Object> status = new LinkedHashMap<>(Objects.requireNonNullElse(content.get("status"), Map.of()));
    status.put("readyToUse", true);
    content.setAdditionalProperty("status", status);
    content = SnapshotKinds.contents(client).resource(content).updateStatus();
    setStatusFromContent(snapshot, content);
    LOG.info("event=snapshot_ready snapshot={}/{} content={}", snapshot.getMetadata().getNamespace(),
        snapshot.getMetadata().getName(), contentName);
  }

  /** A snapshot of an existing content (spec.source.volumeSnapshotContentName), e.g. one kept with Retain. */
  private void bindPreProvisioned(GenericKubernetesResource snapshot, String contentName) {
    GenericKubernetesResource content = SnapshotKinds.contents(client).withName(contentName).get();
    if (content == null || !drivers.contains(content.<String>get("spec", "driver"))) {
      return;
    }
    String namespace = snapshot.getMetadata().getNamespace();
    String name = snapshot.getMetadata().getName();
    if (!namespace.equals(content.get("spec", "volumeSnapshotRef", "namespace"))
        || !name.equals(content.get("spec", "volumeSnapshotRef", "name"))) {
      setError(snapshot, "VolumeSnapshotContent " + contentName + " names another VolumeSnapshot in"
          + " spec.volumeSnapshotRef: point it at " + namespace + "/" + name);
      return;
    }
    Map<String, Object> ref = new LinkedHashMap<>(content.get("spec", "volumeSnapshotRef"));
    if (ref.get("uid") == null) {
      ref.put("uid", snapshot.getMetadata().getUid());
      content.<Map<String, Object>>get("spec").put("volumeSnapshotRef", ref);
      content = SnapshotKinds.contents(client).resource(content).update();
    }
    if (content.get("status") == null) {
      String handle = content.get("spec", "source", "snapshotHandle");
      Map<String, Object> status = new LinkedHashMap<>();
      status.put("snapshotHandle", handle);
      status.put("creationTime", nanos(Instant.now()));
      status.put("readyToUse", handle != null && Files.isDirectory(folders.snapshot(handle)));
      content.setAdditionalProperty("status", status);
      content = SnapshotKinds.contents(client).resource(content).updateStatus();
    }
    setStatusFromContent(snapshot, content);
  }

  private void setError(GenericKubernetesResource snapshot, String message) {
    Map<String, Object> status = new LinkedHashMap<>(Objects.requireNonNullElse(snapshot.get("status"), Map.of()));
    status.put("readyToUse", false);
    status.put("error", Map.of("message", message, "time", now()));
    snapshot.setAdditionalProperty("status", status);
    SnapshotKinds.snapshots(client).inNamespace(snapshot.getMetadata().getNamespace()).resource(snapshot).updateStatus();
    LOG.info("event=snapshot_failed snapshot={}/{} error=\"{}\"", snapshot.getMetadata().getNamespace(),
        snapshot.getMetadata().getName(), message);
  }

  /** The snapshot's folder and driver once it is readyToUse; empty before, or when it is another driver's. */
  Optional<ReadySnapshot> readySnapshot(String namespace, String name) {
    GenericKubernetesResource snapshot = SnapshotKinds.snapshots(client).inNamespace(namespace).withName(name).get();
    if (snapshot == null || !Boolean.TRUE.equals(snapshot.get("status", "readyToUse"))) {
      return Optional.empty();
    }
    String contentName = snapshot.get("status", "boundVolumeSnapshotContentName");
    GenericKubernetesResource content = contentName == null ? null
        : SnapshotKinds.contents(client).withName(contentName).get();
    String handle = content == null ? null : content.get("status", "snapshotHandle");
    if (handle == null || !drivers.contains(content.<String>get("spec", "driver"))) {
      return Optional.empty();
    }
    Object restoreSize = content.get("status", "restoreSize");
    return Optional.of(new ReadySnapshot(content.get("spec", "driver"), folders.snapshot(handle),
        restoreSize instanceof Number n ? n.longValue() : 0));
  }

  /** Remembers a content's handle and policy, since a deleted object can no longer be read. */
  void seen(GenericKubernetesResource content) {
    String driver = content.get("spec", "driver");
    if (driver != null && drivers.contains(driver)) {
      String handle = content.get("status", "snapshotHandle");
      contentsSeen.put(content.getMetadata().getName(), new ContentSeen(driver,
          content.get("spec", "deletionPolicy"), handle == null ? content.get("spec", "source", "snapshotHandle") : handle));
    }
  }

  void reconcileContent(String name) {
    GenericKubernetesResource content = SnapshotKinds.contents(client).withName(name).get();
    if (content == null) {
      ContentSeen last = contentsSeen.remove(name);
      if (last != null && "Delete".equals(last.deletionPolicy()) && last.snapshotHandle() != null) {
        folders.delete(folders.snapshot(last.snapshotHandle()));
      }
      return;
    }
    seen(content);
    String namespace = content.get("spec", "volumeSnapshotRef", "namespace");
    String uid = content.get("spec", "volumeSnapshotRef", "uid");
    if (content.getMetadata().getDeletionTimestamp() != null || !drivers.contains(content.<String>get("spec", "driver"))
        || namespace == null || uid == null || !servesNamespace.test(namespace)) {
      return;
    }
    GenericKubernetesResource snapshot = SnapshotKinds.snapshots(client).inNamespace(namespace)
        .withName(content.get("spec", "volumeSnapshotRef", "name")).get();
    if (snapshot != null && uid.equals(snapshot.getMetadata().getUid())) {
      return;
    }
    if ("Delete".equals(content.get("spec", "deletionPolicy"))) {
      SnapshotKinds.contents(client).resource(content).delete();
      String handle = content.get("status", "snapshotHandle");
      if (handle != null) {
        folders.delete(folders.snapshot(handle));
      }
      LOG.info("event=snapshot_content_deleted content={} snapshot={}/{} reason=snapshot_gone", name, namespace,
          content.get("spec", "volumeSnapshotRef", "name"));
    }
  }

  private static String annotation(GenericKubernetesResource resource, String key) {
    Map<String, String> annotations = resource.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }

  /** Bytes as the snapshotter's Go client prints them (BinarySI): the largest exact suffix, e.g. 1073741824 as 1Gi. */
  static String binarySize(long bytes) {
    String[] suffixes = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int i = 0;
    long amount = bytes;
    while (amount != 0 && amount % 1024 == 0 && i < suffixes.length - 1) {
      amount /= 1024;
      i++;
    }
    return amount + suffixes[i];
  }

  private static long nanos(Instant instant) {
    return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
  }

  private static String now() {
    return DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS));
  }
}

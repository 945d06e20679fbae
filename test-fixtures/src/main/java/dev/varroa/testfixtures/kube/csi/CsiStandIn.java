package dev.varroa.testfixtures.kube.csi;

import dev.varroa.testfixtures.kube.ReconcileQueue;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Plays the CSI controllers that do not run in tests (only kube-apiserver and etcd do), against the real API
 * server: the external-provisioner with the PV controller's binder, and the snapshot-controller with the
 * external-snapshotter sidecar. Each volume is a folder under a root on disk, so a test can write JENKINS_HOME files
 * into a claim's {@link #folder} and read them back after a snapshot, a restore or a move.
 *
 * <ul>
 *   <li>A claim of a class the stand-in serves gets a PersistentVolume {@code pvc-<claim uid>} (CSI driver, handle,
 *       capacity, claimRef, class, the class's reclaim policy) and a folder, and both are bound. A claim with a
 *       {@code dataSource} VolumeSnapshot is filled from the snapshot's folder and gets a marker file holding the
 *       snapshot's name beside its folder (so the volume holds exactly the snapshot's content; read it with
 *       {@link #restoredFrom}); it stays Pending until the snapshot
 *       is readyToUse, and gets a ProvisioningFailed Event (and stays Pending) when the snapshot was taken by another
 *       driver than its class's or is larger than the claim's request. A claim that names {@code spec.volumeName} binds to that PV when its claimRef is empty or
 *       names this claim (the static path of a storage move); otherwise it stays Pending with a FailedBinding Event.
 *   <li>Deleting a claim deletes a Delete-policy PV and its folder; a Retain-policy PV becomes Released, keeping its
 *       folder and claimRef, and becomes Available when someone clears its claimRef.
 *   <li>A VolumeSnapshot of a bound claim gets a VolumeSnapshotContent {@code snapcontent-<snapshot uid>}, a copy of
 *       the volume's folder (cp -a) and a status (bound content, creationTime, readyToUse, restoreSize). Deleting it
 *       deletes a Delete-policy content and the copy.
 * </ul>
 *
 * The API server puts the {@code kubernetes.io/pvc-protection} and {@code kubernetes.io/pv-protection} finalizers on
 * every claim and volume (StorageObjectInUseProtection admission); the stand-in plays their controllers for the
 * namespaces it serves: a deleted claim goes once no pod that has not terminated mounts it, a deleted volume once it
 * is not Bound. So an operator that deletes a claim its pod still mounts sees it stay Terminating, as on a cluster.
 *
 * <p>Not played: the snapshot finalizers (deleting a snapshot a restore is using is allowed here, so a test can
 * catch an operator that does it), WaitForFirstConsumer binding, volume expansion. The stand-in serves the namespace given to its builder (all when none); two stand-ins on one
 * API server must not serve the same namespace. It needs the snapshot CRDs and installs them when missing.
 */
public final class CsiStandIn implements AutoCloseable {
  public static final String RESTORED_FROM_MARKER = Provisioner.RESTORED_FROM_MARKER;
  public static final String PROVISIONING_FAILED = Provisioner.PROVISIONING_FAILED;
  public static final String DEFAULT_STORAGE_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class";
  public static final String DEFAULT_SNAPSHOT_CLASS_ANNOTATION = Snapshotter.DEFAULT_CLASS_ANNOTATION;
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(30);

  private static final String CLAIM = "claim";
  private static final String VOLUME = "volume";
  private static final String SNAPSHOT = "snapshot";
  private static final String CONTENT = "content";

  private final KubernetesClient client;
  private final VolumeFolders folders;
  private final Map<String, StorageClassSpec> classes;
  private final Map<String, String> refusals = new ConcurrentHashMap<>();
  private final Snapshotter snapshotter;
  private final Provisioner provisioner;
  private final ReconcileQueue queue;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<PersistentVolumeClaim> claims;
  private SharedIndexInformer<GenericKubernetesResource> snapshots;

  private CsiStandIn(Builder builder) {
    this.client = builder.client;
    this.folders = new VolumeFolders(builder.root);
    this.classes = Map.copyOf(builder.classes);
    Predicate<String> servesNamespace = ns -> builder.namespace == null || builder.namespace.equals(ns);
    Set<String> drivers = classes.values().stream().map(StorageClassSpec::driver).collect(Collectors.toUnmodifiableSet());
    this.snapshotter = new Snapshotter(client, folders, drivers, servesNamespace);
    this.provisioner = new Provisioner(client, folders, classes, refusals, snapshotter, new ClaimEvents(client),
        servesNamespace);
    this.queue = new ReconcileQueue("csi-stand-in", this::reconcile);
  }

  /** A stand-in on this client whose volumes and snapshots are folders under {@code root}. */
  public static Builder builder(KubernetesClient client, Path root) {
    return new Builder(client, root);
  }

  /** Chooses the classes and the namespace, then {@link #start()}s the stand-in. */
  public static final class Builder {
    private final KubernetesClient client;
    private final Path root;
    private final Map<String, StorageClassSpec> classes = new LinkedHashMap<>();
    private String defaultClass;
    private String namespace;

    private Builder(KubernetesClient client, Path root) {
      this.client = Objects.requireNonNull(client, "client");
      this.root = Objects.requireNonNull(root, "root");
    }

    /** A StorageClass provisioned by this CSI driver, reclaim policy Delete. */
    public Builder storageClass(String name, String driver) {
      return storageClass(name, driver, StorageClassSpec.DELETE);
    }

    /** A StorageClass provisioned by this CSI driver with this reclaim policy (Delete or Retain). */
    public Builder storageClass(String name, String driver, String reclaimPolicy) {
      classes.put(name, new StorageClassSpec(name, driver, reclaimPolicy));
      return this;
    }

    /**
     * Marks one of the classes the cluster default: the API server's DefaultStorageClass admission then writes it
     * into claims created without a storageClassName.
     */
    public Builder defaultStorageClass(String name) {
      this.defaultClass = name;
      return this;
    }

    /** Serves claims and snapshots of this namespace only (by default, all). */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    /**
     * Creates the StorageClasses and one default VolumeSnapshotClass per driver (named like the driver), installs
     * the snapshot CRDs when missing, and starts watching. Claims and snapshots that already exist are handled too.
     */
    public CsiStandIn start() {
      if (classes.isEmpty()) {
        throw new IllegalStateException("CsiStandIn.builder(...) needs at least one storageClass(name, driver)");
      }
      if (defaultClass != null && !classes.containsKey(defaultClass)) {
        throw new IllegalStateException("defaultStorageClass(" + defaultClass + ") is not one of the stand-in's classes "
            + classes.keySet() + ": add it with storageClass(name, driver) first");
      }
      CsiStandIn standIn = new CsiStandIn(this);
      try {
        standIn.createClasses(defaultClass);
        standIn.watch(namespace);
      } catch (RuntimeException e) {
        standIn.close();
        throw e;
      }
      return standIn;
    }
  }

  private void createClasses(String defaultClass) {
    if (!SnapshotCrds.installed(client)) {
      SnapshotCrds.install(client);
    }
    for (StorageClassSpec spec : classes.values()) {
      StorageClass wanted = new StorageClassBuilder()
          .withNewMetadata().withName(spec.name())
          .withAnnotations(Map.of(DEFAULT_STORAGE_CLASS_ANNOTATION, Boolean.toString(spec.name().equals(defaultClass))))
          .endMetadata()
          .withProvisioner(spec.driver())
          .withReclaimPolicy(spec.reclaimPolicy())
          .withVolumeBindingMode("Immediate")
          .build();
      StorageClass existing = client.storage().v1().storageClasses().withName(spec.name()).get();
      if (existing != null && !(spec.driver().equals(existing.getProvisioner())
          && spec.reclaimPolicy().equals(existing.getReclaimPolicy()))) {
        // provisioner and reclaimPolicy are immutable: a class left by an earlier test with other values goes
        client.resource(existing).withTimeout(30, TimeUnit.SECONDS).delete();
      }
      client.resource(wanted).forceConflicts().serverSideApply();
    }
    for (String driver : classes.values().stream().map(StorageClassSpec::driver).distinct().toList()) {
      GenericKubernetesResource snapshotClass = new GenericKubernetesResource();
      snapshotClass.setApiVersion(SnapshotKinds.API_VERSION);
      snapshotClass.setKind("VolumeSnapshotClass");
      snapshotClass.setMetadata(new ObjectMetaBuilder().withName(snapshotClassOf(driver))
          .withAnnotations(Map.of(DEFAULT_SNAPSHOT_CLASS_ANNOTATION, "true")).build());
      snapshotClass.setAdditionalProperty("driver", driver);
      snapshotClass.setAdditionalProperty("deletionPolicy", "Delete");
      SnapshotKinds.classes(client).resource(snapshotClass).forceConflicts().serverSideApply();
    }
  }

  /** The name of the default VolumeSnapshotClass the stand-in creates for a driver: the driver's name. */
  public String snapshotClassOf(String driver) {
    return driver;
  }

  private void watch(String namespace) {
    claims = namespace == null
        ? client.persistentVolumeClaims().inAnyNamespace().inform(handler(this::claimChanged, this::claimDeleted))
        : client.persistentVolumeClaims().inNamespace(namespace).inform(handler(this::claimChanged, this::claimDeleted));
    informers.add(claims);
    snapshots = namespace == null
        ? SnapshotKinds.snapshots(client).inAnyNamespace().inform(handler(this::snapshotChanged, this::snapshotDeleted))
        : SnapshotKinds.snapshots(client).inNamespace(namespace).inform(handler(this::snapshotChanged, this::snapshotDeleted));
    informers.add(snapshots);
    informers.add(client.persistentVolumes().inform(handler(this::volumeChanged, v -> {})));
    informers.add(namespace == null
        ? client.pods().inAnyNamespace().inform(handler(this::podChanged, this::podGone))
        : client.pods().inNamespace(namespace).inform(handler(this::podChanged, this::podGone)));
    informers.add(SnapshotKinds.contents(client).inform(handler(this::contentChanged, this::contentDeleted)));
  }

  private static <T extends HasMetadata> ResourceEventHandler<T> handler(Consumer<T> changed, Consumer<T> deleted) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        changed.accept(object);
      }

      @Override
      public void onUpdate(T before, T after) {
        changed.accept(after);
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        deleted.accept(object);
      }
    };
  }

  private void claimChanged(PersistentVolumeClaim claim) {
    queue.add(key(CLAIM, claim));
    // a snapshot waits for its claim to be bound
    for (GenericKubernetesResource snapshot : snapshots.getStore().list()) {
      if (claim.getMetadata().getNamespace().equals(snapshot.getMetadata().getNamespace())
          && claim.getMetadata().getName().equals(snapshot.get("spec", "source", "persistentVolumeClaimName"))) {
        queue.add(key(SNAPSHOT, snapshot));
      }
    }
  }

  private void claimDeleted(PersistentVolumeClaim claim) {
    if (claim.getSpec().getVolumeName() != null) {
      queue.add(new ReconcileQueue.Key(VOLUME, null, claim.getSpec().getVolumeName()));
    }
  }

  private void volumeChanged(PersistentVolume volume) {
    queue.add(new ReconcileQueue.Key(VOLUME, null, volume.getMetadata().getName()));
    // a claim that names this volume waits for it to exist or be freed
    for (PersistentVolumeClaim claim : claims.getStore().list()) {
      if (volume.getMetadata().getName().equals(claim.getSpec().getVolumeName()) && !bound(claim)) {
        queue.add(key(CLAIM, claim));
      }
    }
  }

  private void podChanged(io.fabric8.kubernetes.api.model.Pod pod) {
    if (StorageProtection.terminated(pod)) {
      podGone(pod);
    }
  }

  /** A claim being deleted waits for the pods that mount it. */
  private void podGone(io.fabric8.kubernetes.api.model.Pod pod) {
    for (String claim : StorageProtection.claimsOf(pod)) {
      queue.add(new ReconcileQueue.Key(CLAIM, pod.getMetadata().getNamespace(), claim));
    }
  }

  private void snapshotChanged(GenericKubernetesResource snapshot) {
    queue.add(key(SNAPSHOT, snapshot));
    if (Boolean.TRUE.equals(snapshot.get("status", "readyToUse"))) {
      queueClaimsWaitingFor(snapshot.getMetadata().getNamespace(), snapshot.getMetadata().getName());
    }
  }

  private void queueClaimsWaitingFor(String namespace, String snapshotName) {
    for (PersistentVolumeClaim claim : claims.getStore().list()) {
      var source = claim.getSpec().getDataSourceRef() != null ? claim.getSpec().getDataSourceRef().getName()
          : claim.getSpec().getDataSource() != null ? claim.getSpec().getDataSource().getName() : null;
      if (namespace.equals(claim.getMetadata().getNamespace()) && snapshotName.equals(source) && !bound(claim)) {
        queue.add(key(CLAIM, claim));
      }
    }
  }

  private void snapshotDeleted(GenericKubernetesResource snapshot) {
    String content = snapshot.get("status", "boundVolumeSnapshotContentName");
    queue.add(new ReconcileQueue.Key(CONTENT, null,
        content != null ? content : "snapcontent-" + snapshot.getMetadata().getUid()));
  }

  private void contentChanged(GenericKubernetesResource content) {
    snapshotter.seen(content);
    queue.add(new ReconcileQueue.Key(CONTENT, null, content.getMetadata().getName()));
  }

  private void contentDeleted(GenericKubernetesResource content) {
    queue.add(new ReconcileQueue.Key(CONTENT, null, content.getMetadata().getName()));
  }

  private void reconcile(ReconcileQueue.Key key) {
    switch (key.kind()) {
      case CLAIM -> provisioner.reconcileClaim(key.namespace(), key.name());
      case VOLUME -> provisioner.reconcileVolume(key.name());
      case SNAPSHOT -> snapshotter.reconcileSnapshot(key.namespace(), key.name());
      case CONTENT -> snapshotter.reconcileContent(key.name());
      default -> throw new IllegalArgumentException("unknown work kind " + key.kind());
    }
  }

  private static ReconcileQueue.Key key(String kind, HasMetadata object) {
    return new ReconcileQueue.Key(kind, object.getMetadata().getNamespace(), object.getMetadata().getName());
  }

  private static boolean bound(PersistentVolumeClaim claim) {
    return claim.getStatus() != null && "Bound".equals(claim.getStatus().getPhase());
  }

  // ---- faults ----

  /** The next snapshot any driver takes fails: its status gets readyToUse=false and error.message = message. */
  public void failNextSnapshot(String message) {
    snapshotter.failNext(message);
  }

  /** Snapshots taken from now on keep readyToUse=false (their data is already cut) until {@link #releaseSnapshots()}. */
  public void holdSnapshots() {
    snapshotter.hold();
  }

  /** Makes every held snapshot readyToUse, and lets new ones be ready at once again. */
  public void releaseSnapshots() {
    snapshotter.release();
    snapshots.getStore().list().forEach(s -> queue.add(key(SNAPSHOT, s)));
  }

  /**
   * Makes the class refuse to provision: its new claims stay Pending and get a Warning Event with reason
   * ProvisioningFailed and this message, as external-provisioner records one.
   */
  public void refuseClass(String className, String message) {
    requireClass(className);
    refusals.put(className, Objects.requireNonNull(message, "message"));
    claims.getStore().list().forEach(c -> queue.add(key(CLAIM, c)));
  }

  /** Lets a refused class provision again; its Pending claims are provisioned now. */
  public void acceptClass(String className) {
    requireClass(className);
    refusals.remove(className);
    claims.getStore().list().forEach(c -> queue.add(key(CLAIM, c)));
  }

  private void requireClass(String className) {
    if (!classes.containsKey(className)) {
      throw new IllegalArgumentException("StorageClass " + className + " is not served by this stand-in (it serves "
          + classes.keySet() + ")");
    }
  }

  // ---- folders ----

  /** The folder holding a CSI volume's data (the PV's spec.csi.volumeHandle under the root). */
  public Path folder(PersistentVolume volume) {
    if (volume.getSpec().getCsi() == null || !provisioner.servesDriver(volume.getSpec().getCsi().getDriver())) {
      throw new IllegalArgumentException("PersistentVolume " + volume.getMetadata().getName()
          + " is not a CSI volume of this stand-in's drivers " + classes.values().stream().map(StorageClassSpec::driver)
              .distinct().toList());
    }
    return folders.volume(volume.getSpec().getCsi().getVolumeHandle());
  }

  /** The folder of the volume a claim is bound to. */
  public Path folder(PersistentVolumeClaim claim) {
    return folder(claim.getMetadata().getNamespace(), claim.getMetadata().getName());
  }

  /** The folder of the volume the claim {@code namespace/claimName} is bound to (read from the API server now). */
  public Path folder(String namespace, String claimName) {
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(namespace).withName(claimName).get();
    if (claim == null || claim.getSpec().getVolumeName() == null) {
      throw new IllegalStateException("claim " + namespace + "/" + claimName + (claim == null ? " does not exist"
          : " is not bound to a volume yet") + ": wait for it with awaitBound(namespace, claimName)");
    }
    PersistentVolume volume = client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
    if (volume == null) {
      throw new IllegalStateException("claim " + namespace + "/" + claimName + " names PersistentVolume "
          + claim.getSpec().getVolumeName() + ", which does not exist");
    }
    return folder(volume);
  }

  /** The folder holding a ready snapshot's copy of its volume. */
  public Path snapshotFolder(String namespace, String snapshotName) {
    return snapshotter.readySnapshot(namespace, snapshotName).map(Snapshotter.ReadySnapshot::folder)
        .orElseThrow(() -> new IllegalStateException("VolumeSnapshot " + namespace + "/" + snapshotName
            + " is not readyToUse on this stand-in's drivers: wait for it with awaitSnapshotReady"));
  }

  // ---- waits (watches with a deadline) ----

  /** Waits until the claim is Bound and returns it. */
  public PersistentVolumeClaim awaitBound(String namespace, String claimName) {
    return awaitBound(namespace, claimName, DEFAULT_WAIT);
  }

  public PersistentVolumeClaim awaitBound(String namespace, String claimName, Duration timeout) {
    return client.persistentVolumeClaims().inNamespace(namespace).withName(claimName)
        .waitUntilCondition(c -> c != null && bound(c), timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits until the VolumeSnapshot is readyToUse and returns it. */
  public GenericKubernetesResource awaitSnapshotReady(String namespace, String snapshotName) {
    return awaitSnapshot(namespace, snapshotName, s -> Boolean.TRUE.equals(s.get("status", "readyToUse")), DEFAULT_WAIT);
  }

  /** Waits until the VolumeSnapshot matches the condition (e.g. has status.error) and returns it. */
  public GenericKubernetesResource awaitSnapshot(String namespace, String snapshotName,
      Predicate<GenericKubernetesResource> condition, Duration timeout) {
    return SnapshotKinds.snapshots(client).inNamespace(namespace).withName(snapshotName)
        .waitUntilCondition(s -> s != null && condition.test(s), timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** The snapshot name in a restored claim's marker file, if the claim was restored from a snapshot. */
  public Optional<String> restoredFrom(String namespace, String claimName) {
    Path marker = Provisioner.marker(folder(namespace, claimName));
    try {
      return java.nio.file.Files.exists(marker) ? Optional.of(java.nio.file.Files.readString(marker)) : Optional.empty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read " + marker, e);
    }
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    queue.close();
  }
}

package dev.varroa.testfixtures.kube.csi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@WithKubeApiServer
class CsiStandInIT {
  private static final AtomicInteger NAMESPACES = new AtomicInteger();
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path root;
  private KubernetesClient client;
  private CsiStandIn csi;
  private String ns;

  @BeforeEach
  void start(KubeApiServer server) {
    client = server.client();
    ns = "csi-" + NAMESPACES.incrementAndGet();
    client.resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
    csi = CsiStandIn.builder(client, root)
        .namespace(ns)
        .storageClass("fast", "fast.csi.varroa.dev")
        .storageClass("kept", "fast.csi.varroa.dev", StorageClassSpec.RETAIN)
        .storageClass("nas", "nas.csi.varroa.dev")
        .start();
  }

  @AfterEach
  void stop() {
    csi.close();
  }

  @Test
  void provisionsAndBindsAClaimOfAServedClass() throws Exception {
    createClaim("home", "fast", null);

    PersistentVolumeClaim claim = csi.awaitBound(ns, "home");
    assertThat(claim.getStatus().getCapacity()).containsEntry("storage", new Quantity("1Gi"));
    PersistentVolume volume = client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
    assertThat(volume.getMetadata().getName()).isEqualTo("pvc-" + claim.getMetadata().getUid());
    assertThat(volume.getSpec().getCsi().getDriver()).isEqualTo("fast.csi.varroa.dev");
    assertThat(volume.getSpec().getClaimRef().getUid()).isEqualTo(claim.getMetadata().getUid());
    assertThat(volume.getSpec().getPersistentVolumeReclaimPolicy()).isEqualTo("Delete");
    assertThat(volume.getSpec().getStorageClassName()).isEqualTo("fast");
    assertThat(volume.getStatus().getPhase()).isEqualTo("Bound");
    assertThat(csi.folder(claim)).isDirectory().isEqualTo(csi.folder(volume));
    assertThat(client.storage().v1().storageClasses().withName("nas").get().getProvisioner())
        .isEqualTo("nas.csi.varroa.dev");
  }

  @Test
  void snapshotCopiesTheVolumeAndARestoredClaimHoldsTheCopyAndTheMarker() throws Exception {
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    Path home = csi.folder(ns, "home");
    Files.createDirectories(home.resolve("secrets"));
    Files.writeString(home.resolve("secrets/master.key"), "k1");

    client.resource(SnapshotKinds.snapshotOf(ns, "nightly", "home", null)).create();
    GenericKubernetesResource snapshot = csi.awaitSnapshotReady(ns, "nightly");
    Files.writeString(home.resolve("secrets/master.key"), "changed after the snapshot");

    assertThat(snapshot.<String>get("status", "restoreSize")).isEqualTo("1Gi");
    assertThat(snapshot.<String>get("status", "creationTime")).isNotBlank();
    GenericKubernetesResource content = SnapshotKinds.contents(client)
        .withName(snapshot.<String>get("status", "boundVolumeSnapshotContentName")).get();
    assertThat(content.<String>get("spec", "driver")).isEqualTo("fast.csi.varroa.dev");
    assertThat(content.<String>get("spec", "volumeSnapshotClassName")).isEqualTo("fast.csi.varroa.dev");

    createClaim("restored", "fast", "nightly");
    csi.awaitBound(ns, "restored");
    assertThat(csi.folder(ns, "restored").resolve("secrets/master.key")).hasContent("k1");
    assertThat(csi.restoredFrom(ns, "restored")).contains("nightly");
  }

  @Test
  void leavesClaimsOfOtherClassesAlone() {
    createClaim("elsewhere", "standard", null);
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");

    assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("elsewhere").get().getSpec().getVolumeName())
        .isNull();
  }

  @Test
  void failedSnapshotCarriesTheDriverMessageAndNoReadyCopy() {
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    csi.failNextSnapshot("rpc error: code = ResourceExhausted desc = snapshot quota exceeded");

    client.resource(SnapshotKinds.snapshotOf(ns, "nightly", "home", null)).create();
    GenericKubernetesResource failed = csi.awaitSnapshot(ns, "nightly", s -> s.get("status", "error") != null, DEADLINE);

    assertThat(failed.<String>get("status", "error", "message")).contains("snapshot quota exceeded");
    assertThat(failed.<Boolean>get("status", "readyToUse")).isFalse();
    client.resource(SnapshotKinds.snapshotOf(ns, "retry", "home", null)).create();
    assertThat(csi.awaitSnapshotReady(ns, "retry").<Object>get("status", "error")).isNull();
  }

  @Test
  void heldSnapshotKeepsItsRestoredClaimPendingUntilReleased() {
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    csi.holdSnapshots();

    client.resource(SnapshotKinds.snapshotOf(ns, "nightly", "home", null)).create();
    GenericKubernetesResource waiting = csi.awaitSnapshot(ns, "nightly",
        s -> s.get("status", "boundVolumeSnapshotContentName") != null, DEADLINE);
    assertThat(waiting.<Boolean>get("status", "readyToUse")).isFalse();
    createClaim("restored", "fast", "nightly");
    await().during(Duration.ofMillis(700)).atMost(DEADLINE).untilAsserted(() -> assertThat(
        client.persistentVolumeClaims().inNamespace(ns).withName("restored").get().getSpec().getVolumeName()).isNull());

    csi.releaseSnapshots();
    csi.awaitSnapshotReady(ns, "nightly");
    assertThat(csi.awaitBound(ns, "restored").getSpec().getVolumeName()).isNotNull();
  }

  @Test
  void deletingASnapshotDeletesItsContentAndCopy() {
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    client.resource(SnapshotKinds.snapshotOf(ns, "nightly", "home", null)).create();
    GenericKubernetesResource snapshot = csi.awaitSnapshotReady(ns, "nightly");
    String content = snapshot.get("status", "boundVolumeSnapshotContentName");
    Path copy = csi.snapshotFolder(ns, "nightly");
    assertThat(copy).isDirectory();

    client.resource(snapshot).delete();

    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(SnapshotKinds.contents(client).withName(content).get()).isNull();
      assertThat(copy).doesNotExist();
    });
  }

  @Test
  void deletingAClaimDeletesItsDeletePolicyVolumeAndFolder() {
    createClaim("home", "fast", null);
    PersistentVolumeClaim claim = csi.awaitBound(ns, "home");
    Path folder = csi.folder(claim);

    client.resource(claim).delete();

    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get()).isNull();
      assertThat(folder).doesNotExist();
    });
  }

  @Test
  void retainedVolumeOutlivesItsClaimAndBindsToAClaimOfAnotherNameOnceFreed() throws Exception {
    createClaim("move-target", "kept", null);
    PersistentVolumeClaim target = csi.awaitBound(ns, "move-target");
    String volumeName = target.getSpec().getVolumeName();
    Files.writeString(csi.folder(target).resolve("config.xml"), "<hudson/>");

    client.resource(target).delete();
    PersistentVolume released = client.persistentVolumes().withName(volumeName)
        .waitUntilCondition(v -> v != null && v.getStatus() != null && "Released".equals(v.getStatus().getPhase()),
            DEADLINE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    assertThat(released.getSpec().getClaimRef().getName()).isEqualTo("move-target");

    // the swap: the new claim names the volume; it binds only once the old claimRef is cleared
    client.resource(new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(ns).withName("jenkins-home-j-0").endMetadata()
        .withNewSpec().withStorageClassName("kept").withAccessModes("ReadWriteOnce").withVolumeName(volumeName)
        .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
        .build()).create();
    await().atMost(DEADLINE).until(() -> warnings("jenkins-home-j-0", "FailedBinding"), n -> n > 0);
    client.persistentVolumes().withName(volumeName).edit(v -> {
      v.getSpec().setClaimRef(null);
      return v;
    });

    PersistentVolumeClaim swapped = csi.awaitBound(ns, "jenkins-home-j-0");
    assertThat(swapped.getSpec().getVolumeName()).isEqualTo(volumeName);
    assertThat(csi.folder(swapped).resolve("config.xml")).hasContent("<hudson/>");
    assertThat(client.persistentVolumes().withName(volumeName).get().getSpec().getClaimRef().getUid())
        .isEqualTo(swapped.getMetadata().getUid());
  }

  @Test
  void refusingClassLeavesItsClaimPendingWithAProvisioningFailedEvent() {
    csi.refuseClass("nas", "rpc error: code = ResourceExhausted desc = the NAS pool is full");
    createClaim("move-target", "nas", null);

    await().atMost(DEADLINE).until(() -> warnings("move-target", CsiStandIn.PROVISIONING_FAILED), n -> n == 1);
    assertThat(client.v1().events().inNamespace(ns).list().getItems())
        .anySatisfy(e -> assertThat(e.getMessage()).contains("the NAS pool is full"));
    assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("move-target").get().getSpec().getVolumeName())
        .isNull();

    csi.acceptClass("nas");
    assertThat(csi.awaitBound(ns, "move-target").getSpec().getVolumeName()).startsWith("pvc-");
  }

  @Test
  void restoreIntoAClassOfAnotherDriverOrSmallerThanTheSnapshotIsRefused() {
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    client.resource(SnapshotKinds.snapshotOf(ns, "nightly", "home", null)).create();
    csi.awaitSnapshotReady(ns, "nightly");

    createClaim("on-nas", "nas", "nightly");
    createClaim("too-small", "fast", "nightly", "512Mi");

    await().atMost(DEADLINE).until(() -> warnings("on-nas", CsiStandIn.PROVISIONING_FAILED), n -> n == 1);
    await().atMost(DEADLINE).until(() -> warnings("too-small", CsiStandIn.PROVISIONING_FAILED), n -> n == 1);
    assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("on-nas").get().getSpec().getVolumeName())
        .isNull();
    assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("too-small").get().getSpec().getVolumeName())
        .isNull();
  }

  @Test
  void bindsAStatefulSetClaimMadeFromItsTemplate() {
    StatefulSet statefulSet = client.resource(new StatefulSetBuilder()
        .withNewMetadata().withNamespace(ns).withName("j-1a2b3c4d").endMetadata()
        .withNewSpec()
        .withNewSelector().addToMatchLabels("app", "jenkins").endSelector()
        .withNewTemplate().withNewMetadata().addToLabels("app", "jenkins").endMetadata()
        .withNewSpec().addNewContainer().withName("jenkins").withImage("jenkins").endContainer().endSpec()
        .endTemplate()
        .addNewVolumeClaimTemplate()
        .withNewMetadata().withName("jenkins-home").addToLabels("varroa.dev/home", "true").endMetadata()
        .withNewSpec().withStorageClassName("fast").withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity("2Gi")).endResources().endSpec()
        .endVolumeClaimTemplate()
        .endSpec()
        .build()).create();

    PersistentVolumeClaim claim = StatefulSetClaims.create(client, statefulSet, 0).get(0);

    assertThat(claim.getMetadata().getName()).isEqualTo("jenkins-home-j-1a2b3c4d-0");
    assertThat(claim.getMetadata().getLabels()).containsEntry("app", "jenkins").containsEntry("varroa.dev/home", "true");
    assertThat(csi.awaitBound(ns, claim.getMetadata().getName()).getStatus().getCapacity())
        .containsEntry("storage", new Quantity("2Gi"));
    assertThat(StatefulSetClaims.create(client, statefulSet, 0).get(0).getMetadata().getUid())
        .isEqualTo(claim.getMetadata().getUid());
  }

  @Test
  void claimMountedByARunningPodStaysTerminatingUntilThePodGoes() {
    createClaim("home", "fast", null);
    PersistentVolumeClaim claim = csi.awaitBound(ns, "home");
    Pod pod = client.resource(new PodBuilder()
        .withNewMetadata().withNamespace(ns).withName("jenkins-0").endMetadata()
        .withNewSpec().addNewContainer().withName("jenkins").withImage("jenkins").endContainer()
        .addNewVolume().withName("home").withNewPersistentVolumeClaim().withClaimName("home").endPersistentVolumeClaim()
        .endVolume().endSpec()
        .build()).create();

    client.resource(claim).delete();
    await().during(Duration.ofMillis(700)).atMost(DEADLINE).untilAsserted(() -> assertThat(
        client.persistentVolumeClaims().inNamespace(ns).withName("home").get().getMetadata().getDeletionTimestamp())
        .isNotNull());

    client.resource(pod).withGracePeriod(0).delete();
    await().atMost(DEADLINE).untilAsserted(() -> {
      assertThat(client.persistentVolumeClaims().inNamespace(ns).withName("home").get()).isNull();
      assertThat(client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get()).isNull();
    });
  }

  @Test
  void defaultStorageClassIsWrittenIntoClaimsWithoutOne() {
    try (CsiStandIn withDefault = CsiStandIn.builder(client, root.resolve("second")).namespace(ns + "-d")
        .storageClass("standard-csi", "std.csi.varroa.dev").defaultStorageClass("standard-csi").start()) {
      client.resource(new NamespaceBuilder().withNewMetadata().withName(ns + "-d").endMetadata().build()).create();
      client.resource(new PersistentVolumeClaimBuilder()
          .withNewMetadata().withNamespace(ns + "-d").withName("home").endMetadata()
          .withNewSpec().withAccessModes("ReadWriteOnce")
          .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources().endSpec()
          .build()).create();

      assertThat(withDefault.awaitBound(ns + "-d", "home").getSpec().getStorageClassName()).isEqualTo("standard-csi");
    } finally {
      client.storage().v1().storageClasses().withName("standard-csi").delete();
    }
  }

  @Test
  void retainedSnapshotContentOutlivesItsSnapshotAndCanBeImportedAgain() throws Exception {
    GenericKubernetesResource retainClass = new GenericKubernetesResource();
    retainClass.setApiVersion(SnapshotKinds.API_VERSION);
    retainClass.setKind("VolumeSnapshotClass");
    retainClass.setMetadata(new ObjectMetaBuilder().withName("fast-retain-" + ns).build());
    retainClass.setAdditionalProperty("driver", "fast.csi.varroa.dev");
    retainClass.setAdditionalProperty("deletionPolicy", "Retain");
    client.resource(retainClass).create();
    createClaim("home", "fast", null);
    csi.awaitBound(ns, "home");
    Files.writeString(csi.folder(ns, "home").resolve("config.xml"), "<hudson/>");
    client.resource(SnapshotKinds.snapshotOf(ns, "kept", "home", "fast-retain-" + ns)).create();
    GenericKubernetesResource kept = csi.awaitSnapshotReady(ns, "kept");
    String contentName = kept.get("status", "boundVolumeSnapshotContentName");
    GenericKubernetesResource content = SnapshotKinds.contents(client).withName(contentName).get();

    client.resource(kept).delete();
    await().atMost(DEADLINE).until(() -> SnapshotKinds.snapshots(client).inNamespace(ns).withName("kept").get() == null);
    assertThat(SnapshotKinds.contents(client).withName(contentName).get()).isNotNull();

    // import: a new content names the old snapshot handle and the new snapshot, which names the content
    GenericKubernetesResource imported = new GenericKubernetesResource();
    imported.setApiVersion(SnapshotKinds.API_VERSION);
    imported.setKind("VolumeSnapshotContent");
    imported.setMetadata(new ObjectMetaBuilder().withName("imported-" + ns).build());
    imported.setAdditionalProperty("spec", java.util.Map.of(
        "driver", "fast.csi.varroa.dev",
        "deletionPolicy", "Retain",
        "source", java.util.Map.of("snapshotHandle", content.<String>get("status", "snapshotHandle")),
        "volumeSnapshotRef", java.util.Map.of("namespace", ns, "name", "imported")));
    client.resource(imported).create();
    GenericKubernetesResource snapshot = SnapshotKinds.snapshotOf(ns, "imported", "home", null);
    snapshot.setAdditionalProperty("spec", java.util.Map.of("source",
        java.util.Map.of("volumeSnapshotContentName", "imported-" + ns)));
    client.resource(snapshot).create();
    csi.awaitSnapshotReady(ns, "imported");
    createClaim("restored", "fast", "imported");

    csi.awaitBound(ns, "restored");
    assertThat(csi.folder(ns, "restored").resolve("config.xml")).hasContent("<hudson/>");
  }

  private long warnings(String claim, String reason) {
    return client.v1().events().inNamespace(ns).list().getItems().stream()
        .filter(e -> claim.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
        .count();
  }

  private void createClaim(String name, String storageClass, String fromSnapshot) {
    createClaim(name, storageClass, fromSnapshot, "1Gi");
  }

  private void createClaim(String name, String storageClass, String fromSnapshot, String size) {
    PersistentVolumeClaimBuilder claim = new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec()
        .withStorageClassName(storageClass)
        .withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity(size)).endResources()
        .endSpec();
    if (fromSnapshot != null) {
      claim.editSpec().withNewDataSource().withApiGroup("snapshot.storage.k8s.io").withKind("VolumeSnapshot")
          .withName(fromSnapshot).endDataSource().endSpec();
    }
    client.resource(claim.build()).create();
  }
}

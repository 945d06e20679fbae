package dev.varroa.testfixtures.kube.csi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.varroa.testfixtures.kube.KubeApiServer;
import dev.varroa.testfixtures.kube.WithKubeApiServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
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

  private void createClaim(String name, String storageClass, String fromSnapshot) {
    PersistentVolumeClaimBuilder claim = new PersistentVolumeClaimBuilder()
        .withNewMetadata().withNamespace(ns).withName(name).endMetadata()
        .withNewSpec()
        .withStorageClassName(storageClass)
        .withAccessModes("ReadWriteOnce")
        .withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
        .endSpec();
    if (fromSnapshot != null) {
      claim.editSpec().withNewDataSource().withApiGroup("snapshot.storage.k8s.io").withKind("VolumeSnapshot")
          .withName(fromSnapshot).endDataSource().endSpec();
    }
    client.resource(claim.build()).create();
  }
}

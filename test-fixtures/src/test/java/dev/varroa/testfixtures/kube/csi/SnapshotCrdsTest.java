package dev.varroa.testfixtures.kube.csi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotCrdsTest {
  @Test
  void missingCrdFileNamesTheScriptThatFetchesIt(@TempDir Path empty) {
    assertThatThrownBy(() -> SnapshotCrds.files(empty))
        .hasMessageContaining("snapshot.storage.k8s.io_volumesnapshotclasses.yaml")
        .hasMessageContaining("test-fixtures/kube/snapshot-crds.sh")
        .hasMessageContaining("client/v8@v" + SnapshotCrds.VERSION);
  }

  @Test
  void cacheFolderIsNamedAfterThePinnedVersion() throws Exception {
    assertThat(SnapshotCrds.folder()).endsWith(Path.of("snapshot-crds", SnapshotCrds.VERSION));
    // the script pins the same version the class reads
    String script = Files.readString(Path.of("kube/snapshot-crds.sh"));
    assertThat(script).contains("SNAPSHOTTER_VERSION=\"${SNAPSHOTTER_VERSION:-" + SnapshotCrds.VERSION + "}\"");
  }

  @Test
  void nodeVolumeStackBuildsTheSnapshotterOfTheCrds() throws Exception {
    // the real node's snapshotter and snapshot controller are built from the release whose CRDs deploy.sh applies
    String install = Files.readString(Path.of("node/csi/install.sh"));
    assertThat(install).contains("SNAPSHOTTER_VERSION=\"${SNAPSHOTTER_VERSION:-" + SnapshotCrds.VERSION + "}\"");
    String deploy = Files.readString(Path.of("node/csi/deploy.sh"));
    assertThat(deploy).contains("snapshot-crds/${SNAPSHOTTER_VERSION:-" + SnapshotCrds.VERSION + "}");
  }
}

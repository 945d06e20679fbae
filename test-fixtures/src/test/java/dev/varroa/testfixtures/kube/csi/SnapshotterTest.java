package dev.varroa.testfixtures.kube.csi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SnapshotterTest {
  @Test
  void restoreSizeIsPrintedWithTheLargestExactBinarySuffix() {
    assertThat(Snapshotter.binarySize(1L << 30)).isEqualTo("1Gi");
    assertThat(Snapshotter.binarySize(3L << 20)).isEqualTo("3Mi");
    assertThat(Snapshotter.binarySize(1500)).isEqualTo("1500");
    assertThat(Snapshotter.binarySize(0)).isEqualTo("0");
  }
}

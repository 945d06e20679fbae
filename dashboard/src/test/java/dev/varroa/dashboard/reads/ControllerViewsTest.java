package dev.varroa.dashboard.reads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.protocol.bus.v1.ControllerDetail;
import dev.varroa.protocol.bus.v1.ControllerRow;
import org.junit.jupiter.api.Test;

class ControllerViewsTest {

  private static ControllerDetail detail(String revision, String desired) {
    return ControllerDetail.newBuilder().setRow(ControllerRow.newBuilder().setRevision(revision))
        .setDesiredBundleDigest(desired).build();
  }

  @Test
  void aDesiredBundleNotYetAppliedIsPending() {
    assertThat(ControllerViews.pendingDigest(detail("sha256:aa", "sha256:bb"))).isEqualTo("sha256:bb");
    assertThat(ControllerViews.pendingDigest(detail("", "sha256:bb"))).isEqualTo("sha256:bb");
  }

  @Test
  void nothingIsPendingOnceAppliedOrWhenNothingRenders() {
    assertThat(ControllerViews.pendingDigest(detail("sha256:bb", "sha256:bb"))).isEmpty();
    assertThat(ControllerViews.pendingDigest(detail("sha256:aa", ""))).isEmpty();
  }
}

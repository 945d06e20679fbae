package dev.varroa.operator.home;

import static org.assertj.core.api.Assertions.assertThat;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.ControllerSpec;
import dev.varroa.api.v1alpha1.ControllerStatus;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.api.v1alpha1.RestoreSpec;
import org.junit.jupiter.api.Test;

class HomeSnapshotsTest {
  private static Controller controller() {
    Controller controller = new Controller();
    controller.getMetadata().setName("team-a");
    controller.getMetadata().setNamespace("ci");
    controller.getMetadata().setUid("1b4e28ba-2fa1-11d2-883f-0016d3cca427");
    controller.setSpec(new ControllerSpec());
    controller.setStatus(new ControllerStatus());
    return controller;
  }

  @Test
  void keepsTheSnapshotSpecRestoreNamesAndTheOneTheHomeCameFrom() {
    Controller controller = controller();
    controller.getSpec().restore = new RestoreSpec();
    controller.getSpec().restore.volumeSnapshotName = "backup-2";
    controller.getStatus().home = new HomeStatus();
    controller.getStatus().home.restoredFrom = "backup-1";

    assertThat(HomeSnapshots.inUse(controller)).containsExactly("backup-1", "backup-2");
  }

  @Test
  void keepsTheSnapshotAMoveCopiesThrough() {
    Controller controller = controller();
    controller.getStatus().home = new HomeStatus();
    controller.getStatus().home.move = new HomeStatus.HomeOperation();
    controller.getStatus().home.move.method = HomeMove.METHOD_SNAPSHOT;

    assertThat(HomeSnapshots.inUse(controller)).containsExactly("jenkins-home-team-a-1b4e28ba-0-move");
  }

  @Test
  void aControllerWithoutRestoreOrMoveUsesNone() {
    assertThat(HomeSnapshots.inUse(controller())).isEmpty();
  }
}

package dev.varroa.operator.home;

import dev.varroa.api.v1alpha1.Controller;
import dev.varroa.api.v1alpha1.HomeStatus;
import dev.varroa.operator.render.naming.StatefulSetName;
import java.util.Set;
import java.util.TreeSet;

/** The VolumeSnapshots a Controller's home depends on, which backup pruning must never delete. */
public final class HomeSnapshots {
  private HomeSnapshots() {}

  /**
   * Names (in the Controller's namespace) of the snapshots a restore or a move uses: the one spec.restore names,
   * the one the home was restored from, and the snapshot a move under way copies through.
   */
  public static Set<String> inUse(Controller controller) {
    Set<String> names = new TreeSet<>();
    if (controller.getSpec() != null && controller.getSpec().restore != null
        && controller.getSpec().restore.volumeSnapshotName != null) {
      names.add(controller.getSpec().restore.volumeSnapshotName);
    }
    HomeStatus home = controller.getStatus() == null ? null : controller.getStatus().home;
    if (home == null) {
      return names;
    }
    if (home.restoredFrom != null) {
      names.add(home.restoredFrom);
    }
    if (home.restore != null && home.restore.from != null) {
      names.add(home.restore.from);
    }
    if (home.move != null && HomeMove.METHOD_SNAPSHOT.equals(home.move.method)
        && controller.getMetadata().getUid() != null) {
      names.add(new HomeNames(StatefulSetName.of(controller.getMetadata().getName(), controller.getMetadata().getUid()))
          .moveSnapshot());
    }
    return names;
  }
}

package dev.varroa.dashboard.records;

import java.util.Objects;

/**
 * Where a record belongs, as the caller's authorization decides on it: the cluster, the controller's namespace and
 * name, and for a run its job (on a cell the job's folder names the Team, docs/cells.md). An installation-wide
 * (_global) activity event has "" for both namespace and controller; a record that is not a run has "" for job.
 */
public record ControllerScope(String cluster, String namespace, String controller, String job) {

  public ControllerScope {
    cluster = Objects.requireNonNullElse(cluster, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    controller = Objects.requireNonNullElse(controller, "");
    job = Objects.requireNonNullElse(job, "");
  }

  public ControllerScope(String cluster, String namespace, String controller) {
    this(cluster, namespace, controller, "");
  }

  /** True for an installation-wide event, which names no controller. */
  public boolean global() {
    return namespace.isEmpty() && controller.isEmpty();
  }
}

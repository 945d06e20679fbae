package dev.varroa.dashboard.records;

import java.util.Objects;

/**
 * Where a record belongs, as the caller's authorization decides on it: the cluster, the controller's namespace and
 * name. An installation-wide (_global) activity event has "" for both namespace and controller.
 */
public record ControllerScope(String cluster, String namespace, String controller) {

  public ControllerScope {
    cluster = Objects.requireNonNullElse(cluster, "");
    namespace = Objects.requireNonNullElse(namespace, "");
    controller = Objects.requireNonNullElse(controller, "");
  }

  /** True for an installation-wide event, which names no controller. */
  public boolean global() {
    return namespace.isEmpty() && controller.isEmpty();
  }
}

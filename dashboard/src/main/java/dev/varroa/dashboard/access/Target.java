package dev.varroa.dashboard.access;

import java.util.Map;

/**
 * What a read is about: a cluster, and within it a namespace and a Controller with its labels. An installation-wide
 * activity event has an empty namespace and controller.
 */
public record Target(String cluster, String namespace, String controller, Map<String, String> labels) {
  public Target {
    labels = Map.copyOf(labels);
  }

  public static Target cluster(String cluster) {
    return new Target(cluster, "", "", Map.of());
  }

  /** An object in a namespace that is not a Controller (a BroodOperation): rules naming Controllers do not cover it. */
  public static Target namespaced(String cluster, String namespace) {
    return new Target(cluster, namespace, "", Map.of());
  }

  public static Target controller(String cluster, String namespace, String controller, Map<String, String> labels) {
    return new Target(cluster, namespace, controller, labels);
  }

  boolean global() {
    return namespace.isEmpty() && controller.isEmpty();
  }

  public String describe() {
    // "*" is a BroodOperation's every registered cluster
    String where = "*".equals(cluster) ? "every cluster" : "cluster " + cluster;
    if (global()) {
      return where;
    }
    if (controller.isEmpty()) {
      return "namespace " + namespace + " in " + where;
    }
    return "controller " + namespace + "/" + controller + " in " + where;
  }
}

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

  public static Target controller(String cluster, String namespace, String controller, Map<String, String> labels) {
    return new Target(cluster, namespace, controller, labels);
  }

  boolean global() {
    return namespace.isEmpty() && controller.isEmpty();
  }

  public String describe() {
    if (global()) {
      return "cluster " + cluster;
    }
    return "controller " + namespace + "/" + controller + " in cluster " + cluster;
  }
}

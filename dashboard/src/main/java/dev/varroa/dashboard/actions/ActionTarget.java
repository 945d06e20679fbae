package dev.varroa.dashboard.actions;

/** What an action is about: a cluster, and within it a namespace and a name (empty for a cluster-wide action). */
public record ActionTarget(String cluster, String namespace, String name) {

  public static ActionTarget cluster(String cluster) {
    return new ActionTarget(cluster, "", "");
  }

  public String describe() {
    if (name.isEmpty()) {
      return namespace.isEmpty() ? "cluster " + cluster : "namespace " + namespace + " in cluster " + cluster;
    }
    return namespace + "/" + name + " in cluster " + cluster;
  }
}

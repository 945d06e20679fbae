package dev.varroa.operator.brood;

/** One Controller a brood operation runs on, named across clusters. */
public record TargetRef(String cluster, String namespace, String name) implements Comparable<TargetRef> {
  @Override
  public int compareTo(TargetRef other) {
    int c = cluster.compareTo(other.cluster);
    if (c != 0) {
      return c;
    }
    c = namespace.compareTo(other.namespace);
    return c != 0 ? c : name.compareTo(other.name);
  }

  @Override
  public String toString() {
    return cluster + "/" + namespace + "/" + name;
  }
}

package dev.varroa.api.v1alpha1;

/**
 * A Team as its pool and its cell name it: its name for a Team of the pool's namespace, {@code namespace/name} for a
 * Team of another (docs/cells.md). The same text keys spec.cell.teams, the pool's status, the record store's row and,
 * with '/' as '_' (which no Kubernetes name holds), the team's folder in Jenkins.
 */
public record TeamRef(String namespace, String name) {

  /** The namespace of the CellPool a Team wants: spec.poolNamespace, or the Team's own. */
  public static String poolNamespace(Team team) {
    String named = team.getSpec() == null ? null : team.getSpec().poolNamespace;
    return named == null || named.isEmpty() ? team.getMetadata().getNamespace() : named;
  }

  public static TeamRef of(Team team) {
    return new TeamRef(team.getMetadata().getNamespace(), team.getMetadata().getName());
  }

  /** The Team a key names, read in {@code namespace} (the pool's, or for spec.callableBy the calling Team's). */
  public static TeamRef parse(String key, String namespace) {
    int slash = key.indexOf('/');
    return slash < 0 ? new TeamRef(namespace, key) : new TeamRef(key.substring(0, slash), key.substring(slash + 1));
  }

  /** The key of the Team in its pool: see {@link #key(String)} in its pool's namespace. */
  public static String key(Team team) {
    return of(team).key(poolNamespace(team));
  }

  /** This Team's name when it lives in {@code namespace}, else namespace/name. */
  public String key(String namespace) {
    return this.namespace.equals(namespace) ? name : this.namespace + "/" + name;
  }

  /** The Team's folder in its cell's Jenkins. */
  public static String folder(Team team) {
    return key(team).replace('/', '_');
  }
}

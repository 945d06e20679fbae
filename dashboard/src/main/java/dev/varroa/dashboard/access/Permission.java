package dev.varroa.dashboard.access;

/**
 * What the BFF serves: a verb (list, get, watch; drain for actions, docs/actions.md) on a resource (clusters,
 * controllers, activity, runs, logs).
 */
public record Permission(String verb, String resource) {
  public static final String LIST = "list";
  public static final String GET = "get";
  public static final String WATCH = "watch";
  public static final String DRAIN = "drain";

  public static final String CLUSTERS = "clusters";
  public static final String CONTROLLERS = "controllers";
  public static final String ACTIVITY = "activity";
  public static final String RUNS = "runs";
  public static final String LOGS = "logs";

  public static Permission of(String verb, String resource) {
    return new Permission(verb, resource);
  }

  @Override
  public String toString() {
    return verb + " " + resource;
  }
}
